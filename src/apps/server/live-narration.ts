// The narration of each turn this process is streaming, as its player sees it, so the speech route can read
// it aloud part by part before the turn ends (docs/voices.md, "As the narration streams"). The turn's stream
// (routes/turns.ts) only appends and never waits: a reader waits here for the text to grow, and is woken when
// a sentence may have ended or the turn is over. Bounded: one entry per turn in flight, at most the speech
// plan's budget of text each (MAX_SPEECH_INPUT_CHARS), entries dropped when their turn ends.

import { MAX_SPEECH_INPUT_CHARS } from '../../core/media/index.ts';

/** A delta with none of these cannot end a sentence or a quote, so readers need not look again. */
const MAY_SETTLE = /[.!?"\u201c\u201d\u00ab\u00bb]/;

export class LiveNarration {
  readonly principalId: string;
  /** The turn it follows (its world names the speakers). */
  readonly parentId: string;
  #text = '';
  #ended = false;
  readonly #waiters = new Set<() => void>();

  constructor(principalId: string, parentId: string) {
    this.principalId = principalId;
    this.parentId = parentId;
  }

  get text(): string {
    return this.#text;
  }

  /** The turn is over (committed or not): no more text will come. */
  get ended(): boolean {
    return this.#ended;
  }

  append(delta: string): void {
    if (this.#ended || this.#text.length >= MAX_SPEECH_INPUT_CHARS) return;
    this.#text += delta.slice(0, MAX_SPEECH_INPUT_CHARS - this.#text.length);
    if (MAY_SETTLE.test(delta) || this.#text.length >= MAX_SPEECH_INPUT_CHARS) this.#wake();
  }

  end(): void {
    this.#ended = true;
    this.#wake();
  }

  /** Resolves when the text may have settled further or the turn ended, or when `signal` aborts. */
  changed(signal: AbortSignal): Promise<void> {
    if (this.#ended || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.#waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** The turns streaming on this process, by session and turn. */
export class LiveNarrations {
  readonly #turns = new Map<string, LiveNarration>();

  static #key(sessionId: string, turnId: string): string {
    return `${sessionId}\u0000${turnId}`;
  }

  /** A turn starts streaming: its narration, which `finish` ends and drops. */
  begin(principalId: string, sessionId: string, turnId: string, parentId: string): LiveNarration {
    const narration = new LiveNarration(principalId, parentId);
    this.#turns.set(LiveNarrations.#key(sessionId, turnId), narration);
    return narration;
  }

  finish(sessionId: string, turnId: string, narration: LiveNarration): void {
    narration.end();
    const key = LiveNarrations.#key(sessionId, turnId);
    if (this.#turns.get(key) === narration) this.#turns.delete(key);
  }

  get(sessionId: string, turnId: string): LiveNarration | undefined {
    return this.#turns.get(LiveNarrations.#key(sessionId, turnId));
  }

  get size(): number {
    return this.#turns.size;
  }
}
