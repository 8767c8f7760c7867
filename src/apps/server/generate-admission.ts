// Admission of the AI generator (`POST /v1/builder/generate`), bounded like turns: each key runs at most
// MAX_RUNNING_GENERATES_PER_KEY generations at once and may have MAX_WAITING_GENERATES_PER_KEY more waiting
// (first come, first served); past that it is refused with 429 and a Retry-After. The whole server runs at
// most MAX_RUNNING_GENERATES and keeps at most MAX_WAITING_GENERATES waiting (503 past it), so one key's
// generations cannot crowd out another's. A waiting request whose client goes away leaves the queue.

import { ApiError } from './errors.ts';

/** Generations one key runs at once. */
export const MAX_RUNNING_GENERATES_PER_KEY = 1;
/** Generations one key may have waiting for a place; one more is refused with 429. */
export const MAX_WAITING_GENERATES_PER_KEY = 4;
/** Generations the server runs at once, all keys together. */
export const MAX_RUNNING_GENERATES = 8;
/** Generations the server keeps waiting, all keys together; one more is refused with 503. */
export const MAX_WAITING_GENERATES = 32;
/** What Retry-After says when a generation is refused: about one generation's length. */
const RETRY_AFTER_SECONDS = 30;

export interface GenerateLimits {
  readonly runningPerKey: number;
  readonly waitingPerKey: number;
  readonly running: number;
  readonly waiting: number;
}

export const DEFAULT_GENERATE_LIMITS: GenerateLimits = Object.freeze({
  runningPerKey: MAX_RUNNING_GENERATES_PER_KEY,
  waitingPerKey: MAX_WAITING_GENERATES_PER_KEY,
  running: MAX_RUNNING_GENERATES,
  waiting: MAX_WAITING_GENERATES,
});

interface Waiter {
  readonly owner: string;
  readonly admit: () => void;
}

/** Gives back a generation's place (once). */
export type Release = () => void;

export class GenerateAdmission {
  readonly #limits: GenerateLimits;
  readonly #running = new Map<string, number>();
  #runningTotal = 0;
  readonly #waiting: Waiter[] = [];

  constructor(limits: GenerateLimits = DEFAULT_GENERATE_LIMITS) {
    this.#limits = limits;
  }

  running(owner?: string): number {
    return owner === undefined ? this.#runningTotal : (this.#running.get(owner) ?? 0);
  }

  waiting(owner?: string): number {
    return owner === undefined ? this.#waiting.length : this.#waiting.filter((w) => w.owner === owner).length;
  }

  /**
   * A place for `owner`'s generation: at once when there is one, else after those waiting before it. Throws
   * ApiError 429 (this key) or 503 (the server) when the queue is full; rejects when `signal` aborts while
   * it waits.
   */
  admit(owner: string, signal?: AbortSignal): Promise<Release> {
    if (this.#free(owner) && !this.#waiting.some((w) => w.owner === owner))
      return Promise.resolve(this.#take(owner));
    const mine = this.waiting(owner);
    if (mine >= this.#limits.waitingPerKey) throw this.#refused(429, owner);
    if (this.#waiting.length >= this.#limits.waiting) throw this.#refused(503, owner);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#take(owner));
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(new Error('the client went away while the generation waited'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #free(owner: string): boolean {
    return this.running(owner) < this.#limits.runningPerKey && this.#runningTotal < this.#limits.running;
  }

  #take(owner: string): Release {
    this.#running.set(owner, this.running(owner) + 1);
    this.#runningTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.running(owner) - 1;
      if (left === 0) this.#running.delete(owner);
      else this.#running.set(owner, left);
      this.#runningTotal--;
      this.#next();
    };
  }

  /** Starts the oldest waiting generation whose key has a free place, while the server has one. */
  #next(): void {
    for (let i = 0; i < this.#waiting.length && this.#runningTotal < this.#limits.running; ) {
      const waiter = this.#waiting[i]!;
      if (this.running(waiter.owner) >= this.#limits.runningPerKey) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      waiter.admit();
    }
  }

  #refused(status: 429 | 503, owner: string): ApiError {
    const message =
      status === 429
        ? `this key already runs ${this.running(owner)} generations and has ${this.waiting(owner)} waiting; the limits are ${this.#limits.runningPerKey} running (MAX_RUNNING_GENERATES_PER_KEY) and ${this.#limits.waitingPerKey} waiting (MAX_WAITING_GENERATES_PER_KEY); retry in ${RETRY_AFTER_SECONDS} s`
        : `the server has ${this.#waiting.length} generations waiting; the limit is ${this.#limits.waiting} (MAX_WAITING_GENERATES); retry in ${RETRY_AFTER_SECONDS} s`;
    return new ApiError(
      status,
      status === 429 ? 'generations_queued' : 'generator_busy',
      message,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  }
}
