// One call inside the model host: the grammar of its plan, the prompt rendered by the chat template (held
// to the `render` deadline: a template can be cheap at load and slow on some prompt), then generation.
// node-llama-cpp would shift a prompt too long for the context by dropping parts of it (the player's words
// among them): such a prompt is refused instead, and the answer gets the room that is left.

import type { Announce } from './child-load.ts';
import { chatHistory } from './history.ts';
import {
  type CallAnswer,
  type CallRequest,
  HostFailure,
  type RenderedPrompt,
  type RenderRequest,
} from './host-protocol.ts';
import type { LlamaChatResponse, LlamaGrammar } from './llama-api.ts';
import type { LoadedModel } from './runtime.ts';

function aborted(): HostFailure {
  return new HostFailure('aborted', 'the local model call was cancelled');
}

async function grammarOf(model: LoadedModel, request: CallRequest): Promise<LlamaGrammar | undefined> {
  if (request.plan.kind === 'text') return undefined;
  try {
    return await model.grammar(request.plan.schema);
  } catch (error) {
    throw new HostFailure(
      'bad-request',
      `local model ${request.modelId}: llama.cpp refuses the grammar: ${(error as Error).message}`,
    );
  }
}

function snapshot(model: LoadedModel): { input: number; output: number } {
  const meter = model.sequence.tokenMeter;
  return { input: meter.usedInputTokens, output: meter.usedOutputTokens };
}

/** Runs one call; text goes to `onText` as llama.cpp writes it when the request streams. */
export async function runCall(
  model: LoadedModel,
  request: CallRequest,
  signal: AbortSignal,
  announce: Announce,
  onText: (text: string) => void,
): Promise<Omit<CallAnswer, 'type' | 'id'>> {
  await announce('grammar');
  const grammar = await grammarOf(model, request);
  await announce('render');
  const history = chatHistory(request.system, request.messages);
  const promptTokens = model.render(history).tokens.length;
  const room = model.contextSize - promptTokens;
  if (room < 1) {
    throw new HostFailure(
      'bad-request',
      `local model ${request.modelId}: the prompt is ${promptTokens} tokens, the context holds ${model.contextSize} (MNESOS_MODEL_CONTEXT)`,
    );
  }
  await announce('generate');
  if (signal.aborted) throw aborted();
  const before = snapshot(model);
  let response: LlamaChatResponse;
  try {
    response = await model.chat.generateResponse(history, {
      ...(grammar === undefined ? {} : { grammar }),
      maxTokens: Math.min(request.maxOutputTokens, room),
      temperature: request.temperature,
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      signal,
      stopOnAbortSignal: true,
      ...(request.stream && request.plan.kind !== 'tool-call' ? { onTextChunk: onText } : {}),
    });
  } catch (error) {
    if (signal.aborted) throw aborted();
    throw new HostFailure('bad-response', `local model ${request.modelId}: ${(error as Error).message}`);
  }
  if (response.metadata.stopReason === 'abort' || signal.aborted) throw aborted();
  const after = snapshot(model);
  const outputTokens = after.output - before.output;
  const evaluated = after.input - before.input;
  // The prompt is what the sequence holds besides the answer; the part not evaluated again was reused
  // from the previous call's prefix (the append-only history makes that most of it).
  const prompt = Math.max(evaluated, model.sequence.nextTokenIndex - outputTokens);
  return {
    text: response.response,
    stopReason: response.metadata.stopReason,
    usage: {
      inputTokens: prompt,
      outputTokens,
      ...(prompt > evaluated ? { cachedInputTokens: prompt - evaluated } : {}),
    },
  };
}

/** The prompt of a conversation as the template renders it and the tokenizer reads it. */
export async function renderInHost(
  model: LoadedModel,
  request: RenderRequest,
  announce: Announce,
): Promise<Omit<RenderedPrompt, 'type' | 'id'>> {
  await announce('render');
  const { text, tokens } = model.render(chatHistory(request.system, request.messages));
  return { text, tokens: [...tokens] };
}
