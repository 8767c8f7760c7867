// `POST /v1/mcp`: the engine as a Model Context Protocol server over streamable HTTP (docs/agents.md), the
// same tools as `mnesos mcp` on stdio. Under /v1, so the API keys, the Host/Origin checks and the rate limit
// apply as to every route; the body is read with the same cap and checks as a JSON route. The MCP SDK is
// loaded on the first request, so `serve` starts without it. Stateless: no MCP session is kept, so GET (a
// server-to-client stream) and DELETE (ending a session) have nothing to do and answer 405.

import type { Hono } from 'hono';
import type { McpHttpHandler } from '../../mcp/index.ts';
import { readJsonBody } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { type AppEnv, nodeRequestOf } from '../openapi.ts';

export const MCP_PATH = '/v1/mcp';

export function registerMcpRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  let handler: Promise<McpHttpHandler> | undefined;
  const load = (): Promise<McpHttpHandler> =>
    import('../../mcp/index.ts').then((mcp) =>
      mcp.mcpHttpHandler({
        folders: deps.mcpFolders ?? [],
        store: deps.store,
        library: deps.library,
        service: deps.service,
        explore: (input, principalId) => deps.checker.explore(input, principalId),
      }),
    );
  app.post(MCP_PATH, async (c) => {
    c.set('route', MCP_PATH);
    const body = await readJsonBody(c.req.raw, deps.limits.maxJsonBodyBytes, nodeRequestOf(c));
    handler ??= load();
    return (await handler)(c.req.raw, c.get('principal').id, body);
  });
  app.on(['GET', 'DELETE'], MCP_PATH, (c) => {
    c.set('route', MCP_PATH);
    return c.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'this MCP endpoint is stateless: send each request as a POST' },
      },
      405,
      { allow: 'POST' },
    );
  });
}
