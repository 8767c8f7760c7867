// Cartridge checks off the request thread. Loading an upload at the size caps (2 MiB of lore: persona
// macros, the injection check, chunking, hashing) takes a few hundred milliseconds of CPU; on the request
// thread that would stall every other request, /healthz included. One worker thread, started on first use,
// checks uploads one at a time, taking the keys in turn; a check that runs past its time budget is answered
// with a failure and its worker is replaced. The builder's "try it" runs there too: compiling a draft's rules may evaluate a
// `yare.js`/`yare.ts` module in the sandbox, which holds its caller for up to the sandbox's time limit.

import type { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../../core/diagnostics.ts';
import type {
  ExploreDraftInput,
  ExploreDraftOutcome,
  TryResult,
} from '../../tools/authoring/builder/index.ts';
import { ApiError } from './errors.ts';
import { startModuleWorker, WORKER_BOOT_MS } from './module-worker.ts';

export type CheckResult =
  | { ok: true; name: string; contentHash: string; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

export interface CheckRequest {
  readonly id: number;
  readonly kind?: 'check';
  readonly name: string;
  readonly files: ReadonlyArray<[string, string | Uint8Array]>;
}

/** One event of a draft's rules, run as `mnesos run-event` does (src/tools/authoring/builder/try-event.ts). */
export interface TryInput {
  readonly files: Readonly<Record<string, string | undefined>>;
  readonly event: string;
  readonly inputs?: unknown;
  readonly state?: unknown;
  readonly seed?: number;
}

export interface TryRequest extends TryInput {
  readonly id: number;
  readonly kind: 'try';
}

export type TryOutcome =
  | { readonly kind: 'ran'; readonly result: TryResult }
  | { readonly kind: 'rules-invalid'; readonly errors: Diagnostic[] }
  | { readonly kind: 'refused'; readonly message: string };

/** A draft explored as `mnesos explore` does, within the builder's bounds (tools/authoring/builder/explore-draft.ts). */
export interface ExploreRequest extends ExploreDraftInput {
  readonly id: number;
  readonly kind: 'explore';
}

export type WorkerRequest = CheckRequest | TryRequest | ExploreRequest;

/** What the worker answers: an upload's check, a try's outcome, or an exploration's. */
type WorkerResult = CheckResult | TryOutcome | ExploreDraftOutcome;

export type CheckReply =
  | { readonly id: number; readonly result: WorkerResult }
  | { readonly id: number; readonly failure: string }
  /** The worker has loaded and listens. */
  | { readonly ready: true };

export class CartridgeCheckError extends Error {
  override readonly name = 'CartridgeCheckError';
}

/** Milliseconds one cartridge check may run (from when the worker starts it) before it is abandoned. */
export const CARTRIDGE_CHECK_TIMEOUT_MS = 30_000;
/** Milliseconds a new worker may take to load (from sources, under tsx, that is seconds on a busy machine). */
export const CARTRIDGE_WORKER_BOOT_MS = WORKER_BOOT_MS;
/** Checks one key may have waiting or running at once; past it a check is refused with 429. */
export const MAX_QUEUED_CHECKS_PER_KEY = 4;
/** Checks all keys together may have waiting or running at once; past it a check is refused with 503. */
export const MAX_QUEUED_CHECKS = 64;

interface Job {
  readonly owner: string;
  readonly request: (id: number) => WorkerRequest;
  resolve(result: WorkerResult): void;
  reject(error: Error): void;
}

interface Running extends Job {
  readonly id: number;
  /** Set when the worker is given the check (after it has started: booting is not the check's time). */
  timer: NodeJS.Timeout | undefined;
  started: number;
}

/**
 * One worker, fed fairly: each key has its own queue (at most MAX_QUEUED_CHECKS_PER_KEY checks, waiting
 * or running), the keys take turns (round-robin), and a check's deadline starts when the worker starts
 * it, so a key that queues many slow uploads delays another key's upload by at most one check.
 */
export class CartridgeChecker {
  readonly #timeoutMs: number;
  readonly #perKey: number;
  readonly #total: number;
  #worker: Worker | undefined;
  #nextId = 1;
  /** Waiting checks by key; the Map's order is the round-robin order. */
  readonly #queues = new Map<string, Job[]>();
  #running: Running | undefined;
  /** The key whose check ran last. */
  #lastOwner: string | undefined;
  /** The current worker has loaded (its boot is not counted against a check's deadline). */
  #ready = false;
  /** Milliseconds the last checks took, averaged (for Retry-After). */
  #averageMs = 1_000;

  constructor(options: { timeoutMs?: number; maxPerKey?: number; maxTotal?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? CARTRIDGE_CHECK_TIMEOUT_MS;
    this.#perKey = options.maxPerKey ?? MAX_QUEUED_CHECKS_PER_KEY;
    this.#total = options.maxTotal ?? MAX_QUEUED_CHECKS;
  }

  /** Checks an upload's files for `owner` (the API key; '' for the local user). */
  check(files: ReadonlyMap<string, string | Uint8Array>, name: string, owner = ''): Promise<CheckResult> {
    return this.#enqueue(owner, (id) => ({ id, name, files: [...files] })) as Promise<CheckResult>;
  }

  /** Compiles a draft's rules and runs one event on them, in the worker (the builder's "try it"). */
  tryEvent(input: TryInput, owner = ''): Promise<TryOutcome> {
    return this.#enqueue(owner, (id) => ({ ...input, id, kind: 'try' })) as Promise<TryOutcome>;
  }

  /** Explores a draft in the worker (the builder's Explore pane), bounded in runs, steps and time. */
  explore(input: ExploreDraftInput, owner = ''): Promise<ExploreDraftOutcome> {
    return this.#enqueue(owner, (id) => ({ ...input, id, kind: 'explore' })) as Promise<ExploreDraftOutcome>;
  }

  /** Checks waiting or running for `owner` (all keys when undefined). */
  queued(owner?: string): number {
    const running = this.#running !== undefined && (owner === undefined || this.#running.owner === owner);
    const waiting =
      owner === undefined
        ? [...this.#queues.values()].reduce((n, q) => n + q.length, 0)
        : (this.#queues.get(owner)?.length ?? 0);
    return waiting + (running ? 1 : 0);
  }

  #enqueue(owner: string, request: (id: number) => WorkerRequest): Promise<WorkerResult> {
    const mine = this.queued(owner);
    if (mine >= this.#perKey) throw this.#busy(429, mine);
    const all = this.queued();
    if (all >= this.#total) throw this.#busy(503, all);
    return new Promise<WorkerResult>((resolve, reject) => {
      const queue = this.#queues.get(owner) ?? [];
      queue.push({ owner, request, resolve, reject });
      this.#queues.set(owner, queue);
      this.#dispatch();
    });
  }

  #busy(status: 429 | 503, waiting: number): ApiError {
    const seconds = Math.max(1, Math.ceil((waiting * this.#averageMs) / 1_000));
    const message =
      status === 429
        ? `this key already has ${waiting} cartridge checks queued; the limit is ${this.#perKey} (MAX_QUEUED_CHECKS_PER_KEY); retry in ${seconds} s`
        : `the server has ${waiting} cartridge checks queued; the limit is ${this.#total} (MAX_QUEUED_CHECKS); retry in ${seconds} s`;
    return new ApiError(
      status,
      status === 429 ? 'cartridge_checks_queued' : 'cartridge_checker_busy',
      message,
      { retryAfterSeconds: seconds },
      { 'Retry-After': String(seconds) },
    );
  }

  /** Starts the next key's oldest check when the worker is free. */
  #dispatch(): void {
    if (this.#running !== undefined) return;
    // The first key in the round, unless it is the key just served and another is waiting.
    let picked: [string, Job[]] | undefined;
    for (const entry of this.#queues) {
      picked ??= entry;
      if (entry[0] !== this.#lastOwner) {
        picked = entry;
        break;
      }
    }
    if (picked === undefined) return;
    const [owner, queue] = picked;
    this.#lastOwner = owner;
    const job = queue.shift()!;
    // This key goes to the back of the round.
    this.#queues.delete(owner);
    if (queue.length > 0) this.#queues.set(owner, queue);
    this.#running = { ...job, id: this.#nextId++, timer: undefined, started: 0 };
    this.#ensureWorker();
    if (this.#ready) this.#start();
  }

  /** Gives the running check to the worker, which has started, and starts its deadline. */
  #start(): void {
    const running = this.#running;
    const worker = this.#worker;
    if (running === undefined || running.timer !== undefined || worker === undefined) return;
    const { id } = running;
    running.started = Date.now();
    running.timer = setTimeout(() => {
      // The worker is replaced first: the next check must not go to the one stuck in this check.
      this.#replaceWorker();
      this.#finish(id, new CartridgeCheckError(`the cartridge check took over ${this.#timeoutMs} ms`));
    }, this.#timeoutMs);
    running.timer.unref();
    try {
      worker.postMessage(running.request(id));
    } catch (error) {
      this.#finish(id, new CartridgeCheckError((error as Error).message));
    }
  }

  /** Settles the running check `id` (a result or an error) and starts the next one. */
  #finish(id: number, outcome: WorkerResult | Error): void {
    const running = this.#running;
    if (running === undefined || running.id !== id) return;
    this.#running = undefined;
    if (running.timer !== undefined) clearTimeout(running.timer);
    this.#averageMs = 0.8 * this.#averageMs + 0.2 * (Date.now() - running.started);
    if (outcome instanceof Error) running.reject(outcome);
    else running.resolve(outcome);
    this.#dispatch();
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    const closing = new CartridgeCheckError('the server is closing');
    const queues = [...this.#queues.values()];
    this.#queues.clear();
    for (const queue of queues) for (const job of queue) job.reject(closing);
    if (this.#running !== undefined) this.#finish(this.#running.id, closing);
    await worker?.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = startModuleWorker(new URL('./cartridge-check-worker.ts', import.meta.url));
    worker.unref();
    this.#ready = false;
    const boot = setTimeout(() => {
      if (this.#worker !== worker) return;
      this.#replaceWorker();
      if (this.#running !== undefined)
        this.#finish(
          this.#running.id,
          new CartridgeCheckError(
            `the cartridge check worker did not start within ${CARTRIDGE_WORKER_BOOT_MS} ms`,
          ),
        );
    }, CARTRIDGE_WORKER_BOOT_MS);
    boot.unref();
    worker.on('message', (reply: CheckReply) => {
      if ('ready' in reply) {
        clearTimeout(boot);
        if (this.#worker !== worker) return;
        this.#ready = true;
        this.#start();
        return;
      }
      this.#finish(
        reply.id,
        'result' in reply
          ? reply.result
          : new CartridgeCheckError(`the cartridge check failed: ${reply.failure}`),
      );
    });
    worker.on('error', (error) => {
      clearTimeout(boot);
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      if (this.#running !== undefined) this.#finish(this.#running.id, new CartridgeCheckError(error.message));
    });
    worker.on('exit', () => {
      clearTimeout(boot);
      if (this.#worker !== worker) return; // replaced on purpose
      this.#worker = undefined;
      if (this.#running !== undefined)
        this.#finish(this.#running.id, new CartridgeCheckError('the cartridge check worker stopped'));
    });
    this.#worker = worker;
    return worker;
  }

  /** A worker stuck in a check is stopped; the next check starts a new one. */
  #replaceWorker(): void {
    const stuck = this.#worker;
    this.#worker = undefined;
    this.#ready = false;
    void stuck?.terminate();
  }
}
