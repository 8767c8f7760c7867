// A GGUF model run in this process as the engine's ChatModel. What a request asks for decides the
// grammar (docs/models.md, "Local models"):
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
import { chatHistory } from './history.ts';
import { type GrammarSchema, grammarSchema, toolCallSchema } from './json-schema.ts';
import type { LlamaChatResponse } from './llama-api.ts';
import { DEFAULT_LOCAL_OUTPUT_TOKENS, DEFAULT_LOCAL_TEMPERATURE, type LocalModelOptions } from './options.ts';
import { type LoadedModel, loadedModel } from './runtime.ts';

export interface LocalChatModelOptions extends LocalModelOptions {
  /** node-llama-cpp's entry module (locate.ts). */
  readonly entry: string;
  /** The checked, absolute model file (model-file.ts). */
  readonly file: string;
}

type Plan =
  | { readonly kind: 'text' }
  | { readonly kind: 'schema'; readonly schema: GrammarSchema }
  | { readonly kind: 'tool-call'; readonly schema: GrammarSchema };

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

function planOf(req: ModelRequest): Plan {
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

/** One generation on the loaded model; text chunks go to `onText` as llama.cpp writes them. */
async function generate(
  model: LoadedModel,
  options: LocalChatModelOptions,
  modelId: string,
  req: ModelRequest,
  plan: Plan,
  onText: ((text: string) => void) | undefined,
): Promise<ModelResponse> {
  if (req.signal?.aborted === true) throw aborted();
  return model.run(req.signal, async () => {
    let grammar: Awaited<ReturnType<LoadedModel['grammar']>> | undefined;
    try {
      grammar = plan.kind === 'text' ? undefined : await model.grammar(plan.schema);
    } catch (error) {
      throw new ModelError(
        'bad-request',
        `local model ${modelId}: llama.cpp refuses the grammar: ${(error as Error).message}`,
        {
          modelId,
          cause: error,
        },
      );
    }
    const history = chatHistory(req.system, req.messages);
    // node-llama-cpp would shift a prompt too long for the context by dropping parts of it (the player's
    // words among them): such a prompt is refused instead, and the answer gets the room that is left.
    const promptTokens = model.promptTokens(history);
    const room = model.contextSize - promptTokens;
    if (room < 1) {
      throw new ModelError(
        'bad-request',
        `local model ${modelId}: the prompt is ${promptTokens} tokens, the context holds ${model.contextSize} (MNESOS_MODEL_CONTEXT)`,
        { modelId },
      );
    }
    const before = { ...snapshot(model) };
    let response: LlamaChatResponse;
    try {
      response = await model.chat.generateResponse(history, {
        ...(grammar === undefined ? {} : { grammar }),
        maxTokens: Math.min(req.maxOutputTokens ?? DEFAULT_LOCAL_OUTPUT_TOKENS, room),
        temperature: req.temperature ?? DEFAULT_LOCAL_TEMPERATURE,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(req.signal === undefined ? {} : { signal: req.signal }),
        stopOnAbortSignal: true,
        ...(onText === undefined || plan.kind === 'tool-call' ? {} : { onTextChunk: onText }),
      });
    } catch (error) {
      if (req.signal?.aborted === true) throw aborted();
      if (isModelError(error)) throw error;
      throw new ModelError('bad-response', `local model ${modelId}: ${(error as Error).message}`, {
        modelId,
        cause: error,
      });
    }
    if (response.metadata.stopReason === 'abort' || req.signal?.aborted === true) throw aborted();
    const after = snapshot(model);
    const outputTokens = after.output - before.output;
    const evaluated = after.input - before.input;
    // The prompt is what the sequence holds besides the answer; the part not evaluated again was reused
    // from the previous call's prefix (the append-only history makes that most of it).
    const prompt = Math.max(evaluated, model.sequence.nextTokenIndex - outputTokens);
    const usage = {
      inputTokens: prompt,
      outputTokens,
      ...(prompt > evaluated ? { cachedInputTokens: prompt - evaluated } : {}),
    };
    const reason = finishReason(response.metadata.stopReason);
    if (plan.kind === 'tool-call') {
      const call = toolCallOf(response.response);
      if (call !== undefined)
        return { text: '', toolCalls: [call], usage, finishReason: 'tool-calls', modelId };
    }
    return { text: response.response, toolCalls: [], usage, finishReason: reason, modelId };
  });
}

function snapshot(model: LoadedModel): { input: number; output: number } {
  const meter = model.sequence.tokenMeter;
  return { input: meter.usedInputTokens, output: meter.usedOutputTokens };
}

/** A ChatModel on a GGUF file; nothing is imported or loaded until its first call. */
export function createLocalChatModel(options: LocalChatModelOptions): ChatModel {
  const modelId = `file:${basename(options.file)}`;
  const model = (): Promise<LoadedModel> =>
    loadedModel({
      entry: options.entry,
      file: options.file,
      threads: options.threads,
      ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
    });
  return {
    id: modelId,
    decoding: 'json-schema',
    async generate(req: ModelRequest): Promise<ModelResponse> {
      const plan = planOf(req);
      return generate(await model(), options, modelId, req, plan, undefined);
    },
    stream(req: ModelRequest): AsyncIterable<ModelStreamPart> {
      return {
        async *[Symbol.asyncIterator]() {
          const plan = planOf(req);
          const loaded = await model();
          // Chunks arrive from llama.cpp's callback; the iterator hands them on in order.
          const chunks: string[] = [];
          let wake: (() => void) | undefined;
          const notify = (): void => {
            wake?.();
            wake = undefined;
          };
          let outcome: { response: ModelResponse } | { error: unknown } | undefined;
          void generate(loaded, options, modelId, req, plan, (text) => {
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
          while (chunks.length > 0) {
            const text = chunks.shift()!;
            if (text !== '') yield { type: 'text-delta', text };
          }
          if ('error' in outcome) throw outcome.error;
          for (const call of outcome.response.toolCalls) yield { type: 'tool-call', call };
          yield { type: 'finish', response: outcome.response };
        },
      };
    },
  };
}
