// One turn in flight per session, per process. Across processes the store's head check decides (a turn
// whose parent head moved is a conflict); this lock only stops one process from running the model twice
// for the same session at once, which would waste tokens and end in a conflict anyway.

export class InFlight {
  readonly #busy = new Set<string>();

  /** Takes the session, or returns false when a turn is already running on it. */
  tryAcquire(sessionId: string): boolean {
    if (this.#busy.has(sessionId)) return false;
    this.#busy.add(sessionId);
    return true;
  }

  release(sessionId: string): void {
    this.#busy.delete(sessionId);
  }

  get size(): number {
    return this.#busy.size;
  }
}
