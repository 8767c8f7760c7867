// The state and story window a turn starts from, kept by turn id like the worlds (world-cache.ts): a turn
// played on the head of a game this process is playing reads its parent's state and last
// TURN_HISTORY_WINDOW messages from memory instead of walking the branch in the store again; the new
// turn's window is its parent's plus itself. Turns never change, so an entry is never stale. Entries are
// frozen: one is handed to every turn played from that parent (swipes, retries), and none may change it.

import type { JsonValue, Turn, TurnLog, TurnMessage } from '../../adapters/store/index.ts';
import { WORLD_CACHE_SIZE } from './limits.ts';
import { TurnLru } from './world-cache.ts';

export interface TurnWindow {
  /** The session the turn belongs to: an entry answers for that session only. */
  readonly sessionId: string;
  readonly depth: number;
  /** The game state after the turn. */
  readonly state: JsonValue;
  /** The last turns of the branch ending at this one (at most the window), oldest first. */
  readonly messages: readonly TurnMessage[];
  /** True when `messages` starts at the genesis turn. */
  readonly complete: boolean;
}

export class WindowCache extends TurnLru<TurnWindow> {
  constructor(
    readonly window: number,
    size = WORLD_CACHE_SIZE,
  ) {
    super(size, 'window cache');
  }
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}

/** The window at `turnId` of `sessionId`: from memory, else hydrated from the store (undefined: no such turn there). */
export async function turnWindow(
  store: Pick<TurnLog, 'hydrate'>,
  windows: WindowCache,
  sessionId: string,
  turnId: string,
): Promise<TurnWindow | undefined> {
  const cached = windows.get(turnId);
  if (cached !== undefined && cached.sessionId === sessionId) return cached;
  const hydrated = await store.hydrate(sessionId, turnId, {
    messageWindow: windows.window,
    ledgerEvents: false,
  });
  if (hydrated === undefined) return undefined;
  const entry: TurnWindow = deepFreeze({
    sessionId,
    depth: hydrated.turn.depth,
    state: hydrated.state,
    messages: hydrated.messages,
    complete: hydrated.messagesComplete,
  });
  windows.set(turnId, entry);
  return entry;
}

/** Keeps the window of a turn just stored after `parentId`, when the parent's window is in memory. */
export function keepChildWindow(windows: WindowCache, parentId: string, turn: Turn): void {
  const parent = windows.get(parentId);
  if (parent === undefined || parent.sessionId !== turn.sessionId) return;
  const message: TurnMessage = {
    id: turn.id,
    sessionId: turn.sessionId,
    parentId: turn.parentId,
    depth: turn.depth,
    siblingIndex: turn.siblingIndex,
    seq: turn.seq,
    createdAt: turn.createdAt,
    input: turn.input,
    narration: turn.narration,
  };
  const all = [...parent.messages, message];
  windows.set(
    turn.id,
    deepFreeze({
      sessionId: turn.sessionId,
      depth: turn.depth,
      state: turn.state,
      messages: all.length > windows.window ? all.slice(all.length - windows.window) : all,
      complete: parent.complete && all.length <= windows.window,
    }),
  );
}
