// The static-files hook for the web client (`dist/web`): GETs outside /v1 are served from one folder, an
// unknown path falls back to index.html (a single-page app). Paths are resolved inside the folder only.
// Only "no such file" falls back: a file the server cannot read (EACCES) is an error (500), not a 404.
// Text files go out compressed when the browser accepts it (brotli or gzip, compressed once at their best and
// kept while the file is unchanged), and the hashed files under assets/ are cached by the browser for good.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { isNotFound } from '../../core/errno.ts';
import {
  COMPRESS_MIN_BYTES,
  compressBytes,
  type Encoding,
  pickEncoding,
  varyOnEncoding,
} from './compression.ts';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Types worth compressing (images and fonts are compressed already). */
const TEXT_TYPES: ReadonlySet<string> = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/** Vite names the files under assets/ by their content's hash: a new build gives new names. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Compressed copies kept: a file's path and version (size and time) to its bytes in one coding. */
const packedCache = new Map<string, Buffer<ArrayBuffer>>();
/** Copies kept at most (the web client has a handful of files; this bounds a folder with many). */
export const PACKED_CACHE_FILES = 64;
/** Files larger than this go out as they are (compressing them once would hold a lot in memory). */
export const PACKED_MAX_BYTES = 8 * 1024 * 1024;

async function packed(
  path: string,
  version: string,
  raw: Buffer,
  encoding: Encoding,
): Promise<Buffer<ArrayBuffer>> {
  const key = `${encoding}\0${version}\0${path}`;
  const hit = packedCache.get(key);
  if (hit) return hit;
  const bytes = await compressBytes(raw, encoding, 'best');
  if (packedCache.size >= PACKED_CACHE_FILES) {
    const oldest = packedCache.keys().next().value;
    if (oldest !== undefined) packedCache.delete(oldest);
  }
  packedCache.set(key, bytes);
  return bytes;
}

async function fileResponse(
  path: string,
  acceptEncoding: string | undefined,
  root: string,
): Promise<Response | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    const ext = extname(path).toLowerCase();
    const headers = new Headers({ 'content-type': TYPES[ext] ?? 'application/octet-stream' });
    if (path.startsWith(join(root, 'assets') + sep)) headers.set('cache-control', IMMUTABLE);
    const raw = await readFile(path);
    const encoding = pickEncoding(acceptEncoding);
    if (!TEXT_TYPES.has(ext) || raw.byteLength < COMPRESS_MIN_BYTES || raw.byteLength > PACKED_MAX_BYTES)
      return new Response(raw, { headers });
    varyOnEncoding(headers);
    if (encoding === undefined) return new Response(raw, { headers });
    headers.set('content-encoding', encoding);
    return new Response(await packed(path, `${info.size}:${info.mtimeMs}`, raw, encoding), { headers });
  } catch (error) {
    // "No such file" only; any other failure (EACCES, EMFILE, EIO) is a server fault, not a 404.
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function serveStatic(
  root: string,
  pathname: string,
  acceptEncoding?: string,
): Promise<Response | undefined> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch (error) {
    // A malformed escape (`%E0%A4%A`) names no file.
    if (error instanceof URIError) return undefined;
    throw error;
  }
  if (decoded.includes('\0')) return undefined;
  const target = resolve(join(base, decoded));
  if (target !== base && !target.startsWith(base + sep)) return undefined;
  const index = join(base, 'index.html');
  return (
    (await fileResponse(target === base ? index : target, acceptEncoding, base)) ??
    fileResponse(index, acceptEncoding, base)
  );
}
