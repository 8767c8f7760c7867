// Idempotency-Key claims and the processes holding them (turn-claims.ts stores them). Types only.

/** A claim on an Idempotency-Key: won, or held by another request's turn. */
export type ClaimResult = { claimed: true } | { claimed: false; turnId: string; claimedAt: number };

export interface ClaimInput {
  sessionId: string;
  key: string;
  turnId: string;
  claimedAt: number;
  /** A claim made before this time is taken over whoever holds it. */
  staleBefore: number;
  /** The claiming process (registered with `registerClaimOwner` first). */
  ownerId?: string;
  /** A claim whose owner's last heartbeat is before this time, or whose owner is gone, is taken over. */
  leaseBefore?: number;
}

/** Who plays the turn of an Idempotency-Key: one claim per key, held by a live process. */
export interface TurnClaims {
  /**
   * Claims the key for `turnId` before the turn runs; a claim older than `staleBefore`, or held by an owner
   * whose heartbeat is older than `leaseBefore` (or who is gone), may be taken over.
   */
  claimIdempotencyKey(input: ClaimInput): Promise<ClaimResult>;
  releaseIdempotencyKey(sessionId: string, key: string, turnId: string): Promise<void>;
  /** Registers (or refreshes) a process that claims keys; prunes owners silent since before `pruneBefore`. */
  registerClaimOwner(input: { ownerId: string; at: number; pruneBefore: number }): Promise<void>;
  /** Refreshes the owner's heartbeat; false when its row is gone (it must register again). */
  heartbeatClaimOwner(ownerId: string, at: number): Promise<boolean>;
  /** A clean shutdown: the owner's remaining claims may be taken over at once. */
  endClaimOwner(ownerId: string): Promise<void>;
}
