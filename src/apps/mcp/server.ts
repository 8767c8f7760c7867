// `mnesos mcp`'s server (docs/agents.md): the engine as a Model Context Protocol
// server. An app like the CLI and the HTTP server: its tools, resources and prompts are thin calls into the
// same services (engine/session, tools/authoring), each argument bounded. The transports (stdio.ts, and
// http.ts under `serve`) only carry its messages.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { registerAuthoringTools, validateText } from './tools/authoring-tools.ts';
import { registerPlayTools } from './tools/play-tools.ts';

/** What a client is told at initialize: how the tools fit together. */
const INSTRUCTIONS = [
  'MnesOS runs role-playing games whose rules are data (a cartridge: yare.yaml rules, bot_lore.md lore).',
  'To write or fix a cartridge: validate_cartridge, run_event, eval_expression, explore_cartridge, lore_lookup (see the prompts write_cartridge and fix_cartridge, and the resource mnesos://skill/SKILL.md).',
  'To play: list_cartridges, new_session, then play_turn; session_state and ledger_query read the game.',
  'Cartridges are named by a shipped name or a folder path inside the folders this server was started for.',
].join('\n');

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: 'mnesos', version: ctx.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  registerAuthoringTools(server, ctx);
  registerPlayTools(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server, ctx, (cartridge) => validateText(ctx, cartridge, false));
  return server;
}
