// A GGUF model as the engine's ChatModel, run by a model host (host.ts: a child process that owns
// node-llama-cpp; nothing a model file steers runs on the server's event loop). What a request asks for
// decides the grammar (docs/models.md, "Local models"):
// - `responseSchema` (the Director under `json-schema` decoding): the whole answer is constrained to the
//   schema; its text streams as it is written;
// - tools with `toolChoice` `required` or `{tool}`: the answer is constrained to one call of an offered
//   tool, `{"name": …, "arguments": …}`, returned as a tool call (nothing streams as text);
// - anything else (no tools, `none`, or `auto`): free text, streamed chunk by chunk. With `auto` the tools
//   are not offered: a small model asked to choose between prose and a call mostly writes neither well.
// The model declares `json-schema` decoding, so the Director always takes the constrained path.

import { basename } from 'node:path';
import { isModelError, ModelError } from '../errors.ts';
import { checkToolSpecs } from '../tool-specs.ts';
import type {
  ChatModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolCall,
  ToolSpec,
} from '../types.ts';
import type { LoadKey, ModelHost } from './host.ts';
import type { CallAnswer, CallPlan } from './host-protocol.ts';
import { requestWithoutModelTokens } from '../special-tokens.ts';
import { readyHost } from './hosts.ts';
import { grammarSchema, toolCallSchema } from './json-schema.ts';
import {
  DEFAULT_LOCAL_OUTPUT_TOKENS,
  DEFAULT_LOCAL_TEMPERATURE,
  DEFAULT_MODEL_MEMORY_MB,
  type LocalModelOptions,
} from './options.ts';

export interface LocalChatModelOptions extends LocalModelOptions {
  /** node-llama-cpp's entry module (locate.ts). */
  readonly entry: string;
  /** The checked, absolute model file (model-file.ts). */
  readonly file: string;
}

function toolsOf(req: ModelRequest): readonly ToolSpec[] {
  const tools = req.tools ?? [];
  const choice = req.toolChoice ?? 'auto';
  if (typeof choice === 'object') {
    const chosen = tools.filter((tool) => tool.name === choice.tool);
    if (chosen.length === 0)
      throw new ModelError('bad-request', `toolChoice names ${choice.tool}, which is not among the tools`);
    return chosen;
  }
  return choice === 'required' ? tools : [];
}

function planOf(req: ModelRequest): CallPlan {
  if (req.tools !== undefined) checkToolSpecs(req.tools);
  try {
    if (req.responseSchema !== undefined)
      return { kind: 'schema', schema: grammarSchema(req.responseSchema.schema) };
    const forced = toolsOf(req);
    if (forced.length > 0) return { kind: 'tool-call', schema: toolCallSchema(forced) };
  } catch (error) {
    if (isModelError(error)) throw error;
    throw new ModelError(
      'bad-request',
      `a schema of the request cannot be a grammar: ${(error as Error).message}`,
    );
  }
  return { kind: 'text' };
}

function finishReason(stopReason: string): string {
  return stopReason === 'maxTokens' ? 'length' : 'stop';
}

function toolCallOf(text: string): ToolCall | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const call = parsed as { name?: unknown; arguments?: unknown } | null;
  if (typeof call?.name !== 'string') return undefined;
  const args = call.arguments ?? {};
  return { id: 'local_call_1', name: call.name, args, rawArgs: JSON.stringify(args) };
}

function aborted(): ModelError {
  return new ModelError('aborted', 'the local model call was cancelled');
}

function responseOf(answer: CallAnswer, plan: CallPlan, modelId: string): ModelResponse {
  if (plan.kind === 'tool-call') {
    const call = toolCallOf(answer.text);
    if (call !== undefined)
      return { text: '', toolCalls: [call], usage: answer.usage, finishReason: 'tool-calls', modelId };
  }
  return {
    text: answer.text,
    toolCalls: [],
    usage: answer.usage,
    finishReason: finishReason(answer.stopReason),
    modelId,
  };
}

/** The load key of a model's options: the host that runs it. */
export function loadKeyOf(options: LocalChatModelOptions): LoadKey {
  return {
    entry: options.entry,
    file: options.file,
    threads: options.threads,
    ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
    memoryMb: options.memoryMb ?? DEFAULT_MODEL_MEMORY_MB,
  };
}

/** The loaded host, or the load's error; a call whose signal fires while the file loads stops waiting. */
function hostFor(key: LoadKey, signal: AbortSignal | undefined): Promise<ModelHost> {
  const host = readyHost({ key });
  if (signal === undefined) return host;
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    host.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A ChatModel on a GGUF file; nothing is started or loaded until its first call. */
export function createLocalChatModel(options: LocalChatModelOptions): ChatModel {
  const modelId = `file:${basename(options.file)}`;
  const key = loadKeyOf(options);
  let specialTokens: readonly string[] | undefined;
  const call = async (req: ModelRequest, onText?: (text: string) => void): Promise<ModelResponse> => {
    const plan = planOf(req);
    const host = await hostFor(key, req.signal);
    specialTokens = host.info?.specialTokens;
    // The tokens are known only once the host has read the file, after the wrapper of every model
    // (special-tokens.ts) has seen this request: the first prompt of a fresh model is cleared here.
    const clean = requestWithoutModelTokens(req, specialTokens);
    const answer = await host.call(
      {
        modelId,
        system: clean.system,
        messages: clean.messages,
        plan,
        maxOutputTokens: req.maxOutputTokens ?? DEFAULT_LOCAL_OUTPUT_TOKENS,
        temperature: req.temperature ?? DEFAULT_LOCAL_TEMPERATURE,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        stream: onText !== undefined,
      },
      req.signal,
      onText,
    );
    return responseOf(answer, plan, modelId);
  };
  return {
    id: modelId,
    decoding: 'json-schema',
    /** The file's special-token texts (special-tokens.ts), known once its host has read the header. */
    get specialTokens() {
      return specialTokens;
    },
    generate: (req: ModelRequest) => call(req),
    stream: (req: ModelRequest) => streamOf((onText) => call(req, onText)),
  };
}

/** The parts of a call whose text arrives through a callback: each text in order, then calls and finish. */
function streamOf(
  run: (onText: (text: string) => void) => Promise<ModelResponse>,
): AsyncIterable<ModelStreamPart> {
  return {
    async *[Symbol.asyncIterator]() {
      const chunks: string[] = [];
      let wake: (() => void) | undefined;
      const notify = (): void => {
        wake?.();
        wake = undefined;
      };
      let outcome: { response: ModelResponse } | { error: unknown } | undefined;
      void run((text) => {
        chunks.push(text);
        notify();
      }).then(
        (response) => {
          outcome = { response };
          notify();
        },
        (error: unknown) => {
          outcome = { error };
          notify();
        },
      );
      for (;;) {
        while (chunks.length > 0) {
          const text = chunks.shift()!;
          if (text !== '') yield { type: 'text-delta', text };
        }
        if (outcome !== undefined) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      if ('error' in outcome) throw outcome.error;
      for (const call of outcome.response.toolCalls) yield { type: 'tool-call', call };
      yield { type: 'finish', response: outcome.response };
    },
  };
}
