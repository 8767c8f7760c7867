// Cartridge checks off the request thread. Loading an upload at the size caps (2 MiB of lore: persona
// macros, the injection check, chunking, hashing) takes a few hundred milliseconds of CPU; on the request
// thread that would stall every other request, /healthz included. One worker thread, started on first use,
// checks uploads one at a time; a check that runs past its time budget is answered with a failure and its
// worker is replaced. The builder's "try it" runs there too: compiling a draft's rules may evaluate a
// `yare.js`/`yare.ts` module in the sandbox, which holds its caller for up to the sandbox's time limit.

import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../../core/diagnostics.ts';
import type { TryResult } from '../../tools/authoring/builder/index.ts';

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

export type WorkerRequest = CheckRequest | TryRequest;

export type CheckReply =
  | { readonly id: number; readonly result: CheckResult | TryOutcome }
  | { readonly id: number; readonly failure: string };

export class CartridgeCheckError extends Error {
  override readonly name = 'CartridgeCheckError';
}

/** Milliseconds one cartridge check may take before it is abandoned. */
export const CARTRIDGE_CHECK_TIMEOUT_MS = 30_000;

interface Pending {
  resolve(result: CheckResult | TryOutcome): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class CartridgeChecker {
  readonly #timeoutMs: number;
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? CARTRIDGE_CHECK_TIMEOUT_MS;
  }

  check(files: ReadonlyMap<string, string | Uint8Array>, name: string): Promise<CheckResult> {
    return this.#send((id) => ({ id, name, files: [...files] })) as Promise<CheckResult>;
  }

  /** Compiles a draft's rules and runs one event on them, in the worker (the builder's "try it"). */
  tryEvent(input: TryInput): Promise<TryOutcome> {
    return this.#send((id) => ({ ...input, id, kind: 'try' })) as Promise<TryOutcome>;
  }

  #send(request: (id: number) => WorkerRequest): Promise<CheckResult | TryOutcome> {
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise<CheckResult | TryOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#failAll(new CartridgeCheckError(`the cartridge check took over ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      timer.unref();
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage(request(id));
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new CartridgeCheckError('the server is closing'), false);
    await worker?.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    // Compiled (dist/, what bin/mnesos runs) the worker is plain JavaScript; from sources (tsx, vitest) it
    // starts through worker-boot.mjs, which registers tsx's loader in the worker first.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(new URL('./worker-boot.mjs', import.meta.url), {
          workerData: { entry: new URL('./cartridge-check-worker.ts', import.meta.url).href },
        })
      : new Worker(new URL('./cartridge-check-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (reply: CheckReply) => {
      const pending = this.#pending.get(reply.id);
      if (pending === undefined) return;
      this.#pending.delete(reply.id);
      clearTimeout(pending.timer);
      if ('result' in reply) pending.resolve(reply.result);
      else pending.reject(new CartridgeCheckError(`the cartridge check failed: ${reply.failure}`));
    });
    worker.on('error', (error) => this.#failAll(new CartridgeCheckError(error.message)));
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(new CartridgeCheckError('the cartridge check worker stopped'), false);
    });
    this.#worker = worker;
    return worker;
  }

  /** Fails every pending check; with `restart`, the worker is replaced (it may be stuck in a check). */
  #failAll(error: Error, restart = true): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
    if (restart && this.#worker !== undefined) {
      const stuck = this.#worker;
      this.#worker = undefined;
      void stuck.terminate();
    }
  }
}
