// A ChatModel speaking the OpenAI-compatible Chat Completions wire directly: the AI SDK's
// stream pipeline costs ~0.14 ms of CPU per SSE chunk (web streams, per-chunk schema validation), which
// puts a streamed turn far above its 5 ms budget. This client posts over node:http (http-post.ts, not
// fetch), reads the response body and parses SSE with plain string work. Same contract as the SDK adapter (`sdk-model.ts`): one step per call, tool
// calls returned and never executed, malformed or unknown calls returned as calls, our retry policy,
// a timeout bounding a whole `generate` or each silence inside a `stream`, cancellation, and errors
// mapped to the same ModelError kinds and messages.

import { normaliseBaseUrl } from '../../core/base-url-policy.ts';
import { ModelError } from './errors.ts';
import { type BodyReader, type PostedResponse, postJson } from './http-post.ts';
import { MAX_RESPONSE_CHARS, MAX_SSE_EVENT_CHARS } from './limits.ts';
import { chatCompletionBody, finishReasonOf, readCompletion, StreamAssembler } from './openai-wire.ts';
import { type AttemptSignal, type RetryPolicy, withRetries, withStreamRetries } from './retry.ts';
import { classifySdkError, cleanProviderText, retryAfterFromHeaders } from './sdk-errors.ts';
import { SseParser } from '../../core/sse.ts';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart, ToolCall } from './types.ts';

/** Bytes read after `[DONE]` while waiting for the body to end (keeps the connection reusable). */
const MAX_BYTES_AFTER_DONE = 64 * 1024;
/** Characters of an HTTP error body read for its message; the rest is not read (a body may never end). */
const MAX_ERROR_BODY_CHARS = 64 * 1024;
/** How long the body may stay open after `[DONE]` before the request is dropped (the answer is whole). */
const DRAIN_AFTER_DONE_MS = 1_000;

export interface OpenAICompatibleOptions {
  /** e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly policy: RetryPolicy;
  /** Strings to remove from every error message (the API key). */
  readonly secrets?: readonly string[];
}

export function createOpenAICompatibleChatModel(id: string, options: OpenAICompatibleOptions): ChatModel {
  const url = new URL(`${normaliseBaseUrl(options.baseURL)}/chat/completions`);
  const secrets = options.secrets ?? [];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
  };
  const retries = (req: ModelRequest) => ({
    policy: options.policy,
    modelId: id,
    classify: (error: unknown): ModelError => classifySdkError(error, id, secrets),
    ...(req.signal === undefined ? {} : { signal: req.signal }),
  });
  async function post(req: ModelRequest, stream: boolean, signal: AbortSignal): Promise<PostedResponse> {
    const body = JSON.stringify(chatCompletionBody(id, req, stream));
    const response = await postJson(url, headers, body, signal, id);
    if (response.status < 200 || response.status > 299) throw await httpError(response, id, secrets);
    return response;
  }
  return {
    id,
    generate: (req) =>
      withRetries(retries(req), async (signal) =>
        completionResponse(id, req, await readJsonBody(await post(req, false, signal), id)),
      ),
    stream: (req) =>
      withStreamRetries(retries(req), async function* (attempt) {
        yield* streamParts(id, secrets, req, await post(req, true, attempt.signal), attempt);
      }),
  };
}

