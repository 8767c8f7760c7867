// Stage 3 of a turn: the finished record, its state and its ledger batch appended to the turn log as one
// turn in one transaction, then projected: the world snapshot pieces the branch is due stored in the snapshot
// store, and the new world kept in memory (branch-world.ts, projectTurn). Refused when the turn is too large
// to store (storable.ts names the cartridge part), the head moved since prepare or the parent is gone; a
// retry with a committed Idempotency-Key is
// `replayed` (the store answers with the first turn).

import { type AppendTurnResult, JsonText, type Turn } from '../../../adapters/store/index.ts';
import type { TurnRecord } from '../../turn/index.ts';
import { nextBranchWorld, projectTurn } from '../branch-world.ts';
import { notFound, SessionError } from '../errors.ts';
import { withoutWorld } from '../ledger.ts';
import { ledgerEventsOf, turnRecordOf } from '../records.ts';
import { keepChildWindow } from '../window-cache.ts';
import { unstorableTurn } from './storable.ts';
import type { TurnContext, TurnEnvironment } from './types.ts';

export type CommitDeps = Pick<TurnEnvironment, 'store' | 'worlds' | 'windows' | 'snapshotRule' | 'clock'>;

export type CommitResult =
  | { readonly kind: 'committed'; readonly turn: Turn }
  | { readonly kind: 'replayed'; readonly turn: Turn }
  | { readonly kind: 'refused'; readonly error: SessionError };

export async function commitTurn(
  deps: CommitDeps,
  context: TurnContext,
  record: TurnRecord,
): Promise<CommitResult> {
  const { sessionId, parentId, request } = context;
  const ledgerEvents = ledgerEventsOf(record);
  const after = nextBranchWorld(
    context.before,
    record.ledger.worldAfter,
    ledgerEvents,
    deps.snapshotRule,
    context.turnId,
  );
  // Serialised once: the size checks read the text, and the store keeps it as it is.
  const stored = new JsonText(JSON.stringify(withoutWorld(turnRecordOf(record))));
  const unstorable = unstorableTurn(record, stored.text);
  if (unstorable !== undefined) return { kind: 'refused', error: unstorable };
  const rebased = context.rebased;
  const appended = await deps.store.appendTurn({
    id: context.turnId,
    sessionId,
    // A rebase is stored first, under its base; the turn goes under its last turn (parentId).
    parentId: rebased?.baseId ?? parentId,
    ...(rebased === undefined ? {} : { rebased: rebased.turns }),
    expectedHeadId: context.expectedHeadId,
    ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
    input: record.input,
    narration: record.narration,
    record: stored,
    state: record.stateAfter,
    ledgerEvents,
    ...(record.ledger.gameTime === undefined ? {} : { ledgerGameTime: record.ledger.gameTime }),
    seed: context.seed,
    createdAt: deps.clock(),
  });
  if (appended.ok) {
    if (appended.replayed) return { kind: 'replayed', turn: appended.turn };
    await projectTurn(deps.store, deps.worlds, sessionId, appended.turn.id, after);
    keepChildWindow(deps.windows, parentId, appended.turn);
    return { kind: 'committed', turn: appended.turn };
  }
  return { kind: 'refused', error: appendRefused(appended, sessionId, rebased?.baseId ?? parentId) };
}

/** What a refused append tells the player: the head moved on, or the session or the parent is gone. */
function appendRefused(
  refused: Exclude<AppendTurnResult, { ok: true }>,
  sessionId: string,
  parentId: string,
): SessionError {
  switch (refused.reason) {
    case 'conflict':
      return new SessionError(
        'conflict',
        'the session moved on while this turn ran (another turn was committed); nothing was saved',
        { headTurnId: refused.headTurnId },
      );
    case 'session-not-found':
      return notFound(`session ${sessionId}`);
    case 'parent-not-found':
      return notFound(`turn ${parentId}`);
    default: {
      const unreachable: never = refused;
      throw new Error(`unexpected appendTurn result ${JSON.stringify(unreachable)}`);
    }
  }
}
