// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Server processes for tests: spawn `fixtures/server-process.ts` with an environment, wait for its URL.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./fixtures/server-process.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
  /** What the process printed on stdout so far. */
  stdout(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** Waits until the child prints its URL (the first group of `pattern`) on stdout; fails when it exits first. */
async function listening(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
  timeoutMs: number,
): Promise<ServerProcess> {
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start in ${timeoutMs} ms: ${err}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${err}`));
    });
  });
  return {
    child,
    url,
    stderr: () => err,
    stdout: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function spawnServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return listening(child, /LISTENING (\S+)\n/, 'server', timeoutMs);
}

export async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const BIN = fileURLToPath(new URL('../../../bin/mnesos', import.meta.url));

/**
 * `bin/mnesos serve` on a free loopback port over the SQLite file `db`, local mode (no API keys), with the
 * models configured by `env` and any further flags; resolves once it listens.
 */
export async function spawnServe(
  db: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
  args: readonly string[] = [],
): Promise<ServerProcess> {
  const { MNESOS_API_KEYS: _, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return listening(child, /listening on (http:\/\/\S+)/, 'serve', timeoutMs);
}

/** SIGKILL, and wait until the process is gone. */
export function killHard(server: ServerProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    const { child } = server;
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
