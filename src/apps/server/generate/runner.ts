// The request thread's side of the AI generator: whole generations run in one worker thread (worker.ts),
// so what is left here per generation is a few small events, the result's one message and its draft save
// (routes/builder-generate.ts). A generation is bounded in time (GENERATE_TIMEOUT_MS), the worker in memory
// (GENERATE_WORKER_HEAP_MB for all the generations it runs; past it they fail, naming the limit, and the
// next starts a new worker); a client gone stops its generation. A stopped generation gives its place back
// only once the worker confirms it stopped (or, after GENERATE_STOP_GRACE_MS, once the worker is replaced),
// so the admission's bounds (generate-admission.ts) count what really runs.

import type { Worker } from 'node:worker_threads';
import { type ChatModel, isModelError, type ModelStreamPart } from '../../../adapters/llm/index.ts';
import type { PortableModels } from '../../../engine/session/index.ts';
import { startModuleWorker, WORKER_BOOT_MS } from '../module-worker.ts';
import type {
  FromWorker,
  GenerationFailure,
  GenerationJob,
  GenerationResult,
  ProgressEvent,
  ToWorker,
  WireModel,
  WireModelError,
  WireModelRequest,
} from './protocol.ts';

/** Milliseconds one generation may run, all its rounds together (a slow local model's repairs fit). */
export const GENERATE_TIMEOUT_MS = 20 * 60_000;
/** Megabytes of heap the generator's worker may use, for all the generations it runs at once. */
export const GENERATE_WORKER_HEAP_MB = 256;
/** Milliseconds the worker has to confirm a stopped generation before it is replaced. */
export const GENERATE_STOP_GRACE_MS = 10_000;

export interface GenerateRunnerOptions {
  readonly timeoutMs?: number;
  readonly heapMb?: number;
  readonly stopGraceMs?: number;
}

/** A generation that ended without a result: what its stream's `error` event says. */
export class GenerationFailed extends Error {
  override readonly name = 'GenerationFailed';
  readonly failure: GenerationFailure;

  constructor(failure: GenerationFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

interface Generation {
  readonly id: number;
  readonly start: Extract<ToWorker, { type: 'start' }>;
  readonly onEvent: (event: ProgressEvent) => void;
  /** The model relayed calls run on (undefined: the worker builds its own). */
  readonly relayed: ChatModel | undefined;
  readonly calls: Map<number, AbortController>;
  readonly settle: (outcome: GenerationResult | GenerationFailure) => void;
  posted: boolean;
  /** Its GENERATE_TIMEOUT_MS, counted from when the worker is given it (a worker's start has its own bound). */
  deadline: ReturnType<typeof setTimeout> | undefined;
  /** Why it was stopped (what it fails with once the worker confirms). */
  stopped: GenerationFailure | undefined;
}

function wireModelOf(models: PortableModels): WireModel {
  if (models.kind === 'here') return { kind: 'relay', modelId: models.models.director.id };
  const { apiKey, ...config } = models.config;
  return {
    kind: 'config',
    config: { ...config, ...(apiKey === undefined ? {} : { apiKey: apiKey.reveal() }) },
    ...(models.temperature === undefined ? {} : { temperature: models.temperature }),
  };
}

function wireErrorOf(error: unknown): WireModelError {
  if (!isModelError(error)) return { kind: 'bad-response', message: 'the model call failed' };
  return {
    kind: error.kind,
    message: error.message,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.modelId === undefined ? {} : { modelId: error.modelId }),
  };
}

const isFailure = (outcome: GenerationResult | GenerationFailure): outcome is GenerationFailure =>
  'code' in outcome;

export class GenerateRunner {
  readonly #timeoutMs: number;
  readonly #heapMb: number;
  readonly #stopGraceMs: number;
  readonly #generations = new Map<number, Generation>();
  #worker: Worker | undefined;
  #ready = false;
  #nextId = 1;
  #closed = false;

  constructor(options: GenerateRunnerOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? GENERATE_TIMEOUT_MS;
    this.#heapMb = options.heapMb ?? GENERATE_WORKER_HEAP_MB;
    this.#stopGraceMs = options.stopGraceMs ?? GENERATE_STOP_GRACE_MS;
  }

  /** Generations running (or starting) in the worker now. */
  get running(): number {
    return this.#generations.size;
  }

