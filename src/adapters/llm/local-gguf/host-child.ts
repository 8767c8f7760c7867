// The model host: a child process of the server that owns node-llama-cpp and one model file (host.ts
// starts it and explains why a process, not a thread). It loads the file step by step (child-load.ts),
// then answers calls one at a time (child-call.ts), announcing each step so the server can hold it to its
// deadline. Whatever a file makes it do (a template that loops, metadata that balloons, a native crash)
// happens here, on this process's event loop and in its memory, never the server's; the server kills it
// when a step runs over. A watchdog thread kills it too if the server itself dies without a word.

import { Worker } from 'node:worker_threads';
import { renderInHost, runCall } from './child-call.ts';
import { type Announce, loadModelInHost } from './child-load.ts';
import { HostFailure, type HostReply, type HostRequest } from './host-protocol.ts';
import type { LoadedModel } from './runtime.ts';

/** Milliseconds between the watchdog's looks at whether the server is still this process's parent. */
const WATCHDOG_MS = 500;

// Runs beside a main thread that may be stuck in a render: /proc/self/stat's parent pid changes when the
// server dies (this process is re-parented); where there is no /proc, the server's pid stops answering.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
function parentGone() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== workerData.ppid;
  } catch {
    try { process.kill(workerData.ppid, 0); return false; } catch { return true; }
  }
}
setInterval(() => { if (parentGone()) process.kill(workerData.pid, 'SIGKILL'); }, ${WATCHDOG_MS});
`;

function send(reply: HostReply): void {
  process.send?.(reply);
}

function failureOf(error: unknown): HostFailure {
  if (error instanceof HostFailure) return error;
  return new HostFailure('bad-response', error instanceof Error ? error.message : String(error));
}

function announcer(id?: number): Announce {
  return async (phase) => {
    send({ type: 'phase', phase, ...(id === undefined ? {} : { id }) });
    // One turn of the event loop: the message is written before a step that may block starts.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
}

let model: LoadedModel | undefined;
const running = new Map<number, AbortController>();

async function handle(request: HostRequest): Promise<void> {
  switch (request.type) {
    case 'load':
      try {
        const loaded = await loadModelInHost(request, announcer());
        model = loaded.model;
        send({ type: 'loaded', model: loaded.info });
      } catch (error) {
        send({ type: 'load-failed', error: failureOf(error).toReply() });
      }
      return;
    case 'call':
    case 'render':
      await answer(request);
      return;
    case 'abort':
      running.get(request.id)?.abort();
      return;
    default: {
      const unreachable: never = request;
      throw new Error(`unknown request ${JSON.stringify(unreachable)}`);
    }
  }
}

async function answer(request: Extract<HostRequest, { type: 'call' | 'render' }>): Promise<void> {
  const { id } = request;
  const controller = new AbortController();
  running.set(id, controller);
  try {
    if (model === undefined) throw new HostFailure('bad-request', 'no model is loaded');
    if (request.type === 'render') {
      send({ type: 'rendered', id, ...(await renderInHost(model, request, announcer(id))) });
    } else {
      const result = await runCall(model, request, controller.signal, announcer(id), (text) =>
        send({ type: 'text', id, text }),
      );
      send({ type: 'answer', id, ...result });
    }
  } catch (error) {
    send({ type: 'call-failed', id, error: failureOf(error).toReply() });
  } finally {
    running.delete(id);
  }
}

new Worker(WATCHDOG, { eval: true, workerData: { ppid: process.ppid, pid: process.pid } }).unref();
process.on('disconnect', () => process.exit(0));
process.on('message', (request: HostRequest) => {
  void handle(request);
});
send({ type: 'ready' });
