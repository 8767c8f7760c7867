// What the HTTP app is built from. Everything with a side effect is injected, so tests build the same app
// over a temporary store, scripted models and their own limits.

import type { ModelSet } from '../llm/types.ts';
import type { CartridgeLibrary } from '../session/library.ts';
import type { SessionService } from '../session/service.ts';
import type { Store } from '../store/repository.ts';
import type { AuthConfig } from './auth.ts';
import type { ServerLimits } from './limits.ts';
import type { Metrics } from './metrics.ts';

export interface AppDeps {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly service: SessionService;
  readonly auth: AuthConfig;
  readonly limits: ServerLimits;
  readonly metrics: Metrics;
  /** The models of one stateless turn (sessions get theirs through the service); null means offline. */
  readonly models: () => ModelSet | null;
  /** `offline` when no model is configured: said in /healthz, in every turn answer and its headers. */
  readonly modelMode: 'online' | 'offline';
  /** Author mode: the full state view and direct event runs, for the session's owner. */
  readonly authorMode: boolean;
  /** A folder of static files (the web client (`dist/web`)), served for non-API GETs when set. */
  readonly staticDir?: string;
}