  /**
   * Runs one generation in the worker: its progress goes to `onEvent`, its result is returned. Throws
   * GenerationFailed when it ends early: the model failed, `signal` aborted, the time or memory ran out.
   */
  run(
    job: GenerationJob,
    models: PortableModels,
    signal: AbortSignal,
    onEvent: (event: ProgressEvent) => void,
  ): Promise<GenerationResult> {
    if (this.#closed)
      return Promise.reject(new GenerationFailed({ code: 'closing', message: 'the server is closing' }));
    const id = this.#nextId++;
    return new Promise<GenerationResult>((resolve, reject) => {
      const onAbort = () => this.#stop(generation, { code: 'aborted', message: 'the client went away' });
      const generation: Generation = {
        id,
        start: { type: 'start', id, job, model: wireModelOf(models) },
        onEvent,
        relayed: models.kind === 'here' ? models.models.director : undefined,
        calls: new Map(),
        posted: false,
        deadline: undefined,
        stopped: undefined,
        settle: (outcome) => {
          if (!this.#generations.delete(id)) return;
          clearTimeout(generation.deadline);
          signal.removeEventListener('abort', onAbort);
          for (const call of generation.calls.values()) call.abort();
          if (isFailure(outcome)) reject(new GenerationFailed(outcome));
          else resolve(outcome);
        },
      };
      this.#generations.set(id, generation);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#ensureWorker();
      if (this.#ready) this.#post(generation);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll({ code: 'closing', message: 'the server is closing' });
    await worker?.terminate();
  }

  #post(generation: Generation): void {
    if (generation.posted || generation.stopped !== undefined) return;
    generation.posted = true;
    generation.deadline = setTimeout(
      () =>
        this.#stop(generation, {
          code: 'generator_timeout',
          message: `the generation ran for ${this.#timeoutMs} ms; the limit is ${this.#timeoutMs} ms (GENERATE_TIMEOUT_MS)`,
        }),
      this.#timeoutMs,
    );
    this.#send(generation.start);
  }

  #send(message: ToWorker): void {
    try {
      this.#worker?.postMessage(message);
    } catch {
      // The worker is gone: its 'exit' fails what it ran.
    }
  }

  /** Stops a generation: at once when the worker never had it, else once the worker confirms (or is replaced). */
  #stop(generation: Generation, why: GenerationFailure): void {
    if (generation.stopped !== undefined || !this.#generations.has(generation.id)) return;
    generation.stopped = why;
    for (const call of generation.calls.values()) call.abort();
    if (!generation.posted) {
      generation.settle(why);
      return;
    }
    this.#send({ type: 'abort', id: generation.id, reason: why.message });
    const worker = this.#worker;
    setTimeout(() => {
      if (!this.#generations.has(generation.id) || this.#worker !== worker) return;
      this.#replaceWorker({
        code: 'generator_stuck',
        message: `the generator's worker did not stop a generation within ${this.#stopGraceMs} ms (GENERATE_STOP_GRACE_MS)`,
      });
    }, this.#stopGraceMs).unref();
  }

  #onMessage(message: FromWorker): void {
    if (message.type === 'ready') {
      this.#ready = true;
      for (const generation of this.#generations.values()) this.#post(generation);
      return;
    }
    const generation = this.#generations.get(message.id);
    if (generation === undefined) return;
    switch (message.type) {
      case 'event':
        if (generation.stopped === undefined) generation.onEvent(message.event);
        return;
      case 'result':
        generation.settle(message.result);
        return;
      case 'failed':
        generation.settle(generation.stopped ?? message.failure);
        return;
      case 'model-call':
        void this.#relay(generation, message.call, message.request);
        return;
      case 'model-abort':
        generation.calls.get(message.call)?.abort();
        return;
      default: {
        const never: never = message;
        throw new Error(`unknown worker message ${JSON.stringify(never)}`);
      }
    }
  }

  /** Runs a relayed model call here and posts its parts to the worker. */
  async #relay(generation: Generation, call: number, request: WireModelRequest): Promise<void> {
    const model = generation.relayed;
    const stop = new AbortController();
    if (model === undefined || generation.stopped !== undefined) return;
    generation.calls.set(call, stop);
    const part = (p: ModelStreamPart) => this.#send({ type: 'model-part', id: generation.id, call, part: p });
    try {
      for await (const p of model.stream({ ...request, signal: stop.signal })) {
        if (stop.signal.aborted) return;
        part(p);
      }
      this.#send({ type: 'model-end', id: generation.id, call });
    } catch (error) {
      if (!stop.signal.aborted)
        this.#send({ type: 'model-error', id: generation.id, call, error: wireErrorOf(error) });
    } finally {
      generation.calls.delete(call);
    }
  }

  #ensureWorker(): void {
    if (this.#worker !== undefined) return;
    const worker = startModuleWorker(new URL('./worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb },
    });
    worker.unref();
    this.#worker = worker;
    this.#ready = false;
    const boot = setTimeout(() => {
      if (this.#worker === worker && !this.#ready)
        this.#replaceWorker({
          code: 'internal',
          message: `the generator's worker did not start within ${WORKER_BOOT_MS} ms`,
        });
    }, WORKER_BOOT_MS);
    boot.unref();
    worker.on('message', (message: FromWorker) => {
      if (this.#worker !== worker) return;
      if (message.type === 'ready') clearTimeout(boot);
      this.#onMessage(message);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.#worker !== worker) return;
      clearTimeout(boot);
      this.#lost(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? {
              code: 'generator_memory',
              message: `the generator's worker ran out of memory; the limit is ${this.#heapMb} MB (GENERATE_WORKER_HEAP_MB)`,
            }
          : { code: 'internal', message: 'the generator failed' },
      );
    });
    worker.on('exit', () => {
      clearTimeout(boot);
      if (this.#worker === worker)
        this.#lost({ code: 'internal', message: "the generator's worker stopped" });
    });
  }

  /** The worker died: what it ran fails; the next generation starts a new one. */
  #lost(why: GenerationFailure): void {
    this.#worker = undefined;
    this.#ready = false;
    this.#failAll(why);
  }

  /** A worker that does not answer is stopped, and what it ran fails. */
  #replaceWorker(why: GenerationFailure): void {
    const stuck = this.#worker;
    this.#lost(why);
    void stuck?.terminate();
  }

  #failAll(why: GenerationFailure): void {
    for (const generation of [...this.#generations.values()]) generation.settle(generation.stopped ?? why);
  }
}
