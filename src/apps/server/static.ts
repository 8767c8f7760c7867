// The static-files hook for the web client (`dist/web`): GETs outside /v1 are served from one folder, an
// unknown path falls back to index.html (a single-page app). Paths are resolved inside the folder only.
// Only "no such file" falls back: a file the server cannot read (EACCES) is an error (500), not a 404.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { isNotFound } from '../../core/errno.ts';

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

async function fileResponse(path: string): Promise<Response | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return new Response(await readFile(path), { headers: { 'content-type': type } });
  } catch (error) {
    // "No such file" only; any other failure (EACCES, EMFILE, EIO) is a server fault, not a 404.
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function serveStatic(root: string, pathname: string): Promise<Response | undefined> {
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
  return (
    (await fileResponse(target === base ? join(base, 'index.html') : target)) ??
    fileResponse(join(base, 'index.html'))
  );
}
