// The static-files hook for the web client (`dist/web`): GETs outside /v1 are served from one folder, an
// unknown path falls back to index.html (a single-page app). Paths are resolved inside the folder only.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

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
  } catch {
    return undefined;
  }
}

export async function serveStatic(root: string, pathname: string): Promise<Response | undefined> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const target = resolve(join(base, decoded));
  if (target !== base && !target.startsWith(base + sep)) return undefined;
  return (
    (await fileResponse(target === base ? join(base, 'index.html') : target)) ??
    fileResponse(join(base, 'index.html'))
  );
}
