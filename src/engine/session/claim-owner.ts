// This process as the holder of Idempotency-Key claims: one owner id per service, registered in the store
// and kept alive by a heartbeat while it holds any claim. Other processes take a claim over once its
// owner's heartbeat is older than the lease (src/adapters/store/turn-claims.ts), so a retry after this
// process is killed mid-turn runs within one lease instead of waiting for the claim to grow stale.

import type { TurnClaims } from '../../adapters/store/index.ts';
import { CLAIM_HEARTBEAT_MS, CLAIM_LEASE_MS, CLAIM_OWNER_PRUNE_MS } from './limits.ts';

export type ClaimOwnerStore = Pick<
  TurnClaims,
  'registerClaimOwner' | 'heartbeatClaimOwner' | 'endClaimOwner'
>;

export interface ClaimOwnerOptions {
  readonly id: string;
  /** Wall clock in milliseconds (heartbeats are compared across processes). */
  readonly clock: () => number;
  /** A claim is another process's to take once its owner's heartbeat is this old (CLAIM_LEASE_MS). */
  readonly leaseMs?: number;
  /** Milliseconds between heartbeats while claims are held (CLAIM_HEARTBEAT_MS; well under the lease). */
  readonly heartbeatMs?: number;
}

/** The warning code a failed heartbeat is reported under (`process.on('warning')`, stderr by default). */
export const CLAIM_HEARTBEAT_WARNING = 'MNESOS_CLAIM_HEARTBEAT_FAILED';

export class ClaimOwner {
  readonly id: string;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly #store: ClaimOwnerStore;
  readonly #clock: () => number;
  #held = 0;
  #registered: Promise<void> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(store: ClaimOwnerStore, options: ClaimOwnerOptions) {
    this.#store = store;
    this.id = options.id;
    this.#clock = options.clock;
    this.leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
    this.heartbeatMs = options.heartbeatMs ?? CLAIM_HEARTBEAT_MS;
    if (!(this.heartbeatMs > 0 && this.heartbeatMs < this.leaseMs))
      throw new RangeError(
        `claim heartbeat ${this.heartbeatMs} ms must be positive and shorter than the lease ${this.leaseMs} ms`,
      );
  }

  /** Claims held (or being claimed) now. */
  get held(): number {
    return this.#held;
  }

  /** The time before which another owner's heartbeat means it is gone. */
  leaseBefore(now: number): number {
    return Math.max(0, now - this.leaseMs);
  }

  /**
   * Before claiming a key: counts the claim and makes sure this owner's row is fresh (registered on the
   * first of a run of claims, then kept by the heartbeat). Each `hold` is matched by one `letGo`.
   */
  async hold(): Promise<void> {
    this.#held += 1;
    if (this.#held === 1 || this.#registered === undefined) {
      this.#registered = this.#register();
      this.#startHeartbeat();
    }
    try {
      await this.#registered;
    } catch (error) {
      this.#registered = undefined;
      this.letGo();
      throw error;
    }
  }

  /** A claim given back (or never won): the heartbeat stops with the last one. */
  letGo(): void {
    if (this.#held === 0) return;
    this.#held -= 1;
    if (this.#held === 0) this.#stopHeartbeat();
  }

  /** A clean shutdown: the row goes, so a claim still held is another process's to take at once. */
  async end(): Promise<void> {
    this.#stopHeartbeat();
    this.#held = 0;
    this.#registered = undefined;
    await this.#store.endClaimOwner(this.id);
  }

  #register(): Promise<void> {
    const at = this.#clock();
    return this.#store.registerClaimOwner({
      ownerId: this.id,
      at,
      pruneBefore: Math.max(0, at - CLAIM_OWNER_PRUNE_MS),
    });
  }

  #startHeartbeat(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.#beat(), this.heartbeatMs);
    // A heartbeat never keeps the process alive on its own.
    this.#timer.unref();
  }

  #stopHeartbeat(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #beat(): Promise<void> {
    try {
      const alive = await this.#store.heartbeatClaimOwner(this.id, this.#clock());
      // Pruned or ended meanwhile: register again so the claims held are this owner's once more.
      if (!alive && this.#held > 0) await this.#register();
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      process.emitWarning(
        `could not refresh the Idempotency-Key claims of owner ${this.id} (another replica may take them over after ${this.leaseMs} ms): ${cause}`,
        { code: CLAIM_HEARTBEAT_WARNING },
      );
    }
  }
}
