/**
 * A fake OpenAI-compatible HTTP server for tests: real HTTP on 127.0.0.1 (port 0), real SSE.
 *
 * ```ts
 * const fake = await startFakeOpenAI([
 *   { kind: 'text', text: 'The goblin falls.' },
 *   { kind: 'tool-calls', calls: [{ name: 'combat_strike', arguments: { target: 'goblin' } }] },
 *   { kind: 'error', status: 500 },
 * ]);
 * // point a provider at `${fake.url}` (it ends in `/v1`), run the code under test, then:
 * fake.requests;      // every request received: { method, path, headers, body, clientClosed }
 * fake.chatRequests(); // only POST /v1/chat/completions bodies
 * await fake.close();
 * ```
 *
 * `startFakeOpenAI(script, options?)`:
 * - `script` is either a queue of `FakeReply`s (one is taken per chat-completions request, in order)
 *   or a handler `(request, index) => FakeReply | Promise<FakeReply>` for request-dependent replies.
 *   When the queue is empty the server answers 500 `fake server: script exhausted`.
 * - The same `FakeReply` is rendered as SSE when the request has `"stream": true` and as one JSON body
 *   otherwise, in the OpenAI wire format: `data: {chunk}\n\n` lines with `choices[0].delta.content`
 *   or `delta.tool_calls[{index, id, type:'function', function:{name, arguments}}]`, a usage chunk
 *   (`choices: []`) when `stream_options.include_usage` is true, then `data: [DONE]`.
 * - `options.embed(text)` computes each vector for `POST /v1/embeddings` (default: a deterministic
 *   16-dimension bag of hashed words); `options.embeddingsError` makes that endpoint answer an error.
 *
 * `FakeReply` kinds:
 * - `text`: `text`, optional `chunks` (the streamed deltas; default: split after each space).
 * - `tool-calls`: `calls: [{ id?, name, arguments: object | string }]` (a string is sent verbatim, so
 *   malformed JSON is possible), optional leading `text`, and `style`:
 *   `'openai'` (default) streams each call's arguments in fragments of `fragmentSize` characters across
 *   chunks, each with the call's `index`; `'ollama'` sends each call whole in one chunk without an
 *   `index`, the last one carrying the finish reason (`finishReason`, default `'stop'`, as Ollama does).
 * - `error`: HTTP `status` with an OpenAI-style error body (`message`), optional `headers`
 *   (e.g. `{ 'retry-after-ms': '1' }`).
 * - `hang`: accepts the request and never answers (the client's timeout or abort must end it).
 * - `stall`: streams `chunks` (as text) and then goes silent without finishing.
 * - `raw`: `status`, `contentType` and `body` sent exactly as given.
 * Every kind takes `delayMs` (wait before answering); text and tool-calls take `usage`
 * (`{ prompt_tokens, completion_tokens, cached_tokens? }`, default computed from lengths),
 * `finishReason` and `model`.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cached_tokens?: number;
}

export interface FakeToolCall {
  readonly id?: string;
  readonly name: string;
  /** An object is JSON-encoded; a string is sent as is (so it may be malformed). */
  readonly arguments: unknown;
}

interface ReplyCommon {
  readonly delayMs?: number;
}

interface ReplyMeta extends ReplyCommon {
  readonly usage?: FakeUsage;
  readonly finishReason?: string;
  readonly model?: string;
}

export type FakeReply =
  | ({ readonly kind: 'text'; readonly text: string; readonly chunks?: readonly string[] } & ReplyMeta)
  | ({
      readonly kind: 'tool-calls';
      readonly calls: readonly FakeToolCall[];
      readonly text?: string;
      readonly style?: 'openai' | 'ollama';
      readonly fragmentSize?: number;
    } & ReplyMeta)
  | ({
      readonly kind: 'error';
      readonly status: number;
      readonly message?: string;
      readonly headers?: Readonly<Record<string, string>>;
    } & ReplyCommon)
  | ({ readonly kind: 'hang' } & ReplyCommon)
  | ({ readonly kind: 'stall'; readonly chunks: readonly string[] } & ReplyCommon)
  | ({
      readonly kind: 'raw';
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
    } & ReplyCommon);

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`undefined` when the body was empty or not JSON). */
  readonly body: unknown;
  /** Becomes true when the client closed the connection before the reply was complete (abort, timeout). */
  readonly clientClosed: boolean;
}

export type FakeHandler = (request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIOptions {
  readonly embed?: (text: string) => number[];
  readonly embeddingsError?: { readonly status: number; readonly message?: string };
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:12345/v1`. */
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Bodies of the chat-completions requests, in order. */
  chatRequests(): Record<string, unknown>[];
  /** Replies still queued (always 0 for a handler). */
  remaining(): number;
  close(): Promise<void>;
}

const MODEL = 'fake-model';
const CREATED = 1_700_000_000;

export async function startFakeOpenAI(
  script: readonly FakeReply[] | FakeHandler = [],
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  const queue = typeof script === 'function' ? undefined : [...script];
  const handler = typeof script === 'function' ? script : undefined;
  const requests: FakeRequest[] = [];
  let chatIndex = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `fake server crashed: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bodyText = await readBody(req);
    let body: unknown;
    try {
      body = bodyText === '' ? undefined : JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const request = { method: req.method ?? 'GET', path, headers: req.headers, body, clientClosed: false };
    res.on('close', () => {
      if (!res.writableFinished) request.clientClosed = true;
    });
    requests.push(request);

    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const index = chatIndex++;
      const reply = handler
        ? await handler(request, index)
        : (queue?.shift() ??
          ({ kind: 'error', status: 500, message: 'fake server: script exhausted' } as const));
      await replyChat(res, reply, asRecord(body));
      return;
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      replyEmbeddings(res, asRecord(body), options);
      return;
    }
    sendJson(res, 404, { error: { message: `fake server: no route ${req.method} ${path}` } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests.filter((r) => r.path === '/v1/chat/completions').map((r) => asRecord(r.body)),
    remaining: () => queue?.length ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function defaultUsage(body: Record<string, unknown>, output: string): FakeUsage {
  return {
    prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4),
    completion_tokens: Math.ceil(output.length / 4),
  };
}

function wireUsage(usage: FakeUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    ...(usage.cached_tokens === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: usage.cached_tokens } }),
  };
}

