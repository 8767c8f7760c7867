// Compressed answers: brotli or gzip, as the client's Accept-Encoding allows (brotli first). JSON answers to
// GETs of at least COMPRESS_MIN_BYTES (a story's history page, the turn tree, a state) are compressed as they
// go out, in zlib's thread pool so no request waits on another's compression; the web client's files are
// compressed once at their best and kept (static.ts). Event streams and POST answers are left alone: a
// stream must reach the player piece by piece, and a turn's answer is small.

import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

export type Encoding = 'br' | 'gzip';

/** Answers smaller than this go out as they are (compression would save less than its headers cost). */
export const COMPRESS_MIN_BYTES = 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer in for an Accept-Encoding header: brotli when accepted, else gzip, else none.
 * `q=0` refuses a coding; `*` stands for any coding not named.
 */
export function pickEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  // Bounded by the header's size (Node caps headers at 16 KB); split, not a regular expression.
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (name !== '') q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: Encoding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/** `bytes` compressed: `best` for files compressed once and kept, `fast` for answers compressed each time. */
export async function compressBytes(
  bytes: Uint8Array,
  encoding: Encoding,
  effort: 'best' | 'fast',
): Promise<Buffer<ArrayBuffer>> {
  // zlib's output is a fresh Buffer over an ArrayBuffer (never a SharedArrayBuffer).
  if (encoding === 'gzip')
    return (await gzipAsync(bytes, { level: effort === 'best' ? 9 : 6 })) as Buffer<ArrayBuffer>;
  return (await brotliAsync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === 'best' ? constants.BROTLI_MAX_QUALITY : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  })) as Buffer<ArrayBuffer>;
}

/** Adds Accept-Encoding to a response's Vary header (a cache must not give one client another's coding). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('vary');
  if (vary === null) headers.set('vary', 'Accept-Encoding');
  else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
}

/** Compresses JSON answers to GET requests (see the top of this file). */
export function compressJsonAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET') return;
    const res = c.res;
    if (!res.body || res.headers.has('content-encoding')) return;
    if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return;
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    if (encoding === undefined || length < COMPRESS_MIN_BYTES) {
      varyOnEncoding(res.headers);
      return;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Hono copies the old answer's headers onto the new one (context.ts `set res`): they are edited in place.
    // (all but content-type, which the new answer must carry itself).
    const type = res.headers.get('content-type') ?? 'application/json';
    varyOnEncoding(res.headers);
    res.headers.delete('content-length');
    if (bytes.byteLength < COMPRESS_MIN_BYTES) {
      c.res = new Response(bytes, { status: res.status, headers: { 'content-type': type } });
      return;
    }
    const packed = await compressBytes(bytes, encoding, 'fast');
    c.res = new Response(packed, {
      status: res.status,
      headers: {
        'content-type': type,
        'content-encoding': encoding,
        'content-length': String(packed.byteLength),
      },
    });
  };
}
