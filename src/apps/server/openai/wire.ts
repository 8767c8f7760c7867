// The OpenAI wire format, as SillyTavern and the `openai` SDK read it: `chat.completion` answers, and the
// `text/event-stream` of `data: {chat.completion.chunk}` events ending with `data: [DONE]` (no `event:` lines),
// with errors as `{error: {message, type, code}}` (docs/sillytavern.md).

import { createHash } from 'node:crypto';
import { SessionError } from '../../../engine/session/index.ts';
import { formatSse } from '../../../core/sse.ts';
import { ApiError, fromSessionError } from '../errors.ts';
import { errorTypeOf, openAiError } from './errors.ts';
import { SSE_HEADERS } from '../sse.ts';

export const DONE_EVENT = 'data: [DONE]\n\n';

export function completionId(turnId: string): string {
  return `chatcmpl-${turnId}`;
}

/** SillyTavern's stream: `data: {json}` events (no `event:` lines), then `data: [DONE]`. */
export function dataEvent(value: unknown): string {
  return formatSse({ data: JSON.stringify(value) });
}

export function chunk(
  id: string,
  model: string,
  created: number,
  delta: Record<string, unknown>,
  finish: string | null,
) {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

export function completion(id: string, model: string, created: number, content: string) {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** An error as an answer's status and body (also sent as one `data:` event once a stream has begun). */
export function errorPayload(error: unknown): { status: number; body: { error: Record<string, unknown> } } {
  const api =
    error instanceof ApiError
      ? error
      : error instanceof SessionError
        ? fromSessionError(error)
        : openAiError(500, 'internal', 'the turn failed', 'server_error');
  return {
    status: api.status,
    body: { error: { message: api.message, type: errorTypeOf(api.status), code: api.code, ...api.details } },
  };
}

/** A text answered without a turn, as the request asked for it (one JSON answer, or a short stream). */
export function textAnswer(
  model: string,
  text: string,
  stream: boolean,
  headers: Record<string, string>,
): Response {
  const created = Math.floor(Date.now() / 1000);
  const id = `chatcmpl-reply-${createHash('sha256').update(`${created}\0${text}`).digest('hex').slice(0, 24)}`;
  if (!stream) return Response.json(completion(id, model, created, text), { headers });
  const body = [
    dataEvent(chunk(id, model, created, { role: 'assistant', content: '' }, null)),
    dataEvent(chunk(id, model, created, { content: text }, null)),
    dataEvent(chunk(id, model, created, {}, 'stop')),
    DONE_EVENT,
  ].join('');
  return new Response(body, { headers: { ...SSE_HEADERS, ...headers } });
}

/** The session layer's error as the endpoint's, with the OpenAI `type`; any other error unchanged. */
export async function guardedSession<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) {
      const api = fromSessionError(error);
      throw new ApiError(api.status, api.code, api.message, {
        ...api.details,
        type: errorTypeOf(api.status),
      });
    }
    throw error;
  }
}
