// The static-files hook: a missing file falls back to index.html, a malformed escape names no file, and a
// file the server cannot read is an error (500 through the app), never a silent 404 or the index page.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Permissions do not stop root (the test may run as root), so EACCES is injected at the `stat` call.
const denied = new Set<string>();
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    stat: async (path: string) => {
      if (denied.has(path)) {
        throw Object.assign(new Error(`EACCES: permission denied, stat '${path}'`), {
          code: 'EACCES',
          errno: -13,
          syscall: 'stat',
          path,
        });
      }
      return actual.stat(path);
    },
  };
});

const { serveStatic } = await import('../../../src/apps/server/static.ts');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mnesos-static-'));
  await writeFile(join(root, 'index.html'), '<p>index</p>');
  await writeFile(join(root, 'app.js'), 'console.log(1)');
  await mkdir(join(root, 'assets'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('serveStatic', () => {
  it('serves a file with its type', async () => {
    const r = await serveStatic(root, '/app.js');
    expect(r?.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await r?.text()).toBe('console.log(1)');
  });

  it('falls back to index.html for a path that does not exist, or a folder', async () => {
    for (const path of ['/play/123', '/assets', '/app.js/inside']) {
      const r = await serveStatic(root, path);
      expect(await r?.text(), path).toBe('<p>index</p>');
    }
  });

  it('a malformed escape or a path outside the folder names no file', async () => {
    expect(await serveStatic(root, '/%E0%A4%A')).toBeUndefined();
    expect(await serveStatic(root, '/..%2f..%2fetc%2fpasswd')).toBeUndefined();
  });

  it('a file it may not read is an error (EACCES), not a fallback', async () => {
    denied.add(join(root, 'app.js'));
    try {
      await expect(serveStatic(root, '/app.js')).rejects.toMatchObject({ code: 'EACCES' });
    } finally {
      denied.clear();
    }
  });

  it('an unreadable index.html is an error too', async () => {
    denied.add(join(root, 'index.html'));
    try {
      await expect(serveStatic(root, '/play/1')).rejects.toMatchObject({ code: 'EACCES' });
    } finally {
      denied.clear();
    }
  });
});
