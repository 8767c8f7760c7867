// node-llama-cpp in this process: imported on the first call (never when the engine starts), one `Llama`
// (the native backend, CPU only) per process, and each model file loaded once and shared by every role
// and every session that uses it. A loaded model has one context with one sequence, so its calls run one
// at a time, in order; at most MAX_LOADED_MODELS files stay loaded, the least recently used unloaded
// first (once its running call has finished).

import { pathToFileURL } from 'node:url';
import { ModelError } from '../errors.ts';
import type { GrammarSchema } from './json-schema.ts';
import type {
  ChatHistoryItem,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaContextSequence,
  LlamaCppModule,
  LlamaGrammar,
  LlamaModel,
} from './llama-api.ts';
import { DEFAULT_MODEL_CONTEXT, MAX_LOADED_MODELS } from './options.ts';

/** Grammars kept per loaded model (compiled JSON-schema grammars; the Director's is one per cartridge). */
export const MAX_GRAMMARS_PER_MODEL = 64;

interface Backend {
  readonly module: LlamaCppModule;
  readonly llama: Llama;
}

const backends = new Map<string, Promise<Backend>>();

function backend(entry: string): Promise<Backend> {
  let found = backends.get(entry);
  if (found === undefined) {
    found = (async () => {
      const module = (await import(pathToFileURL(entry).href)) as LlamaCppModule;
      // CPU only, never a build from source or a download; threads are set per context.
      const llama = await module.getLlama({
        gpu: false,
        build: 'never',
        skipDownload: true,
        progressLogs: false,
        logLevel: 'error',
        maxThreads: 0,
      });
      return { module, llama };
    })();
    found.catch(() => backends.delete(entry));
    backends.set(entry, found);
  }
  return found;
}

export interface LoadKey {
  /** node-llama-cpp's entry module (locate.ts). */
  readonly entry: string;
  readonly file: string;
  readonly threads: number;
  readonly contextSize?: number;
}

export class LoadedModel {
  readonly #backend: Backend;
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
  readonly #grammars = new Map<string, Promise<LlamaGrammar>>();
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #unloadWhenIdle = false;

  constructor(backend: Backend, model: LlamaModel, context: LlamaContext) {
    this.#backend = backend;
    this.#model = model;
    this.#context = context;
    this.sequence = context.getSequence();
    this.chat = new backend.module.LlamaChat({ contextSequence: this.sequence });
  }

  get contextSize(): number {
    return this.#context.contextSize;
  }

  get trainContextSize(): number {
    return this.#model.trainContextSize;
  }

  get chatWrapperName(): string | undefined {
    return this.chat.chatWrapper.wrapperName;
  }

  /** Tokens of the history as the chat template renders it: what the context must hold before an answer. */
  promptTokens(history: readonly ChatHistoryItem[]): number {
    return this.chat.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(this.#model.tokenizer).length;
  }

  /** The compiled grammar of a schema, kept (by its JSON) for the next call with the same schema. */
  grammar(schema: GrammarSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let found = this.#grammars.get(key);
    if (found !== undefined) {
      this.#grammars.delete(key);
    } else {
      found = this.#backend.llama.createGrammarForJsonSchema(schema);
      found.catch(() => this.#grammars.delete(key));
    }
    this.#grammars.set(key, found);
    while (this.#grammars.size > MAX_GRAMMARS_PER_MODEL) {
      const oldest = this.#grammars.keys().next();
      if (oldest.done) break;
      this.#grammars.delete(oldest.value);
    }
    return found;
  }

  /** Runs `work` after every call queued before it; a call whose signal fires while it waits never runs. */
  run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    this.#pending += 1;
    const result = this.#tail.then(() => {
      if (signal?.aborted === true) throw new ModelError('aborted', 'the local model call was cancelled');
      return work();
    });
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tail = settled.then(() => {
      this.#pending -= 1;
      if (this.#pending === 0 && this.#unloadWhenIdle) void this.#dispose();
    });
    return result;
  }

  /** Unloads now when idle, else after the last queued call. */
  unload(): void {
    this.#unloadWhenIdle = true;
    if (this.#pending === 0) void this.#dispose();
  }

  async #dispose(): Promise<void> {
    this.chat.dispose();
    await this.#context.dispose();
    await this.#model.dispose();
  }
}

const loaded = new Map<string, Promise<LoadedModel>>();

function keyOf(key: LoadKey): string {
  return JSON.stringify([key.entry, key.file, key.threads, key.contextSize ?? null]);
}

async function load(key: LoadKey): Promise<LoadedModel> {
  const found = await backend(key.entry);
  let model: LlamaModel;
  try {
    model = await found.llama.loadModel({ modelPath: key.file, gpuLayers: 0 });
  } catch (error) {
    throw new ModelError(
      'config',
      `${key.file}: llama.cpp cannot load this model: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const contextSize = key.contextSize ?? Math.min(model.trainContextSize, DEFAULT_MODEL_CONTEXT);
  try {
    const context = await model.createContext({ contextSize, threads: key.threads, sequences: 1 });
    return new LoadedModel(found, model, context);
  } catch (error) {
    await model.dispose();
    throw new ModelError(
      'config',
      `${key.file}: no context of ${contextSize} tokens could be made (lower MNESOS_MODEL_CONTEXT): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** The loaded model for a file and settings: loaded on first use, then shared. */
export function loadedModel(key: LoadKey): Promise<LoadedModel> {
  const id = keyOf(key);
  let found = loaded.get(id);
  if (found !== undefined) {
    // Most recently used last.
    loaded.delete(id);
    loaded.set(id, found);
    return found;
  }
  found = load(key);
  found.catch(() => loaded.delete(id));
  loaded.set(id, found);
  while (loaded.size > MAX_LOADED_MODELS) {
    const [oldestId, oldest] = loaded.entries().next().value as [string, Promise<LoadedModel>];
    loaded.delete(oldestId);
    void oldest.then(
      (model) => model.unload(),
      () => undefined,
    );
  }
  return found;
}

/** Files loaded now (for tests of the bound). */
export function loadedModelCount(): number {
  return loaded.size;
}