async function replyChat(
  res: ServerResponse,
  reply: FakeReply,
  body: Record<string, unknown>,
): Promise<void> {
  if (reply.delayMs !== undefined) await wait(reply.delayMs);
  if (res.destroyed) return;
  const stream = body.stream === true;
  const includeUsage = asRecord(body.stream_options).include_usage === true;
  switch (reply.kind) {
    case 'error':
      sendJson(
        res,
        reply.status,
        { error: { message: reply.message ?? `fake error ${reply.status}`, type: 'fake' } },
        {
          ...reply.headers,
        },
      );
      return;
    case 'hang':
      // Keep the socket open until the client gives up; `close()` destroys it otherwise.
      return;
    case 'raw':
      res.writeHead(reply.status, { 'content-type': reply.contentType });
      res.end(reply.body);
      return;
    case 'stall': {
      startSse(res);
      for (const text of reply.chunks) writeSse(res, chunk(MODEL, { content: text }, null));
      return; // never finishes
    }
    case 'text':
    case 'tool-calls': {
      const model = reply.model ?? MODEL;
      const calls =
        reply.kind === 'tool-calls' ? reply.calls.map((c, i) => ({ ...c, id: c.id ?? `call_${i}` })) : [];
      const text = reply.text ?? '';
      const output = text + calls.map(argumentsText).join('');
      const usage = reply.usage ?? defaultUsage(body, output);
      const finishReason = reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
      if (!stream) {
        sendJson(res, 200, {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: CREATED,
          model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: text === '' && calls.length > 0 ? null : text,
                ...(calls.length === 0
                  ? {}
                  : {
                      tool_calls: calls.map((c) => ({
                        id: c.id,
                        type: 'function',
                        function: { name: c.name, arguments: argumentsText(c) },
                      })),
                    }),
              },
              finish_reason: finishReason,
            },
          ],
          usage: wireUsage(usage),
        });
        return;
      }
      startSse(res);
      writeSse(res, chunk(model, { role: 'assistant', content: '' }, null));
      const textChunks = reply.kind === 'text' && reply.chunks ? reply.chunks : splitWords(text);
      for (const piece of textChunks) writeSse(res, chunk(model, { content: piece }, null));
      if (reply.kind === 'tool-calls' && (reply.style ?? 'openai') === 'ollama') {
        calls.forEach((c, i) => {
          const last = i === calls.length - 1;
          const toolCall = {
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: argumentsText(c) },
          };
          writeSse(
            res,
            chunk(model, { tool_calls: [toolCall] }, last ? (reply.finishReason ?? 'stop') : null),
          );
        });
      } else {
        const size = Math.max(1, reply.kind === 'tool-calls' ? (reply.fragmentSize ?? 7) : 7);
        calls.forEach((c, index) => {
          const args = argumentsText(c);
          writeSse(
            res,
            chunk(
              model,
              {
                tool_calls: [
                  { index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } },
                ],
              },
              null,
            ),
          );
          for (let at = 0; at < args.length; at += size) {
            writeSse(
              res,
              chunk(
                model,
                { tool_calls: [{ index, function: { arguments: args.slice(at, at + size) } }] },
                null,
              ),
            );
          }
        });
        writeSse(res, chunk(model, {}, finishReason));
      }
      if (includeUsage) {
        writeSse(res, {
          id: 'chatcmpl-fake',
          object: 'chat.completion.chunk',
          created: CREATED,
          model,
          choices: [],
          usage: wireUsage(usage),
        });
      }
      res.write('data: [DONE]\n\n');
      res.end();
      return;
    }
    default: {
      const never: never = reply;
      throw new Error(`unknown fake reply ${JSON.stringify(never)}`);
    }
  }
}

function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

function writeSse(res: ServerResponse, value: unknown): void {
  res.write(`data: ${JSON.stringify(value)}\n\n`);
}

function chunk(
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** A deterministic embedding: 16 buckets of hashed, lower-cased words, so similar texts get similar vectors. */
export function hashedWordsEmbedding(text: string, dimensions = 16): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619) >>> 0;
    vector[hash % dimensions]! += 1;
  }
  return vector;
}

function replyEmbeddings(
  res: ServerResponse,
  body: Record<string, unknown>,
  options: FakeOpenAIOptions,
): void {
  if (options.embeddingsError) {
    sendJson(res, options.embeddingsError.status, {
      error: { message: options.embeddingsError.message ?? `fake error ${options.embeddingsError.status}` },
    });
    return;
  }
  const input = body.input;
  const texts = Array.isArray(input) ? input.map(String) : typeof input === 'string' ? [input] : [];
  const embed = options.embed ?? ((text: string) => hashedWordsEmbedding(text));
  sendJson(res, 200, {
    object: 'list',
    data: texts.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
    model: typeof body.model === 'string' ? body.model : MODEL,
    usage: { prompt_tokens: texts.join(' ').length, total_tokens: texts.join(' ').length },
  });
}
