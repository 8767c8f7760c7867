// `POST /v1/mcp`: the engine as a Model Context Protocol server over streamable HTTP (docs/agents.md), the
// same tools as `mnesos mcp` on stdio. Under /v1, so the API keys, the Host/Origin checks and the rate limit
// apply as to every route; the body is read with the same cap and checks as a JSON route. The MCP SDK is
// loaded on the first request, so `serve` starts without it. Stateless: no MCP session is kept, so GET (a
// server-to-client stream) and DELETE (ending a session) have nothing to do and answer 405. Registered as
// routes of the OpenAPI document, which describes the JSON-RPC bodies only as JSON (the MCP specification
// says the rest).

import type { McpHttpHandler } from '../../mcp/index.ts';
import { readJsonBody } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { nodeRequestOf, type RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';

export const MCP_PATH = '/v1/mcp';

const NOT_STATELESS = {
  description:
    'This endpoint is stateless: no server-to-client stream and no session to end (a JSON-RPC error)',
  contentType: 'application/json',
};

/** The MCP handler, built on first use (the SDK is imported then) and kept. */
function lazyMcpHandler(deps: AppDeps): () => Promise<McpHttpHandler> {
  let handler: Promise<McpHttpHandler> | undefined;
  return () =>
    (handler ??= import('../../mcp/index.ts').then((mcp) =>
      mcp.mcpHttpHandler({
        folders: deps.mcpFolders ?? [],
        store: deps.store,
        library: deps.library,
        service: deps.service,
        explore: (input, principalId) => deps.checker.explore(input, principalId),
      }),
    ));
}

const postMcp: RouteDefinition = (api, deps) => {
  const handler = lazyMcpHandler(deps);
  api.add(
    {
      method: 'post',
      path: MCP_PATH,
      tag: 'mcp',
      summary:
        'One MCP JSON-RPC message (or batch) over streamable HTTP, answered as JSON: the tools, resources and prompts of docs/agents.md.',
      rawBody: {
        contentTypes: ['application/json'],
        description: 'A JSON-RPC request, notification or batch',
      },
      responses: {
        200: { description: 'The JSON-RPC answer', contentType: 'application/json' },
        202: { description: 'A notification, accepted' },
      },
    },
    async ({ c }) => {
      const body = await readJsonBody(c.req.raw, deps.limits.maxJsonBodyBytes, nodeRequestOf(c));
      return (await handler())(c.req.raw, c.get('principal').id, body);
    },
  );
};

/** GET or DELETE: 405 with a JSON-RPC error, as a stateless MCP server answers them. */
function notStateless(method: 'get' | 'delete'): RouteDefinition {
  return (api) =>
    api.add(
      {
        method,
        path: MCP_PATH,
        tag: 'mcp',
        summary: 'Not used: the MCP endpoint is stateless (405 with a JSON-RPC error).',
        responses: { 405: NOT_STATELESS },
      },
      () =>
        new Response(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'this MCP endpoint is stateless: send each request as a POST' },
          }),
          { status: 405, headers: { 'content-type': 'application/json', allow: 'POST' } },
        ),
    );
}

/** Every route of this file, in the order they are registered. */
export const MCP_ROUTES: readonly RouteDefinition[] = [postMcp, notStateless('get'), notStateless('delete')];

export function registerMcpRoute(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, MCP_ROUTES);
}
