// A tool file's tools as values, the way the HTTP server lists its routes (apps/server/routes/route-list.ts):
// each tool is its registration, spec beside handler, as a function of the MCP server and the context, and a
// file exports the list of them (tools/authoring-tools.ts's AUTHORING_TOOLS).

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from '../context.ts';

/** One tool: registers its spec and handler. */
export type ToolDefinition = (server: McpServer, ctx: McpContext) => void;

/** Registers every tool of a list, in order. */
export function registerTools(server: McpServer, ctx: McpContext, tools: readonly ToolDefinition[]): void {
  for (const tool of tools) tool(server, ctx);
}
