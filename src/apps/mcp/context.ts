// What every MCP tool works with: the folders it may read, the session service (the one way into a turn) and
// whom it acts for. `mnesos mcp` (stdio) builds one for the local user; `serve` builds one per request for
// the principal its API key names (http.ts).

import type { CartridgeLibrary, SessionService } from '../../engine/session/index.ts';
import type { Store } from '../../adapters/store/index.ts';
import type { ExploreDraftInput, ExploreDraftOutcome } from '../../tools/authoring/builder/index.ts';
import type { CartridgeFolders } from './folders.ts';

export interface McpContext {
  readonly folders: CartridgeFolders;
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly service: SessionService;
  /** The principal sessions are created for and read as: the local user on stdio, the key's over HTTP. */
  readonly principalId: string;
  /** The engine's version, told to clients at initialize. */
  readonly version: string;
  /**
   * Explores a cartridge's files within the builder's bounds (runs, steps, BUILDER_EXPLORE_MS): in this
   * process on stdio (`exploreDraft`), in the server's checker worker under `serve`, so seconds of play never
   * hold the server's event loop.
   */
  readonly explore: (input: ExploreDraftInput) => Promise<ExploreDraftOutcome>;
}

/** A call the server refuses (a path outside the folders, an unknown session): said to the agent as an error. */
export class McpRefusal extends Error {
  override readonly name = 'McpRefusal';
}
