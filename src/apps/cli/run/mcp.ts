// The work of `mnesos mcp`: models (as `play` chooses them), the store (shared with `play` and `serve`), the
// local player, the session service with the server's turn timeout, and the MCP server on stdin and stdout.
// Stdout carries only the protocol: everything for a person goes to stderr.

import { CartridgeFolders, MCP_TURN_TIMEOUT_MS, serveMcpOverStdio } from '../../mcp/index.ts';
import { localPrincipal } from '../../server/index.ts';
import { CartridgeLibrary, countingSeeds, SessionService } from '../../../engine/session/index.ts';
import { openCommandStore } from '../open-store.ts';
import { exploreDraft } from '../../../tools/authoring/builder/index.ts';
import { chooseModels, OFFLINE_HELP } from '../play/models.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';
import { packageVersion } from '../version.ts';

export interface McpFlags {
  folder?: string[];
  db?: string;
  llmScript?: string;
  seed?: number;
}

function foldersOf(flags: McpFlags): CartridgeFolders {
  try {
    return new CartridgeFolders(flags.folder ?? [process.cwd()]);
  } catch (error) {
    if (error instanceof RangeError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

export async function runMcp(flags: McpFlags): Promise<void> {
  const folders = foldersOf(flags);
  const choice = await chooseModels({ llmScript: flags.llmScript, env: process.env });
  if (choice.kind === 'offline') process.stderr.write(`mnesos mcp: ${OFFLINE_HELP}\n`);
  const store = await openCommandStore(flags.db ?? process.env.MNESOS_DATABASE_URL);
  try {
    const principal = await localPrincipal(store);
    const library = new CartridgeLibrary(store);
    const service = new SessionService({
      store,
      library,
      models: () => choice.models,
      admission: { turnTimeoutMs: MCP_TURN_TIMEOUT_MS },
      ...(flags.seed === undefined ? {} : { seeds: countingSeeds(flags.seed) }),
    });
    process.stderr.write(
      `mnesos mcp: serving on stdio; cartridges from ${folders.roots.join(', ')} and the shipped library\n`,
    );
    await serveMcpOverStdio(
      {
        folders,
        store,
        library,
        service,
        principalId: principal.id,
        version: packageVersion(),
        explore: (input) => exploreDraft(input),
      },
      { input: process.stdin, output: process.stdout },
    );
    await service.close();
  } finally {
    await store.close();
  }
}
