// What the HTTP app is built from. Everything with a side effect is injected, so tests build the same app
// over a temporary store, scripted models and their own limits.

import type {
  CartridgeLibrary,
  PrincipalModels,
  SessionService,
  TableService,
} from '../../engine/session/index.ts';
import type { Store } from '../../adapters/store/index.ts';
import type { LiveHub } from './live/hub.ts';
import type { AuthConfig } from './auth.ts';
import type { CartridgeChecker } from './cartridge-checker.ts';
import type { GenerateRunner } from './generate/runner.ts';
import type { ServerLimits } from './limits.ts';
import type { LiveNarrations } from './live-narration.ts';
import type { ServerMedia } from './media.ts';
import type { Metrics } from './metrics.ts';

export interface AppDeps {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  /** Checks uploaded cartridges off the request thread. */
  readonly checker: CartridgeChecker;
  /** Runs the AI generator's generations in a worker thread. */
  readonly generator: GenerateRunner;
  readonly service: SessionService;
  /** Shared tables: members, invitations, turn order and live events (docs/multiplayer.md). */
  readonly table: TableService;
  /** Members' live streams of their tables on this process. */
  readonly live: LiveHub;
  readonly auth: AuthConfig;
  readonly limits: ServerLimits;
  readonly metrics: Metrics;
  /** Each principal's models (the server's, overridden by the principal's settings) and the settings policy. */
  readonly models: PrincipalModels;
  /** The server's own mode, said in /healthz; each turn answer says the mode of that principal's models. */
  readonly modelMode: 'online' | 'offline';
  /** Author mode: the full state view and direct event runs, for the session's owner. */
  readonly authorMode: boolean;
  /**
   * Folders whose cartridges agents may use through `POST /v1/mcp` (`serve --mcp-folder`); none or absent:
   * shipped cartridges only.
   */
  readonly mcpFolders?: readonly string[];
  /** Voices and pictures (docs/voices.md); absent: both off. */
  readonly media?: ServerMedia;
  /** The narration of each turn streaming on this process, read aloud as it streams. */
  readonly narrations: LiveNarrations;
  /** A folder of static files (the web client (`dist/web`)), served for non-API GETs when set. */
  readonly staticDir?: string;
}
