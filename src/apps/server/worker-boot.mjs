// Starts a worker thread on a module of this package. In a source checkout (run by tsx or vitest) the
// entry is TypeScript, so tsx's loader is registered in the worker first; a built entry is plain JS.
import { workerData } from 'node:worker_threads';

if (String(workerData.entry).endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);
