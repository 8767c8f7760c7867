// `npm start` serves the game, and stopping it by its PID stops the server: the script ends in `exec`, so
// npm's child is the server itself and npm passes SIGTERM and SIGINT on to it. Nothing keeps the port.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../apps/cli/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm start` on a free port; resolves with the URL once it listens, then stops it with `signal`. */
async function startAndStop(signal: 'SIGTERM' | 'SIGINT'): Promise<{ url: string; code: number | null }> {
  const npm = spawn('npm', ['start', '--', '--port', '0', '--db', join(dir, `${signal}.db`)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const closed = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    void closed.then((code) => reject(new Error(`npm start exited ${code} before listening:\n${out}`)));
  });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  npm.kill(signal);
  return { url, code: await closed };
}

describe('npm start', { timeout: 600_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the server when npm's own PID gets ${signal}`, async () => {
      const { url } = await startAndStop(signal);
      // The server is gone with npm: nothing answers on its port any more.
      const after = await fetch(`${url}/healthz`).then(
        (r) => r.status,
        (error: Error) => (error.cause as { code?: string } | undefined)?.code ?? error.message,
      );
      expect(after).toBe('ECONNREFUSED');
    });
  }
});
