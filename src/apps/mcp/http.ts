// `mnesos mcp` over streamable HTTP, for `serve` (its route: src/apps/server/routes/mcp.ts, behind the same
// API keys, Host/Origin checks, rate limit and body limits as every /v1 route). Stateless: each POST is
// answered by a server made for the request's principal, as JSON, and closed with it; nothing about a
// client is kept between requests (sessions live in the store, as for /v1).

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CartridgeLibrary, SessionService } from '../../engine/session/index.ts';
import type { Store } from '../../adapters/store/index.ts';
import type { ExploreDraftInput, ExploreDraftOutcome } from '../../tools/authoring/builder/index.ts';
import { packageVersion } from '../../adapters/project-root.ts';
import { CartridgeFolders } from './folders.ts';
import { createMcpServer } from './server.ts';

export interface McpHttpOptions {
  /** Folders whose cartridges agents may use (none: shipped cartridges only). */
  readonly folders: readonly string[];
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly service: SessionService;
  /** Explores for a principal off the event loop (the server's checker worker, queued per key). */
  readonly explore: (input: ExploreDraftInput, principalId: string) => Promise<ExploreDraftOutcome>;
}

/** Answers one MCP request (its body already read and checked by the server) for a principal. */
export type McpHttpHandler = (request: Request, principalId: string, body: unknown) => Promise<Response>;

export function mcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const folders = new CartridgeFolders(options.folders);
  const version = packageVersion();
  return async (request, principalId, body) => {
    const server = createMcpServer({
      folders,
      store: options.store,
      library: options.library,
      service: options.service,
      principalId,
      version,
      explore: (input) => options.explore(input, principalId),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  };
}
