// Reading request bodies safely: the declared and the actual size are both capped (the stream is cut at
// the cap, so a lying Content-Length or a chunked flood cannot fill memory), JSON must say it is JSON,
// nesting is bounded before anything recursive runs, and `__proto__`/`constructor`/`prototype` keys are
// refused wherever they appear.

import type { IncomingMessage } from 'node:http';
import { storableTextProblem } from '../../core/text-policy.ts';
import { ApiError } from './errors.ts';
import { MAX_JSON_DEPTH } from './limits.ts';

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Reads at most `maxBytes` of the body; more is a 413 and the rest is never read. `incoming` is the Node
 * request under `request` when the server runs on Node (`c.env.incoming` with @hono/node-server): a body
 * with a Content-Length within the limit is then read from it directly, without the Web Request and the
 * ReadableStream that `request.body` builds around it (Node's parser delivers exactly the declared bytes).
 * A chunked body, or no `incoming` (tests calling `app.request`), goes through `request.body` and is cut at
 * the limit.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  incoming?: IncomingMessage,
): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    throw new ApiError(413, 'body_too_large', `the body is ${declared} bytes; the limit is ${maxBytes}`, {
      limit: maxBytes,
    });
  }
  if (incoming !== undefined && declared !== null && /^[0-9]+$/.test(declared) && !incoming.readableDidRead)
    return readDeclaredBody(incoming);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ApiError(413, 'body_too_large', `the body is over ${maxBytes} bytes (the limit)`, {
        limit: maxBytes,
      });
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The whole body of a Node request whose Content-Length the caller has checked (the parser stops there). */
function readDeclaredBody(incoming: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (error?: ApiError): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (error !== undefined) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    // An error or 'close' before 'end': the client went away mid-body. Nobody is left to read the answer;
    // it is still a client's fault, not the server's (no 500, no error log).
    const gone = (): void =>
      settle(new ApiError(400, 'body_incomplete', 'the connection closed before the body ended'));
    const onError = gone;
    const onClose = gone;
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** Depth of the JSON text's nesting, found by scanning (no recursion, strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * What parsed JSON may not hold, found in one walk (iterative: depth is already bounded, but stay safe):
 * the first forbidden key anywhere, which wins; else the first string (key or value) that no database may
 * store, NUL or a lone surrogate, refused the same way on SQLite and PostgreSQL. The path is
 * JSON-pointer-like (`/title`).
 */
function refusedContent(
  value: unknown,
): { forbidden: string } | { unstorable: { path: string; problem: string } } | undefined {
  let unstorable: { path: string; problem: string } | undefined;
  const stack: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unstorable === undefined ? storableTextProblem(node) : undefined;
      if (problem !== undefined) unstorable = { path: path || '/', problem };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push({ node: node[i], path: `${path}/${i}` });
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) return { forbidden: key };
      const problem = unstorable === undefined ? storableTextProblem(key) : undefined;
      if (problem !== undefined) unstorable = { path: path || '/', problem: `a key ${problem}` };
      stack.push({ node: (node as Record<string, unknown>)[key], path: `${path}/${key}` });
    }
  }
  return unstorable === undefined ? undefined : { unstorable };
}

export function parseJsonText(text: string): unknown {
  const depth = jsonDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw new ApiError(
      400,
      'too_deep',
      `the JSON body nests ${depth} levels; the limit is ${MAX_JSON_DEPTH} (MAX_JSON_DEPTH)`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'malformed_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  const refused = refusedContent(value);
  if (refused !== undefined && 'forbidden' in refused)
    throw new ApiError(
      400,
      'forbidden_key',
      `the key '${refused.forbidden}' is not allowed anywhere in a request`,
    );
  if (refused !== undefined) {
    const { path, problem } = refused.unstorable;
    throw new ApiError(400, 'invalid_string', `${path}: ${problem}`, { path });
  }
  return value;
}

/** A JSON body: 415 unless `application/json`, 413 past the cap, 400 when malformed, too deep or hostile. */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  incoming?: IncomingMessage,
): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError(415, 'unsupported_media_type', 'send the body as application/json');
  }
  const bytes = await readBodyBytes(request, maxBytes, incoming);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'malformed_json', 'the body is not UTF-8');
  }
  return parseJsonText(text);
}
