// An MCP server in this process, reached by the SDK's own client over its in-memory transport: the same
// server `mnesos mcp` runs (createMcpServer), over a temporary SQLite store, offline, with cartridges in a
// temporary working folder. The stdio and HTTP suites start the real command and the real server.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CartridgeFolders, createMcpServer, type McpContext } from '../../../src/apps/mcp/index.ts';
import { localPrincipal } from '../../../src/apps/server/auth.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { CartridgeLibrary, countingSeeds, SessionService } from '../../../src/engine/session/index.ts';
import { exploreDraft } from '../../../src/tools/authoring/builder/index.ts';
import { scaffoldCartridge } from '../../../src/tools/authoring/index.ts';

export interface InProcessMcp {
  readonly client: Client;
  /** The working folder the server may read (cartridges written here are allowed). */
  readonly dir: string;
  readonly store: Store;
  readonly context: McpContext;
  /** Calls a tool; the text of its answer and whether it is an error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export function toolText(result: unknown): { text: string; isError: boolean } {
  const r = result as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  return { text, isError: r.isError === true };
}

/** A temporary folder with `minimal/` (the project's minimal template) written into it. */
export function workFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-mcp-'));
  const made = scaffoldCartridge(join(dir, 'minimal'), 'minimal');
  if (!made.ok) throw new Error(made.message);
  return dir;
}

/** A cartridge whose rules misname a state field (`state.keeper.oill`) at a known place. */
export function writeBrokenCartridge(dir: string): void {
  const made = scaffoldCartridge(join(dir, 'broken'), 'minimal');
  if (!made.ok) throw new Error(made.message);
  writeFileSync(
    join(dir, 'broken', 'yare.yaml'),
    [
      'version: "1.0"',
      'state_schema:',
      '  keeper:',
      '    visibility: public',
      '    oil: { type: int, default: 3 }',
      'events:',
      '  spill:',
      '    steps:',
      '      - action: mutate',
      '        var: state.keeper.oill',
      '        op: sub',
      '        value: 1',
      '',
    ].join('\n'),
  );
}

export async function startInProcessMcp(
  options: { folders?: readonly string[]; dir?: string } = {},
): Promise<InProcessMcp> {
  const dir = options.dir ?? workFolder();
  const store = await openStore(join(dir, 'mnesos.db'));
  const library = new CartridgeLibrary(store);
  const service = new SessionService({ store, library, models: () => null, seeds: countingSeeds(7) });
  const context: McpContext = {
    folders: new CartridgeFolders(options.folders ?? [dir]),
    store,
    library,
    service,
    principalId: (await localPrincipal(store)).id,
    version: 'test',
    explore: (input) => exploreDraft(input),
  };
  const server = createMcpServer(context);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mnesos-test', version: '1' });
  await client.connect(clientSide);
  return {
    client,
    dir,
    store,
    context,
    async call(name, args = {}) {
      return toolText(await client.callTool({ name, arguments: args }));
    },
    async close() {
      await client.close();
      await server.close();
      await service.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
