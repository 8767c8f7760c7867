// Runs a rules module in the sandbox and returns its default export as JSON text, synchronously: the
// cartridge loader is synchronous, so the caller blocks (Atomics.wait) while a worker thread runs QuickJS.
// The worker has its own V8 stack and heap limits, so nothing a module does can overflow or exhaust the
// caller's; if the worker does not answer within the time limit plus a grace period, it is ended and the
// next evaluation starts a new one. The worker is unref'd: it never keeps a process alive.

import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import {
  MAX_RULES_JSON_CHARS,
  RULES_SCRIPT_MEMORY_BYTES,
  RULES_SCRIPT_STACK_BYTES,
  RULES_SCRIPT_TIME_MS,
  SANDBOX_GRACE_MS,
  SANDBOX_START_MS,
  SANDBOX_WASM_INITIAL_PAGES,
  WASM_PAGE_BYTES,
  SANDBOX_WORKER_HEAP_MB,
  SANDBOX_WORKER_STACK_MB,
} from './limits.ts';
import { SANDBOX_WORKER_SOURCE } from './worker-source.ts';

export interface SandboxLimits {
  readonly timeMs: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly maxJsonChars: number;
  /** How long the caller waits before ending the worker; default timeMs + SANDBOX_GRACE_MS. */
  readonly waitMs?: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeMs: RULES_SCRIPT_TIME_MS,
  memoryBytes: RULES_SCRIPT_MEMORY_BYTES,
  stackBytes: RULES_SCRIPT_STACK_BYTES,
  maxJsonChars: MAX_RULES_JSON_CHARS,
};

/** Where the module failed: its own code, the default export's shape, or its conversion to JSON. */
export type SandboxPhase = 'evaluate' | 'shape' | 'serialize' | 'internal';

export type SandboxResult =
  | { readonly kind: 'ok'; readonly json: string }
  /** A JavaScript error inside the sandbox (the module threw, or QuickJS stopped it: interrupted, out of
   * memory, stack overflow). `stack` holds QuickJS's `at … (file:line:col)` lines. */
  | {
      readonly kind: 'error';
      readonly phase: SandboxPhase;
      readonly name: string;
      readonly message: string;
      readonly stack: string;
    }
  | { readonly kind: 'too-large'; readonly chars: number }
  /** The worker did not answer in time (the interrupt handler could not stop the module). */
  | { readonly kind: 'timeout'; readonly waitedMs: number }
  /** The engine itself failed; the worker was replaced. */
  | { readonly kind: 'crashed'; readonly message: string };

interface RunningWorker {
  readonly worker: Worker;
  readonly replies: MessagePort;
  readonly flag: Int32Array;
  started: boolean;
}

let current: RunningWorker | undefined;
let nextId = 1;

function startWorker(): RunningWorker {
  const require = createRequire(import.meta.url);
  const flagBuffer = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(SANDBOX_WORKER_SOURCE, {
    eval: true,
    workerData: {
      coreModule: require.resolve('quickjs-emscripten-core'),
      variantModule: require.resolve('@jitl/quickjs-wasmfile-release-sync'),
      flag: flagBuffer,
      initialPages: SANDBOX_WASM_INITIAL_PAGES,
      maximumPages: SANDBOX_WASM_INITIAL_PAGES + Math.ceil(RULES_SCRIPT_MEMORY_BYTES / WASM_PAGE_BYTES),
      replyPort: port2,
    },
    transferList: [port2],
    resourceLimits: { stackSizeMb: SANDBOX_WORKER_STACK_MB, maxOldGenerationSizeMb: SANDBOX_WORKER_HEAP_MB },
    // The worker needs none of the parent's flags (a loader such as tsx would only slow its start).
    execArgv: [],
  });
  worker.unref();
  port1.unref();
  // A worker that dies (out of heap, exit after a crash) is simply forgotten; the next call starts another.
  const forget = () => {
    if (current?.worker === worker) current = undefined;
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  return { worker, replies: port1, flag: new Int32Array(flagBuffer), started: false };
}

function stopWorker(running: RunningWorker): void {
  if (current === running) current = undefined;
  running.replies.close();
  void running.worker.terminate();
}

/** Evaluates `code` as an ES module named `file` and returns its default export as JSON. Blocks. */
export function runRulesModule(
  code: string,
  file: string,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): SandboxResult {
  const running = current ?? startWorker();
  current = running;
  const id = nextId++;
  Atomics.store(running.flag, 0, 0);
  running.worker.postMessage({ id, code, file, ...limits });
  const budget =
    (limits.waitMs ?? limits.timeMs + SANDBOX_GRACE_MS) + (running.started ? 0 : SANDBOX_START_MS);
  const began = Date.now();
  for (;;) {
    const left = budget - (Date.now() - began);
    if (left <= 0) {
      stopWorker(running);
      return { kind: 'timeout', waitedMs: Date.now() - began };
    }
    Atomics.wait(running.flag, 0, 0, left);
    if (Atomics.load(running.flag, 0) !== id) continue;
    const message = receiveReply(running.replies, id);
    if (message === undefined) continue;
    running.started = true;
    if (message.kind === 'crashed') stopWorker(running);
    return message;
  }
}

function receiveReply(port: MessagePort, id: number): SandboxResult | undefined {
  for (;;) {
    const received = receiveMessageOnPort(port);
    if (received === undefined) return undefined;
    const reply = received.message as { id: number; result: SandboxResult };
    if (reply.id === id) return reply.result;
  }
}

/** Ends the sandbox worker, if one runs (tests; a process exits without it, as the worker is unref'd). */
export function stopRulesSandbox(): void {
  if (current) stopWorker(current);
}
