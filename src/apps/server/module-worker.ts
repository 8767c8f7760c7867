// Starts a worker thread on a module of this package (the cartridge checker's, the generator's). Compiled
// (dist/, what bin/mnesos runs) the module is plain JavaScript beside this one; from sources (tsx, vitest)
// it starts through worker-boot.mjs, which registers tsx's loader in the worker first.

import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Milliseconds a new worker may take to load (from sources, under tsx, that is seconds on a busy machine). */
export const WORKER_BOOT_MS = 60_000;

/** A worker on `entry`, the URL of a module's TypeScript source (its compiled `.js` is used in dist/). */
export function startModuleWorker(entry: URL, options: Omit<WorkerOptions, 'workerData'> = {}): Worker {
  if (import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      ...options,
      workerData: { entry: entry.href },
    });
  return new Worker(new URL(entry.href.replace(/\.ts$/, '.js')), options);
}
