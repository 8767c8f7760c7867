// The HTTP app, built from injected dependencies (store, services, auth, limits, metrics) so tests build
// exactly what `serve` runs. Order of the layers: request metrics and the error handler outermost, then the
// compression of JSON answers (compression.ts), then the Host/Origin check, then (for /v1) authentication and the rate limit, then the typed routes.

import { type ErrorHandler, Hono, type MiddlewareHandler, type NotFoundHandler } from 'hono';
import { authenticate, hostCheck } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { StoreInputError } from '../../adapters/store/index.ts';
import { ApiError, errorBody } from './errors.ts';
import { type AppEnv, RouteRegistry } from './openapi.ts';
import { rateLimit } from './rate-limit.ts';
import { refuseUnstorableUrl } from './url-guard.ts';
import { registerAuthoringSchemaRoutes } from './routes/authoring-schemas.ts';
import { registerCartridgeRoutes } from './routes/cartridges.ts';
import { registerHistoryRoutes } from './routes/history.ts';
import { registerLibraryRoutes } from './routes/library.ts';
import { registerBuilderRoutes } from './routes/builder.ts';
import { registerMcpRoute } from './routes/mcp.ts';
import { registerMinigameRoutes } from './routes/minigames.ts';
import { registerOpenAiCompatRoutes } from './routes/openai-compat.ts';
import { registerSillyTavernImportRoute } from './routes/sillytavern-import.ts';
import { registerPersonaRoutes } from './routes/personas.ts';
import { registerSaveRoutes } from './routes/saves.ts';
import { registerSchemaRoutes } from './routes/schema.ts';
import { registerSessionRoutes } from './routes/sessions.ts';
import { registerSettingsRoutes } from './routes/settings.ts';
import { registerStateRoutes } from './routes/state.ts';
import { registerStatelessRoutes } from './routes/stateless.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerTurnMediaRoutes } from './routes/turn-media.ts';
import { registerTableRoutes } from './routes/table.ts';
import { registerTurnRoutes } from './routes/turns.ts';
import { registerAll, type RouteDefinition } from './routes/route-list.ts';
import { serveStatic } from './static.ts';
import { compressJsonAnswers } from './compression.ts';

export const API_VERSION = '1.0.0';

/** On every answer. The web client must not be framed by another site (clickjacking): the old header and CSP. */
const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['content-security-policy', "frame-ancestors 'none'"],
  ['referrer-policy', 'no-referrer'],
];

export interface BuiltApp {
  readonly app: Hono<AppEnv>;
  readonly registry: RouteRegistry;
}

/** The route files, in the order their routes are matched. */
const ROUTE_FILES: readonly RouteDefinition[] = [
  registerSystemRoutes,
  registerCartridgeRoutes,
  registerLibraryRoutes,
  registerPersonaRoutes,
  registerSessionRoutes,
  registerTurnRoutes,
  registerTurnMediaRoutes,
  registerHistoryRoutes,
  registerSaveRoutes,
  registerStateRoutes,
  registerSchemaRoutes,
  registerAuthoringSchemaRoutes,
  registerMinigameRoutes,
  registerBuilderRoutes,
  registerStatelessRoutes,
  registerSettingsRoutes,
  registerOpenAiCompatRoutes,
  registerSillyTavernImportRoute,
  registerTableRoutes,
  registerMcpRoute,
];

/** The outermost layer: the security headers on every answer, and each request counted by route and status. */
function headersAndMetrics(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Set before the route answers, so `c.json`/`c.body` build the response with them. Set after, they would
    // make Hono rebuild the finished response around its body as a stream (a Web Response, a ReadableStream
    // and a chunked write for every JSON answer). A Response a route returns whole (the event stream, static
    // files) does not take prepared headers, so those get them after.
    for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
    await next();
    if (!c.res.headers.has('x-content-type-options'))
      for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
    deps.metrics.requests.inc({
      method: c.req.method,
      route: c.get('route') ?? 'unmatched',
      status: String(c.res.status),
    });
  };
}

/** Every error a route throws, as the API's error body: its own status, 400 for refused input, else 500. */
function errorAnswer(deps: AppDeps): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) {
      deps.metrics.errors.inc({ code: error.code });
      for (const [header, value] of Object.entries(error.headers)) c.header(header, value);
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    // Input the store refuses (a name with a control character, say) that no route checked first: a 400
    // naming the field, the same on SQLite and PostgreSQL, never a 500.
    if (error instanceof StoreInputError) {
      deps.metrics.errors.inc({ code: 'invalid_input' });
      return c.json(errorBody('invalid_input', error.message, { field: error.place }), 400);
    }
    deps.metrics.errors.inc({ code: 'internal' });
    console.error('[server] unhandled error:', error);
    return c.json(errorBody('internal', 'internal server error'), 500);
  };
}

/** What /metrics reads from the services at each scrape: turns in flight, caches, live table streams. */
function serviceGauges(deps: AppDeps): void {
  const { metrics } = deps;
  metrics.gauge('mnesos_turns_in_flight', 'Turns running in this process.', () => deps.service.turnsInFlight);
  metrics.gauge(
    'mnesos_model_sets_cached',
    'Principals whose models (built from their settings) are held in memory.',
    () => deps.models.cachedCount,
  );
  // The live streams of shared tables (docs/multiplayer.md).
  metrics.gauge('mnesos_live_streams', 'Live table streams open on this process.', () => deps.live.open);
  metrics.gauge(
    'mnesos_live_streams_dropped',
    'Live table streams dropped for falling behind since this process started.',
    () => deps.live.dropped,
  );
  metrics.gauge(
    'mnesos_cartridges_cached',
    'Loaded cartridges held in memory.',
    () => deps.library.cachedCount,
  );
}

/** GET /openapi.json: built on the first request for it, then kept. */
function serveOpenApi(app: Hono<AppEnv>, registry: RouteRegistry): void {
  // Every route's JSON Schema takes tens of milliseconds `serve` would otherwise spend before it listens; the
  // routes never change after they are registered.
  let document: ReturnType<RouteRegistry['document']> | undefined;
  app.get('/openapi.json', (c) => {
    c.set('route', '/openapi.json');
    document ??= registry.document({ title: 'MnesOS API', version: API_VERSION });
    return c.json(document);
  });
}

/** No route: the web client's static files for a GET outside /v1 (when served), else a 404 naming it. */
function notFoundAnswer(deps: AppDeps): NotFoundHandler<AppEnv> {
  return async (c) => {
    if (deps.staticDir !== undefined && c.req.method === 'GET' && !c.req.path.startsWith('/v1/')) {
      const response = await serveStatic(deps.staticDir, c.req.path, c.req.header('accept-encoding'));
      if (response !== undefined) return response;
    }
    return c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404);
  };
}

export function createApp(deps: AppDeps): BuiltApp {
  const app = new Hono<AppEnv>();
  const registry = new RouteRegistry(app, () => deps.limits.maxJsonBodyBytes);
  app.use('*', headersAndMetrics(deps));
  app.use('*', compressJsonAnswers());
  app.onError(errorAnswer(deps));
  app.use('*', hostCheck(deps.auth));
  app.use('/v1/*', authenticate(deps.auth));
  app.use('/v1/*', refuseUnstorableUrl());
  app.use('/v1/*', rateLimit(deps.limits.rateLimit, deps.limits.rateWindowMs));
  serviceGauges(deps);
  registerAll(registry, deps, ROUTE_FILES);
  serveOpenApi(app, registry);
  app.notFound(notFoundAnswer(deps));
  return { app, registry };
}
