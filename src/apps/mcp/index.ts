// `mnesos mcp` (docs/agents.md): the engine as a Model Context Protocol server, over stdio (stdio.ts) and,
// under `serve`, over streamable HTTP (http.ts).
export { answered, capText } from './answer.ts';
export { type McpContext, McpRefusal } from './context.ts';
export { CartridgeFolders, LIBRARY_DIR, type ListedCartridge, type ResolvedCartridge } from './folders.ts';
export * from './limits.ts';
export { createMcpServer } from './server.ts';
export { LineBound, overlongLineError, serveMcpOverStdio, type StdioStreams } from './stdio.ts';
export { type McpHttpHandler, type McpHttpOptions, mcpHttpHandler } from './http.ts';
