// A model the generator's worker cannot build itself — given by code (tests, an embedding application) or
// a local model file the server process loads once — called through the request thread: the worker posts
// each call, the request thread runs it on the real model and posts its stream parts back (runner.ts). Such
// models stream few, small parts (no SSE to parse here), so the request thread's share stays small.

import {
  abortedError,
  type ChatModel,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '../../../adapters/llm/index.ts';
import type { FromWorker, ToWorker, WireModelError } from './protocol.ts';

type RelayMessage = Extract<ToWorker, { type: 'model-part' | 'model-end' | 'model-error' }>;

/** The parts of one relayed call, in arrival order, taken by its stream. */
class PartQueue {
  readonly #parts: ModelStreamPart[] = [];
  #taken = 0;
  #end: { readonly error?: Error } | undefined;
  #wake: (() => void) | undefined;

  get ended(): boolean {
    return this.#end !== undefined;
  }

  push(part: ModelStreamPart): void {
    if (this.#end !== undefined) return;
    this.#parts.push(part);
    this.#wake?.();
  }

  end(error?: Error): void {
    this.#end ??= error === undefined ? {} : { error };
    this.#wake?.();
  }

  /** The next part; undefined once the call has ended; throws the call's error. */
  async take(): Promise<ModelStreamPart | undefined> {
    while (this.#taken === this.#parts.length && this.#end === undefined)
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    this.#wake = undefined;
    if (this.#taken < this.#parts.length) {
      const part = this.#parts[this.#taken]!;
      // Taken parts are let go (a long answer streams many).
      this.#parts[this.#taken++] = undefined as unknown as ModelStreamPart;
      return part;
    }
    if (this.#end?.error !== undefined) throw this.#end.error;
    return undefined;
  }
}

export function modelErrorOf(wire: WireModelError): ModelError {
  return new ModelError(wire.kind, wire.message, {
    ...(wire.status === undefined ? {} : { status: wire.status }),
    ...(wire.modelId === undefined ? {} : { modelId: wire.modelId }),
  });
}

export class RelayedModel implements ChatModel {
  readonly id: string;
  readonly #generation: number;
  readonly #post: (message: FromWorker) => void;
  readonly #calls = new Map<number, PartQueue>();
  #nextCall = 1;

  constructor(generation: number, modelId: string, post: (message: FromWorker) => void) {
    this.#generation = generation;
    this.id = modelId;
    this.#post = post;
  }

  /** A message about one of this model's calls, from the request thread. */
  receive(message: RelayMessage): void {
    const queue = this.#calls.get(message.call);
    if (queue === undefined) return;
    switch (message.type) {
      case 'model-part':
        queue.push(message.part);
        return;
      case 'model-end':
        queue.end();
        return;
      case 'model-error':
        queue.end(modelErrorOf(message.error));
        return;
      default: {
        const never: never = message;
        throw new Error(`unknown relay message ${JSON.stringify(never)}`);
      }
    }
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    return { [Symbol.asyncIterator]: () => this.#call(request) };
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    let response: ModelResponse | undefined;
    for await (const part of this.stream(request)) if (part.type === 'finish') response = part.response;
    if (response === undefined)
      throw new ModelError('bad-response', 'the model ended without an answer', { modelId: this.id });
    return response;
  }

  async *#call(request: ModelRequest): AsyncGenerator<ModelStreamPart, void, undefined> {
    const { signal, ...wire } = request;
    const aborted = () => abortedError(this.id);
    if (signal?.aborted) throw aborted();
    const call = this.#nextCall++;
    const queue = new PartQueue();
    const cancel = () => {
      if (!queue.ended) this.#post({ type: 'model-abort', id: this.#generation, call });
      queue.end(aborted());
    };
    this.#calls.set(call, queue);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      this.#post({ type: 'model-call', id: this.#generation, call, request: wire });
      for (;;) {
        const part = await queue.take();
        if (part === undefined) return;
        yield part;
      }
    } finally {
      // A reader that stops early (the answer past its cap) stops the call on the request thread too.
      cancel();
      signal?.removeEventListener('abort', cancel);
      this.#calls.delete(call);
    }
  }
}
