// What the server and its model host (host-child.ts, a child process that owns node-llama-cpp) say to each
// other over the IPC channel. Requests go one at a time (host.ts queues them); the host announces each
// step it starts (`phase`), so the server can hold every step to its own deadline (host-limits.ts) and
// name it when it is killed. Replies are parsed with zod: the host reads hostile files, so what it sends
// is checked like any other input before the server acts on it.

import { z } from 'zod';
import type { ChatMessage } from '../types.ts';
import type { GrammarSchema } from './json-schema.ts';
import { MAX_SPECIAL_TOKEN_CHARS, MAX_SPECIAL_TOKENS } from './special-tokens.ts';

/** The steps of loading a file, then of each call. */
export const HOST_PHASES = [
  'boot',
  'header',
  'template',
  'backend',
  'weights',
  'context',
  'chat-wrapper',
  'grammar',
  'render',
  'generate',
] as const;
export type HostPhase = (typeof HOST_PHASES)[number];

/** What a call constrains the answer to (model.ts decides it from the request). */
export type CallPlan =
  | { readonly kind: 'text' }
  | { readonly kind: 'schema'; readonly schema: GrammarSchema }
  | { readonly kind: 'tool-call'; readonly schema: GrammarSchema };

export interface LoadRequest {
  readonly type: 'load';
  /** node-llama-cpp's entry module (locate.ts). */
  readonly entry: string;
  readonly file: string;
  readonly threads: number;
  readonly contextSize?: number;
  /** CPU milliseconds one render of the chat template may take at load (MAX_TEMPLATE_RENDER_CPU_MS). */
  readonly templateRenderCpuMs: number;
}

export interface CallRequest {
  readonly type: 'call';
  readonly id: number;
  readonly modelId: string;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly plan: CallPlan;
  readonly maxOutputTokens: number;
  readonly temperature: number;
  readonly seed?: number;
  /** Send each piece of text as it is written. */
  readonly stream: boolean;
}

/** The prompt of a conversation as the model's template renders and its tokenizer reads it. */
export interface RenderRequest {
  readonly type: 'render';
  readonly id: number;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
}

export interface AbortRequest {
  readonly type: 'abort';
  readonly id: number;
}

export type HostRequest = LoadRequest | CallRequest | RenderRequest | AbortRequest;

const MODEL_ERROR_KINDS = ['aborted', 'bad-response', 'bad-request', 'config', 'timeout'] as const;

const hostError = z.object({
  kind: z.enum(MODEL_ERROR_KINDS),
  message: z.string().max(4_000),
  /** The problem is the file's own (its header, its template): it is not loaded again. */
  refuseFile: z.boolean(),
});
export type HostError = z.infer<typeof hostError>;

const loadedInfo = z.object({
  specialTokens: z.array(z.string().max(MAX_SPECIAL_TOKEN_CHARS)).max(MAX_SPECIAL_TOKENS),
  /** node-llama-cpp's chat wrapper for the template (`ChatML`, `JinjaTemplate`, …). */
  chatWrapper: z.string().max(200),
  contextSize: z.number().int().positive(),
  trainContextSize: z.number().int().nonnegative(),
  /** CPU milliseconds of one render of the template at load (the cheaper of two). */
  templateRenderCpuMs: z.number().nonnegative(),
});
export type LoadedInfo = z.infer<typeof loadedInfo>;

const usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
});

const id = z.number().int().nonnegative();

export const hostReply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('phase'), phase: z.enum(HOST_PHASES), id: id.optional() }),
  z.object({ type: z.literal('loaded'), model: loadedInfo }),
  z.object({ type: z.literal('load-failed'), error: hostError }),
  z.object({ type: z.literal('text'), id, text: z.string() }),
  z.object({
    type: z.literal('answer'),
    id,
    text: z.string(),
    stopReason: z.string().max(100),
    usage,
  }),
  z.object({ type: z.literal('rendered'), id, text: z.string(), tokens: z.array(z.number().int()) }),
  z.object({ type: z.literal('call-failed'), id, error: hostError }),
]);
export type HostReply = z.infer<typeof hostReply>;
export type CallAnswer = Extract<HostReply, { type: 'answer' }>;
export type RenderedPrompt = Extract<HostReply, { type: 'rendered' }>;

/** A failure inside the host, as it is sent back (`HostError`). */
export class HostFailure extends Error {
  override readonly name = 'HostFailure';
  constructor(
    readonly kind: HostError['kind'],
    message: string,
    readonly refuseFile = false,
  ) {
    super(message);
  }

  toReply(): HostError {
    return { kind: this.kind, message: this.message.slice(0, 4_000), refuseFile: this.refuseFile };
  }
}
