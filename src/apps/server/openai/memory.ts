// What the endpoint remembers between requests, in this process and bounded: which turns' answers never
// reached the front end (an identical request for one of them is a retry, not a swipe).

/** Turns remembered as not delivered. */
export const MAX_UNDELIVERED = 1_000;

export class ConversationMemory {
  readonly #undelivered = new Map<string, number>();

  /** The answer for `turnId` (committed at `at`) did not reach the client. */
  markUndelivered(turnId: string, at: number): void {
    this.#undelivered.delete(turnId);
    this.#undelivered.set(turnId, at);
    while (this.#undelivered.size > MAX_UNDELIVERED) {
      const oldest = this.#undelivered.keys().next().value;
      if (oldest === undefined) break;
      this.#undelivered.delete(oldest);
    }
  }

  /** Whether the answer for `turnId` did not reach the client, within `windowMs` of `now`. */
  undelivered(turnId: string, now: number, windowMs: number): boolean {
    const at = this.#undelivered.get(turnId);
    return at !== undefined && now - at <= windowMs;
  }
}
