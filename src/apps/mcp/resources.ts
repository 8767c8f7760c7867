// The MCP resources (docs/agents.md, Resources): the project's documentation (`mnesos://docs/<file>`), the
// authoring skill (`mnesos://skill/<file>`) and a cartridge's own files (`mnesos://cartridge/<cartridge>/<file>`).
// Documentation and skill files are listed once from the package's own folders: no name a client sends
// reaches the file system. A cartridge's files are read the way the loader reads them (readCartridgeFolder:
// its own file names only, symbolic links that leave the folder refused, sizes bounded), from a cartridge
// the folder policy allows.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { CARTRIDGE_FILES } from '../../core/cartridge/index.ts';
import { readCartridgeFolder } from '../../adapters/files/index.ts';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';
import { type McpContext, McpRefusal } from './context.ts';

export const DOCS_DIR = join(PROJECT_ROOT, 'docs');
export const SKILL_DIR = join(PROJECT_ROOT, 'skills', 'mnesos-cartridge');

const CARTRIDGE_FILE_NAMES: ReadonlySet<string> = new Set(CARTRIDGE_FILES.map((spec) => spec.name));

/** Markdown files of a folder and its `references/` (for the skill), relative names, sorted. */
export function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  for (const sub of ['', 'references']) {
    const at = join(dir, sub);
    if (!existsSync(at) || !statSync(at).isDirectory()) continue;
    for (const name of readdirSync(at).sort())
      if (name.endsWith('.md')) found.push(sub === '' ? name : `${sub}/${name}`);
  }
  return found;
}

function markdown(uri: URL, text: string): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
}

function registerFolderOfMarkdown(server: McpServer, prefix: 'docs' | 'skill', dir: string): void {
  for (const file of markdownFiles(dir)) {
    server.registerResource(
      `${prefix}/${file}`,
      `mnesos://${prefix}/${file}`,
      {
        title: prefix === 'docs' ? `MnesOS documentation: ${file}` : `The cartridge-authoring skill: ${file}`,
        mimeType: 'text/markdown',
      },
      async (uri) => markdown(uri, readFileSync(join(dir, file), 'utf8')),
    );
  }
}

/** One variable of a matched URI template: decoded, or refused when it is not valid percent-encoding. */
function variable(value: string | string[] | undefined, name: string): string {
  const raw = Array.isArray(value) ? value.join('/') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new McpRefusal(`resource: the ${name} '${raw.slice(0, 100)}' is not valid percent-encoding`);
  }
}

async function cartridgeFile(ctx: McpContext, cartridge: string, file: string): Promise<string> {
  if (!CARTRIDGE_FILE_NAMES.has(file))
    throw new McpRefusal(
      `resource: '${file.slice(0, 100)}' is not a cartridge file (${[...CARTRIDGE_FILE_NAMES].join(', ')})`,
    );
  const resolved = ctx.folders.resolve(cartridge);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  const read = await readCartridgeFolder(resolved.dir);
  if (!read.ok) throw new McpRefusal(read.errors.map((e) => e.message).join('; '));
  const bytes = read.files.get(file);
  if (bytes === undefined) throw new McpRefusal(`cartridge '${cartridge}' has no ${file}`);
  return new TextDecoder('utf-8').decode(bytes);
}

export function registerResources(server: McpServer, ctx: McpContext): void {
  registerFolderOfMarkdown(server, 'docs', DOCS_DIR);
  registerFolderOfMarkdown(server, 'skill', SKILL_DIR);
  server.registerResource(
    'cartridge-file',
    new ResourceTemplate('mnesos://cartridge/{cartridge}/{file}', {
      // The files of every cartridge list_cartridges names (a bounded list).
      list: async () => ({
        resources: ctx.folders.list().cartridges.flatMap((c) =>
          CARTRIDGE_FILES.filter((spec) => existsSync(join(c.dir, spec.name))).map((spec) => ({
            uri: `mnesos://cartridge/${encodeURIComponent(c.cartridge)}/${spec.name}`,
            name: `${c.cartridge}/${spec.name}`,
            mimeType: spec.name.endsWith('.md') ? 'text/markdown' : 'text/plain',
          })),
        ),
      }),
    }),
    {
      title: "A cartridge's file",
      description: 'yare.yaml, bot_lore.md, prompt_directives.yaml, … of a cartridge list_cartridges names',
    },
    async (uri, vars) => {
      const cartridge = variable(vars.cartridge, 'cartridge');
      const file = variable(vars.file, 'file');
      const text = await cartridgeFile(ctx, cartridge, file);
      return {
        contents: [{ uri: uri.href, mimeType: file.endsWith('.md') ? 'text/markdown' : 'text/plain', text }],
      };
    },
  );
}
