// Who may play a turn: the Idempotency-Key claim in the database (across replicas) and the session's
// in-flight lock in this process. A TurnClaim holds both and gives them back once, however the turn ends.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Turn } from '../../../adapters/store/index.ts';
import { SessionError } from '../errors.ts';
import type { TurnEnvironment } from './types.ts';

export type KeyClaimDeps = Pick<
  TurnEnvironment,
  'store' | 'clock' | 'monotonic' | 'idempotencyWaitMs' | 'claimStaleMs' | 'claimOwner'
>;

/** `replayed`: a turn is already stored under the key; `claimed`: this request plays the turn. */
export type KeyClaim = { readonly kind: 'replayed'; readonly turn: Turn } | { readonly kind: 'claimed' };

/**
 * Claims an Idempotency-Key in the database before anything runs, so two requests with one key (on one
 * replica or two) never both call the model. A loser waits (polling, with backoff, at most
 * `idempotencyWaitMs`) until the winner's turn is stored, or until the winner gives the claim back (its
 * turn failed; then this request plays it), or the winner's process is gone (its heartbeat older than the
 * lease) or its claim stale, and the claim can be taken over. A `claimed` result holds the claim owner:
 * the TurnClaim that ends the turn lets it go.
 */
export async function claimIdempotencyKey(
  deps: KeyClaimDeps,
  sessionId: string,
  key: string,
  turnId: string,
): Promise<KeyClaim> {
  const { claimOwner } = deps;
  await claimOwner.hold();
  let claimed = false;
  try {
    const result = await claimUntilDecided(deps, sessionId, key, turnId);
    claimed = result.kind === 'claimed';
    return result;
  } finally {
    if (!claimed) claimOwner.letGo();
  }
}

async function claimUntilDecided(
  deps: KeyClaimDeps,
  sessionId: string,
  key: string,
  turnId: string,
): Promise<KeyClaim> {
  const { store, claimOwner } = deps;
  const deadline = deps.monotonic() + deps.idempotencyWaitMs;
  let pause = 10;
  for (;;) {
    const first = await store.findTurnByIdempotencyKey(sessionId, key);
    if (first !== undefined) return { kind: 'replayed', turn: first };
    const now = deps.clock();
    const claim = await store.claimIdempotencyKey({
      sessionId,
      key,
      turnId,
      claimedAt: now,
      staleBefore: now - deps.claimStaleMs,
      ownerId: claimOwner.id,
      leaseBefore: claimOwner.leaseBefore(now),
    });
    if (claim.claimed) {
      // The winner may have committed and given its claim back between the two statements above.
      const committed = await store.findTurnByIdempotencyKey(sessionId, key);
      if (committed === undefined) return { kind: 'claimed' };
      await store.releaseIdempotencyKey(sessionId, key, turnId);
      return { kind: 'replayed', turn: committed };
    }
    if (deps.monotonic() >= deadline) {
      throw new SessionError(
        'conflict',
        `another request with this Idempotency-Key is still playing its turn after ${deps.idempotencyWaitMs} ms; retry later`,
      );
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 250);
  }
}

export type TurnClaimDeps = Pick<TurnEnvironment, 'store' | 'inFlight' | 'claimOwner'>;

/** The in-flight lock of a session (and its key claim, when the request had a key), released once. */
export class TurnClaim {
  readonly #deps: TurnClaimDeps;
  readonly sessionId: string;
  readonly key: string | undefined;
  readonly turnId: string;
  #released = false;

  private constructor(deps: TurnClaimDeps, sessionId: string, key: string | undefined, turnId: string) {
    this.#deps = deps;
    this.sessionId = sessionId;
    this.key = key;
    this.turnId = turnId;
  }

  /**
   * Takes the session's in-flight lock for a turn whose key (if any) is already claimed. When another turn
   * holds the lock, gives the key claim back and throws `turn-in-flight`.
   */
  static acquire(deps: TurnClaimDeps, sessionId: string, key: string | undefined, turnId: string): TurnClaim {
    if (!deps.inFlight.tryAcquire(sessionId)) {
      releaseKey(deps, sessionId, key, turnId);
      throw new SessionError(
        'turn-in-flight',
        `a turn is already being played on session ${sessionId}; wait for it to finish`,
      );
    }
    return new TurnClaim(deps, sessionId, key, turnId);
  }

  get released(): boolean {
    return this.#released;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#deps.inFlight.release(this.sessionId);
    releaseKey(this.#deps, this.sessionId, this.key, this.turnId);
  }
}

/** The warning code a failed key release is reported under (`process.on('warning')`, stderr by default). */
export const CLAIM_RELEASE_WARNING = 'MNESOS_CLAIM_RELEASE_FAILED';

/**
 * Gives a key claim back without waiting: a claim left behind (the store unreachable) only delays a retry
 * with the same key until CLAIM_STALE_MS, so its failure must not fail the turn that already ended. It is
 * not swallowed either: the operator sees it as a process warning naming the session and the cause.
 */
function releaseKey(deps: TurnClaimDeps, sessionId: string, key: string | undefined, turnId: string): void {
  if (key === undefined) return;
  deps.claimOwner.letGo();
  deps.store.releaseIdempotencyKey(sessionId, key, turnId).catch((error: unknown) => {
    const cause = error instanceof Error ? error.message : String(error);
    process.emitWarning(
      `could not give back the Idempotency-Key claim of turn ${turnId} on session ${sessionId} (a retry with that key waits until the claim is stale): ${cause}`,
      { code: CLAIM_RELEASE_WARNING },
    );
  });
}
