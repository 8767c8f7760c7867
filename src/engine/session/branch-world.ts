// The world at a turn with its branch's snapshot bookkeeping (see world-cache.ts): read from memory when this
// process has it, else from the store's nearest snapshot on the branch plus the batches after it; and the
// bookkeeping a new turn leaves for the next one.

import type { World } from '../../core/ledger/index.ts';
import type { SnapshotPieces, Store } from '../../adapters/store/index.ts';
import { notFound, SessionError } from './errors.ts';
import { type WorldResult, worldFromBase } from './ledger.ts';
import { type BranchWorld, nextSnapshotProgress, type SnapshotRule, type WorldCache } from './world-cache.ts';

export interface LoadedWorld {
  /** The turn's depth when the store was read; null when the world came from memory. */
  readonly depth: number | null;
  readonly result: WorldResult;
  readonly entry?: BranchWorld;
}

/** The world at a turn (undefined when the turn does not exist); a replayed world is cached. */
export async function loadWorld(
  store: Store,
  worlds: WorldCache,
  sessionId: string,
  turnId: string,
): Promise<LoadedWorld | undefined> {
  const cached = worlds.get(turnId);
  if (cached !== undefined && (cached.sessionId === undefined || cached.sessionId === sessionId))
    return { depth: null, result: { ok: true, world: cached.world, log: [] }, entry: cached };
  const base = await store.getWorldBase(sessionId, turnId);
  if (base === undefined) return undefined;
  const result = worldFromBase(base);
  if (!result.ok) return { depth: base.depth, result };
  const entry: BranchWorld = {
    sessionId,
    world: result.world,
    sinceSnapshotChars: base.eventChars,
    snapshotChars: base.snapshot?.chars ?? 0,
    sinceSnapshotTurns: base.depth - (base.snapshot?.depth ?? 0),
  };
  worlds.set(turnId, entry);
  return { depth: base.depth, result, entry };
}

/** The world a turn played after `turnId` starts from; a missing turn or a ledger that does not replay is an error. */
export async function branchWorld(
  store: Store,
  worlds: WorldCache,
  sessionId: string,
  turnId: string,
): Promise<BranchWorld> {
  const loaded = await loadWorld(store, worlds, sessionId, turnId);
  if (loaded === undefined) throw notFound(`turn ${turnId}`);
  if (!loaded.result.ok)
    throw new SessionError(
      'invalid',
      `the stored world ledger does not replay at turn ${loaded.result.turn}`,
    );
  return (
    loaded.entry ?? {
      world: loaded.result.world,
      sinceSnapshotChars: 0,
      snapshotChars: 0,
      sinceSnapshotTurns: 0,
    }
  );
}

/**
 * The branch bookkeeping after a turn: its events count towards the next snapshot, and the turn stores the
 * snapshot pieces the rule asks of it (see nextSnapshotProgress).
 */
export function nextBranchWorld(
  before: BranchWorld,
  worldAfter: World,
  events: readonly unknown[],
  rule: SnapshotRule,
  turnId: string,
): { entry: BranchWorld; snapshot?: SnapshotPieces } {
  let eventChars = 0;
  for (const event of events) eventChars += JSON.stringify(event)?.length ?? 0;
  const next = nextSnapshotProgress(
    before,
    { turnId, eventChars, worldText: () => JSON.stringify(worldAfter) },
    rule,
  );
  return {
    entry: { ...next.progress, world: worldAfter },
    ...(next.write === undefined ? {} : { snapshot: next.write }),
  };
}
