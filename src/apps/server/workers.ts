// `serve --workers N`: N server processes on one port (node:cluster), for machines with more cores than
// one Node process can use. Each worker is a whole server with its own store connection; a session's
// turns stay serialised by the database (the session row lock, SQLite's write lock), exactly as with
// several replicas. The first worker starts alone, so migrations, the demo cartridge and API keys are
// written once; the others then find them stored. A worker that dies is replaced (a few times a minute
// at most, so a crash loop ends instead of spinning).

import cluster, { type Worker } from 'node:cluster';

/** Workers `serve --workers` accepts at most. */
export const MAX_WORKERS = 64;
/** Replacements of dead workers allowed per minute before the primary gives up. */
export const MAX_RESTARTS_PER_MINUTE = 5;

export class WorkersError extends Error {
  override readonly name = 'WorkersError';
}

/** `--workers` / MNESOS_WORKERS: 1 to MAX_WORKERS (1 when unset). */
export function parseWorkers(text: string | undefined, source: string): number {
  if (text === undefined || text.trim() === '') return 1;
  const trimmed = text.trim();
  const n = /^[0-9]{1,4}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS)
    throw new WorkersError(
      `${source} must be a whole number from 1 to ${MAX_WORKERS}, got '${text.slice(0, 20)}'`,
    );
  return n;
}

/** What a worker tells the primary once it listens. */
interface ReadyMessage {
  readonly type: 'mnesos-ready';
  readonly url: string;
  readonly banner: string;
}

function isReady(message: unknown): message is ReadyMessage {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'mnesos-ready'
  );
}

/** True in a process forked by `runWorkers`. */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/**
 * Milliseconds a server process has, after SIGTERM or SIGINT, to close its server and store before it exits
 * anyway (`mnesos serve`, apps/cli/run/serve.ts): a request or a local model that does not let go cannot
 * keep it running.
 */
export const SHUTDOWN_GRACE_MS = 8_000;
/** Milliseconds a worker has to stop after SIGTERM before the primary kills it: its own grace, and more. */
export const WORKER_STOP_TIMEOUT_MS = 10_000;

/** Called by a worker once its server has closed: drops the channel to the primary, so the process can end. */
export function leaveCluster(): void {
  if (cluster.isWorker) process.disconnect?.();
}

/** Called by a worker once its server listens. */
export function reportReady(url: string, banner: string): void {
  const message: ReadyMessage = { type: 'mnesos-ready', url, banner };
  process.send?.(message);
}

function fork(): Promise<{ worker: Worker; ready: ReadyMessage }> {
  const worker = cluster.fork();
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      if (!isReady(message)) return;
      worker.off('exit', onExit);
      worker.off('message', onMessage);
      resolve({ worker, ready: message });
    };
    const onExit = (code: number | null, signal: string | null): void => {
      worker.off('message', onMessage);
      reject(new WorkersError(`a worker exited before it was listening (${signal ?? `exit code ${code}`})`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/**
 * The primary: starts `count` workers (the first alone), prints the banner once, replaces a worker that
 * dies, and on SIGINT/SIGTERM stops them all and resolves.
 */
export async function runWorkers(count: number, write: (line: string) => void): Promise<void> {
  const first = await fork();
  const rest = await Promise.all(Array.from({ length: count - 1 }, () => fork()));
  const workers = new Set<Worker>([first.worker, ...rest.map((r) => r.worker)]);
  write(`${first.ready.banner} with ${count} workers\n`);
  let stopping = false;
  const restarts: number[] = [];
  await new Promise<void>((done, fail) => {
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (workers.size === 0) done();
      // The signal itself, not worker.kill(): that first waits for the worker's connections to drain.
      // The worker closes its server (and its connections) on SIGTERM, then leaves the cluster.
      for (const worker of workers) worker.process.kill('SIGTERM');
      setTimeout(() => {
        for (const worker of workers) worker.process.kill('SIGKILL');
      }, WORKER_STOP_TIMEOUT_MS).unref();
    };
    cluster.on('exit', (worker, code, signal) => {
      workers.delete(worker);
      if (stopping) {
        if (workers.size === 0) done();
        return;
      }
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0]! > 60_000) restarts.shift();
      if (restarts.length >= MAX_RESTARTS_PER_MINUTE) {
        stopping = true;
        for (const other of workers) other.kill('SIGTERM');
        fail(new WorkersError(`workers keep dying (${MAX_RESTARTS_PER_MINUTE} in a minute); stopping`));
        return;
      }
      restarts.push(now);
      write(`mnesos: a worker stopped (${signal ?? `exit code ${code}`}); starting another\n`);
      fork().then(
        (next) => workers.add(next.worker),
        (error: Error) => write(`mnesos: ${error.message}\n`),
      );
    });
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
