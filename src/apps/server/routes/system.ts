// Unauthenticated operational routes: health, metrics, the OpenAPI document, and who am I (authenticated).

import type { AppDeps } from '../deps.ts';
import type { RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { healthResponse, meResponse } from '../../contract/index.ts';

const getHealth: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'get',
      path: '/healthz',
      tag: 'system',
      auth: false,
      summary:
        'Liveness and configuration: the store dialect, the model mode (offline when no model is configured), the auth mode.',
      responses: {
        200: {
          description: 'Healthy',
          schema: healthResponse,
        },
      },
    },
    async ({ c }) =>
      c.json({
        status: 'ok' as const,
        store: deps.store.dialect,
        modelMode: deps.modelMode,
        auth: deps.auth.kind,
        authorMode: deps.authorMode,
        media: { speech: deps.media?.speech !== undefined, pictures: deps.media?.images !== undefined },
      }),
  );

const getMetrics: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'get',
      path: '/metrics',
      tag: 'system',
      auth: false,
      summary: 'Prometheus metrics: requests, turns by outcome, turn and model latency, tokens, errors.',
      responses: { 200: { description: 'Text exposition format', contentType: 'text/plain; version=0.0.4' } },
    },
    async ({ c }) =>
      c.body(deps.metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );

const getMe: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'get',
      path: '/v1/me',
      tag: 'system',
      summary: 'The principal the request is authenticated as.',
      responses: { 200: { description: 'The principal', schema: meResponse } },
    },
    async ({ c }) => {
      const principal = c.get('principal');
      return c.json({
        principal: { id: principal.id, name: principal.name },
        authorMode: deps.authorMode,
        modelMode: deps.modelMode,
      });
    },
  );

/** Every route of this file, in the order they are registered. */
export const SYSTEM_ROUTES: readonly RouteDefinition[] = [getHealth, getMetrics, getMe];

export function registerSystemRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, SYSTEM_ROUTES);
}
