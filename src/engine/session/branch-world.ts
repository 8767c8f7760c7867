// The world projection of a branch: the world at a turn with its snapshot bookkeeping (see world-cache.ts),
// read from memory when this process has it, else from the snapshot store's nearest snapshot on the branch
// plus the batches after it; the bookkeeping a new turn leaves for the next one; and the snapshot pieces it
// stores, once the turn is in the log (projectTurn). The turn log never carries them.

import type { World } from '../../core/ledger/index.ts';
import type { SnapshotPieces, SnapshotStore } from '../../adapters/store/index.ts';
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
  store: Pick<SnapshotStore, 'getWorldBase'>,
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
  store: Pick<SnapshotStore, 'getWorldBase'>,
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

/** The warning code a failed snapshot write is reported under (`process.on('warning')`, stderr by default). */
export const SNAPSHOT_WRITE_WARNING = 'MNESOS_SNAPSHOT_WRITE_FAILED';

/**
 * Projects a committed turn: stores the snapshot pieces the rule asked of it and keeps its world in memory
 * for the next turn. A failed write does not undo the committed turn: it is reported as a process warning,
 * and the turn's world is not kept, so the next turn reads the branch from the store (an unfinished
 * snapshot stays unread and a new one begins when the branch is overdue) and never stores the rest of a
 * snapshot whose earlier pieces are missing.
 */
export async function projectTurn(
  snapshots: Pick<SnapshotStore, 'putSnapshotPieces'>,
  worlds: WorldCache,
  sessionId: string,
  turnId: string,
  after: { readonly entry: BranchWorld; readonly snapshot?: SnapshotPieces },
): Promise<void> {
  if (after.snapshot !== undefined) {
    let stored: boolean;
    let cause = '';
    try {
      const result = await snapshots.putSnapshotPieces(sessionId, after.snapshot);
      stored = result.ok;
      if (!result.ok) cause = result.reason;
    } catch (error) {
      stored = false;
      cause = error instanceof Error ? error.message : String(error);
    }
    if (!stored) {
      process.emitWarning(
        `could not store the world snapshot pieces of turn ${after.snapshot.turnId} on session ${sessionId} (the world is rebuilt from older snapshots and the ledger): ${cause}`,
        { code: SNAPSHOT_WRITE_WARNING },
      );
      return;
    }
  }
  worlds.set(turnId, { ...after.entry, sessionId });
}
