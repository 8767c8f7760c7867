// The part of node-llama-cpp's API this adapter uses, written out structurally: the package is not a
// dependency at build time (locate.ts), so its own types are not available to the compiler. Checked
// against node-llama-cpp 3.21.1 (options.ts LLAMA_CPP_VERSION) by test/adapters/llm/local-gguf.test.ts.

import type { GrammarSchema } from './json-schema.ts';

export type ChatHistoryItem =
  | { readonly type: 'system'; readonly text: string }
  | { readonly type: 'user'; readonly text: string }
  | { readonly type: 'model'; readonly response: string[] };

export interface LlamaGrammar {
  readonly grammar: string;
}

export interface LlamaChatResponse {
  readonly response: string;
  readonly metadata: { readonly stopReason: string };
}

export interface GenerateOptions {
  readonly grammar?: LlamaGrammar;
  readonly maxTokens: number;
  readonly temperature: number;
  readonly seed?: number;
  readonly signal?: AbortSignal;
  readonly stopOnAbortSignal: boolean;
  readonly onTextChunk?: (text: string) => void;
}

/** node-llama-cpp's tokenizer: a function of the model (opaque here, handed back to `tokenize`). */
export type Tokenizer = (text: string) => readonly number[];

export interface ChatWrapper {
  readonly wrapperName?: string;
  generateContextState(options: { readonly chatHistory: readonly ChatHistoryItem[] }): {
    readonly contextText: { tokenize(tokenizer: Tokenizer): readonly number[]; toString(): string };
  };
}

export interface LlamaChat {
  readonly chatWrapper: ChatWrapper;
  generateResponse(history: ChatHistoryItem[], options: GenerateOptions): Promise<LlamaChatResponse>;
  dispose(): void;
}

export interface TokenMeter {
  readonly usedInputTokens: number;
  readonly usedOutputTokens: number;
}

export interface LlamaContextSequence {
  readonly tokenMeter: TokenMeter;
  /** Tokens in the sequence now: the prompt and what was generated after it. */
  readonly nextTokenIndex: number;
}

export interface LlamaContext {
  readonly contextSize: number;
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly trainContextSize: number;
  readonly tokenizer: Tokenizer;
  readonly size: number;
  createContext(options: {
    readonly contextSize: number;
    readonly threads: number;
    readonly sequences: number;
  }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

export interface Llama {
  loadModel(options: { readonly modelPath: string; readonly gpuLayers: number }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: GrammarSchema): Promise<LlamaGrammar>;
}

export interface LlamaCppModule {
  getLlama(options: {
    readonly gpu: false;
    readonly build: 'never';
    readonly skipDownload: true;
    readonly progressLogs: false;
    readonly logLevel: 'error';
    readonly maxThreads: number;
  }): Promise<Llama>;
  readonly LlamaChat: new (options: { readonly contextSequence: LlamaContextSequence }) => LlamaChat;
}
