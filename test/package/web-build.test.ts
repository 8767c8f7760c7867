// The web client is never served stale: its staleness check follows what the client imports, so a change to
// a constant it bundles from outside src/apps/web (src/engine/turn/limits.ts, src/adapters/store/limits.ts) calls for a rebuild,
// and the rebuild makes the build current again.
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWebClient, clientSources, webClientStale } from '../../src/apps/web/build.ts';
import { ROOT } from '../apps/cli/helpers.ts';

const TURN_LIMITS = join(ROOT, 'src', 'engine', 'turn', 'limits.ts');
const STORE_LIMITS = join(ROOT, 'src', 'adapters', 'store', 'limits.ts');

describe('the web build', { timeout: 600_000 }, () => {
  it('is built from what the client imports, shared limits included, and not from what it does not', () => {
    const sources = clientSources();
    expect(sources).toContain(join(ROOT, 'src', 'apps', 'web', 'index.html'));
    expect(sources).toContain(join(ROOT, 'src', 'apps', 'web', 'main.tsx'));
    expect(sources).toContain(TURN_LIMITS);
    expect(sources).toContain(STORE_LIMITS);
    // The server is only named in `import type` lines: erased from the bundle, so not a source.
    expect(sources).not.toContain(join(ROOT, 'src', 'apps', 'server', 'start.ts'));
    expect(sources).not.toContain(join(ROOT, 'src', 'adapters', 'store', 'open.ts'));
  });

  it('goes stale when src/engine/turn/limits.ts changes, and a rebuild makes it current', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mnesos-web-'));
    const original = statSync(TURN_LIMITS);
    try {
      // A build newer than every source is current.
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'index.html'), '<!doctype html>');
      const newest = Math.max(...clientSources().map((file) => statSync(file).mtimeMs));
      const built = new Date(newest + 60_000);
      utimesSync(join(out, 'index.html'), built, built);
      expect(webClientStale(out)).toBe(false);
      // Touching the turn limits (a constant the client shows) makes it stale.
      const touched = new Date(newest + 120_000);
      utimesSync(TURN_LIMITS, original.atime, touched);
      expect(webClientStale(out)).toBe(true);
      // Put the file's time back before the build, so the build is not dated before a source.
      utimesSync(TURN_LIMITS, original.atime, original.mtime);
      utimesSync(join(out, 'index.html'), new Date(0), new Date(0));
      expect(webClientStale(out)).toBe(true);
      await buildWebClient(out);
      expect(webClientStale(out)).toBe(false);
    } finally {
      utimesSync(TURN_LIMITS, original.atime, original.mtime);
      rmSync(out, { recursive: true, force: true });
    }
  });
});
