// A route file's routes as values: each route is its spec beside its handler, a function of the registry and
// the server's dependencies, and a file exports the list of them (routes/library.ts's LIBRARY_ROUTES). The
// registry (openapi.ts) checks every handler's answers against its spec's responses.

import type { AppDeps } from '../deps.ts';
import type { RouteRegistry } from '../openapi.ts';

/** One route: registers its spec and handler. */
export type RouteDefinition = (api: RouteRegistry, deps: AppDeps) => void;

/** Registers every route of a list, in order. */
export function registerAll(api: RouteRegistry, deps: AppDeps, routes: readonly RouteDefinition[]): void {
  for (const route of routes) route(api, deps);
}
