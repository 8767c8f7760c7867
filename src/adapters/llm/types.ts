// The engine-facing model interface. The turn engine codes against these types only: it never imports
// the AI SDK, so providers stay replaceable (real HTTP, scripted playback, or none at all).

export const MODEL_ROLES = ['director', 'narrator', 'npc'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** A JSON Schema (draft-07 subset) object describing a tool's input. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed JSON, or `undefined` when the model sent arguments that are not valid JSON. */
  readonly args: unknown;
  /** The arguments exactly as the model sent them. */
  readonly rawArgs: string;
}

export type ChatMessage =
  | { readonly role: 'user'; readonly content: string; readonly cacheBreakpoint?: boolean }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[];
      /**
       * The prompt up to and including this message is worth caching (the end of the append-only
       * history). Providers with explicit cache control (Anthropic) get a breakpoint here; the others
       * cache prefixes by themselves and ignore it.
       */
      readonly cacheBreakpoint?: boolean;
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
    };

export type ToolChoice = 'auto' | 'required' | 'none' | { readonly tool: string };

/**
 * How a server can be made to produce well-formed calls (docs/models.md, "Constrained decoding"):
 * - `strict-tools`: tools are sent with `strict: true` (OpenAI structured tool calls);
 * - `json-schema`: the answer is constrained to a JSON Schema through `response_format` (llama.cpp server,
 *   Ollama, vLLM, LM Studio turn it into a grammar); the engine sends the calls' schema instead of tools;
 * - `off`: tools as they are; a call written in the text is still read (turn/text-calls.ts).
 */
export type ConstrainedDecoding = 'off' | 'strict-tools' | 'json-schema';

export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Cancels the call (and any retry waiting to happen); the call then rejects with kind `aborted`. */
  readonly signal?: AbortSignal;
  /** Send the tools with `strict: true` (a model whose `decoding` is `strict-tools`). */
  readonly strictTools?: boolean;
  /** Constrain the answer to this JSON Schema (a model whose `decoding` is `json-schema`). */
  readonly responseSchema?: { readonly name: string; readonly schema: JsonSchema };
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when the provider reports it. */
  readonly cachedInputTokens?: number;
}

/** One value of a model's answer that was over its cap (output-caps.ts): what is kept instead of it. */
export interface RefusedOutput {
  /** Which field: `modelId`, `toolCalls[2].id`, `finishReason`, `usage.inputTokens`, … */
  readonly field: string;
  readonly reason: string;
  /** Characters of the refused value (of its decimal text, for a number). */
  readonly chars: number;
  readonly sha256: string;
}

export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage;
  /** The provider's finish reason (`stop`, `tool-calls`, `length`, ...). Look at `toolCalls`, not at this. */
  readonly finishReason: string;
  readonly modelId: string;
  /**
   * Values of the answer that were over their caps and were replaced (output-caps.ts): kept as a reason,
   * a length and a hash, never as they were.
   */
  readonly refused?: readonly RefusedOutput[];
}

export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ToolCall }
  | { readonly type: 'finish'; readonly response: ModelResponse };

export interface ChatModel {
  readonly id: string;
  /** What the server offers to constrain the answer (default `off`). */
  readonly decoding?: ConstrainedDecoding;
  /**
   * The loaded model's own special-token texts (a local GGUF's CONTROL and USER_DEFINED vocabulary entries,
   * local-gguf/special-tokens.ts): what its tokenizer would read as special. Neutralised in every prompt sent
   * to this model (special-tokens.ts), beside the families' tokens every prompt is cleared of
   * (src/core/text-policy.ts). Undefined when unknown (a remote model, or a local one not loaded yet).
   */
  readonly specialTokens?: readonly string[];
  generate(req: ModelRequest): Promise<ModelResponse>;
  /** Ends with exactly one `finish` part; failures reject the iteration with a `ModelError`. */
  stream(req: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** One model per role. `null` where a `ModelSet | null` is expected means offline (no model at all). */
export interface ModelSet {
  readonly director: ChatModel;
  readonly narrator: ChatModel;
  readonly npc: ChatModel;
}