/** A whole (non-streamed) answer's body as JSON, refused past MAX_RESPONSE_CHARS. */
async function readJsonBody(response: PostedResponse, id: string): Promise<unknown> {
  let text = '';
  await readBody(response.body, (piece) => {
    text += piece;
    if (text.length > MAX_RESPONSE_CHARS) {
      throw new ModelError(
        'bad-response',
        `model ${id}: unusable response: longer than ${MAX_RESPONSE_CHARS} characters (MAX_RESPONSE_CHARS)`,
        { modelId: id },
      );
    }
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelError('bad-response', `model ${id}: unusable response: the body is not JSON`, {
      modelId: id,
      cause: error,
    });
  }
}

function completionResponse(id: string, req: ModelRequest, value: unknown): ModelResponse {
  const read = readCompletion(id, value);
  return {
    text: read.text,
    toolCalls: read.toolCalls,
    usage: read.usage,
    finishReason: finishReasonFor(req, read.rawFinishReason, read.toolCalls),
    modelId: read.responseModelId || id,
    ...(read.refused.length === 0 ? {} : { refused: read.refused }),
  };
}

/** One streamed attempt: text deltas as their events arrive, then the tool calls, then the whole answer. */
async function* streamParts(
  id: string,
  secrets: readonly string[],
  req: ModelRequest,
  response: PostedResponse,
  attempt: AttemptSignal,
): AsyncGenerator<ModelStreamPart> {
  const assembler = new StreamAssembler(id);
  let done = false;
  let deltas: string[] = [];
  const parser = new SseParser(
    ({ data }) => {
      if (done) return;
      if (data === '[DONE]') {
        done = true;
        return;
      }
      const text = assembler.chunk(parseStreamEvent(id, secrets, data));
      if (text !== '') deltas.push(text);
    },
    {
      maxMessageChars: MAX_SSE_EVENT_CHARS,
      tooLong: (max) =>
        new ModelError(
          'bad-response',
          `model ${id}: unusable response: a server-sent event is longer than ${max} characters (MAX_SSE_EVENT_CHARS)`,
        ),
    },
  );
  const decoder = new TextDecoder();
  for (;;) {
    const value = await response.body.read();
    attempt.reset();
    if (value === undefined) {
      parser.push(decoder.decode());
      parser.end();
      break;
    }
    parser.push(decoder.decode(value, { stream: true }));
    if (deltas.length > 0) {
      const ready = deltas;
      deltas = [];
      for (const text of ready) yield { type: 'text-delta', text };
    }
    if (done) {
      // After `[DONE]` the answer is whole: the (normally empty) rest of the body runs out in the
      // background, never much of it nor for long, so the connection can be reused.
      response.body.drain(MAX_BYTES_AFTER_DONE, DRAIN_AFTER_DONE_MS);
      break;
    }
  }
  for (const text of deltas) yield { type: 'text-delta', text };
  const toolCalls = assembler.toolCalls();
  for (const call of toolCalls) yield { type: 'tool-call', call };
  const finished: ModelResponse = {
    text: assembler.text,
    toolCalls,
    usage: assembler.usage,
    finishReason: finishReasonFor(req, assembler.rawFinishReason, toolCalls),
    modelId: assembler.responseModelId || id,
    ...(assembler.refused.length === 0 ? {} : { refused: [...assembler.refused] }),
  };
  yield { type: 'finish', response: finished };
}

function parseStreamEvent(id: string, secrets: readonly string[], data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new ModelError(
      'bad-response',
      `model ${id}: unusable response: a stream event is not JSON: ${cleanProviderText(data, secrets)}`,
      { modelId: id, cause: error },
    );
  }
}

// A model that made tool calls although told not to keeps the provider's own reason (`tool_calls`),
// as the SDK path reports it: the engine sees what the model did.
function finishReasonFor(req: ModelRequest, raw: string | undefined, calls: readonly ToolCall[]): string {
  if (req.toolChoice === 'none' && calls.length > 0 && raw !== undefined) return raw;
  return finishReasonOf(raw);
}

async function readBody(body: BodyReader, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for (let value = await body.read(); value !== undefined; value = await body.read())
    onText(decoder.decode(value, { stream: true }));
  onText(decoder.decode());
}

/** At most `maxChars` of a body; the rest is not read (the connection is closed). */
async function readCapped(body: BodyReader, maxChars: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (let value = await body.read(); value !== undefined; value = await body.read()) {
    text += decoder.decode(value, { stream: true });
    if (text.length >= maxChars) {
      body.cancel();
      return text.slice(0, maxChars);
    }
  }
  return text + decoder.decode();
}

/** An HTTP error status as kind `http`, with the provider's own message (OpenAI error shape) when it sent one. */
async function httpError(
  response: PostedResponse,
  modelId: string,
  secrets: readonly string[],
): Promise<ModelError> {
  let detail = response.statusText;
  try {
    const text = await readCapped(response.body, MAX_ERROR_BODY_CHARS);
    let message: unknown;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
      message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    } catch {
      message = text;
    }
    if (typeof message === 'string' && message.trim() !== '') detail = message;
  } catch {
    // The body could not be read: the status alone says enough.
  }
  const retryAfterMs = retryAfterFromHeaders(response.headers);
  return new ModelError(
    'http',
    `model ${modelId}: HTTP ${response.status} from the provider: ${cleanProviderText(detail, secrets)}`,
    {
      modelId,
      status: response.status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    },
  );
}
