// node-llama-cpp inside the model host (host-child.ts): imported when the host loads its file, one `Llama`
// (the native backend, CPU only) and one model with one context and one sequence. The host runs one call
// at a time (the server queues them, host.ts), so nothing here queues.

import { pathToFileURL } from 'node:url';
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

/** Grammars kept per loaded model (compiled JSON-schema grammars; the Director's is one per cartridge). */
export const MAX_GRAMMARS_PER_MODEL = 64;

export interface Backend {
  readonly module: LlamaCppModule;
  readonly llama: Llama;
}

/** Imports node-llama-cpp and starts its CPU backend, never building from source or downloading. */
export async function startBackend(entry: string, threads: number): Promise<Backend> {
  const module = (await import(pathToFileURL(entry).href)) as LlamaCppModule;
  const llama = await module.getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    progressLogs: false,
    logLevel: 'error',
    // llama.cpp's threads spin while they wait: no more of them than the model was given.
    maxThreads: threads,
  });
  return { module, llama };
}

export class LoadedModel {
  readonly #backend: Backend;
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
  readonly #grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    backend: Backend,
    model: LlamaModel,
    context: LlamaContext,
    sequence: LlamaContextSequence,
    chat: LlamaChat,
  ) {
    this.#backend = backend;
    this.#model = model;
    this.#context = context;
    this.sequence = sequence;
    this.chat = chat;
  }

  get contextSize(): number {
    return this.#context.contextSize;
  }

  get trainContextSize(): number {
    return this.#model.trainContextSize;
  }

  get chatWrapperName(): string {
    return this.chat.chatWrapper.wrapperName ?? 'unnamed';
  }

  /** The history as the chat template renders it, and its tokens: what the context holds before an answer. */
  render(history: readonly ChatHistoryItem[]): { text: string; tokens: readonly number[] } {
    const { contextText } = this.chat.chatWrapper.generateContextState({ chatHistory: history });
    return { text: contextText.toString(), tokens: contextText.tokenize(this.#model.tokenizer) };
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
}
