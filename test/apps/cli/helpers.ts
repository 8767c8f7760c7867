// Runs the CLI as a child process in a temporary working directory, with stdin fed from a string, and
// collects its output. The environment is stripped of model and database settings so a test is offline
// unless it says otherwise.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll } from 'vitest';
import { ensureCompiled } from '../../helpers/compiled.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../../..');
/** The real command, as a user runs it. */
export const CLI = join(ROOT, 'bin', 'mnesos');

/** A compile of dist/ on a busy machine can take this long (once per run, only when a source changed). */
const COMPILE_TIMEOUT_MS = 300_000;

/**
 * For a test file that starts the CLI as a process: compile dist/ first when a source is newer, so the CLI
 * runs compiled (fast) and never stale. Files that only run it in-process need not call this.
 */
export function useCompiledCli(): void {
  beforeAll(() => ensureCompiled(), COMPILE_TIMEOUT_MS);
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd: string;
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
}

function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(MNESOS_|OPENAI_|ANTHROPIC_|GOOGLE_|FORCE_COLOR|NO_COLOR)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when stdout contains `text`. */
  waitFor(text: string): Promise<void>;
  readonly done: Promise<CliResult>;
}

/** Starts the CLI and leaves stdin open, for tests that talk to it or signal it. */
export function startCli(args: readonly string[], options: Omit<CliOptions, 'input'>): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of waiters.splice(0)) {
      if (stdout.includes(waiter.text)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
  return {
    child,
    done,
    waitFor: (text) =>
      new Promise((resolveWait) => {
        if (stdout.includes(text)) resolveWait();
        else waiters.push({ text, resolve: resolveWait });
      }),
  };
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const running = startCli(args, options);
  running.child.stdin.end(options.input ?? '');
  return running.done;
}

export function tempDir(): {
  dir: string;
  file: (name: string, content: string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-cli-'));
  return {
    dir,
    file: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A loopback port nothing listens on (bound, then closed). */
export function closedPort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

/** Lines of a stdin script. */
export function lines(...commands: string[]): string {
  return `${commands.join('\n')}\n`;
}

export const ESC = '\u001b';

/**
 * Per-test time for tests that start the CLI several times: a start of the compiled CLI takes a fraction of
 * a second idle, but several seconds on a machine loaded by other work. A correctness bound, not a speed
 * target.
 */
export const SPAWN_TIMEOUT_MS = 180_000;

/** A factory of temporary working directories, each removed after the test that made it. */
export function workspaces(): () => ReturnType<typeof tempDir> {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t;
  };
}

/** The working directory of this test process, restored after each in-process run. */
const TEST_CWD = process.cwd();
/** In-process runs share the process's cwd, env and streams: they take turns. */
let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI inside this test process (the program's `main`, as bin/mnesos runs it), for tests where the
 * process boundary is not what is tested: the same arguments, working directory and cleaned environment as
 * `runCli`, with stdout, stderr (and console output) and the exit code captured. No process start, so it
 * costs milliseconds. Concurrent calls run one after another. Not for commands that read stdin (`play`).
 */
export function runCliInProcess(
  args: readonly string[],
  options: Omit<CliOptions, 'input'>,
): Promise<CliResult> {
  const result = inProcessQueue.then(() => runOnce(args, options));
  inProcessQueue = result.catch(() => undefined);
  return result;
}

async function runOnce(args: readonly string[], options: Omit<CliOptions, 'input'>): Promise<CliResult> {
  const { main } = await import('../../../src/apps/cli/program.ts');
  const { format } = await import('node:util');
  const savedEnv = { ...process.env };
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const savedConsole = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  let stdout = '';
  let stderr = '';
  const toOut = (text: string) => {
    stdout += text;
  };
  const toErr = (text: string) => {
    stderr += text;
  };
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    };
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, cleanEnv(options.env));
  process.chdir(options.cwd);
  process.exitCode = undefined;
  process.stdout.write = capture(toOut) as typeof process.stdout.write;
  process.stderr.write = capture(toErr) as typeof process.stderr.write;
  console.log = (...values: unknown[]) => toOut(`${format(...values)}\n`);
  console.info = console.log;
  console.warn = (...values: unknown[]) => toErr(`${format(...values)}\n`);
  console.error = console.warn;
  try {
    const code = await main([...args]);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    Object.assign(console, savedConsole);
    process.exitCode = undefined;
    process.chdir(TEST_CWD);
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  }
}
