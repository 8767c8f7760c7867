// Model host processes started off the event loop. Node's fork() is synchronous: it copies the server's
// page tables and waits until the child has exec'd, which took 30 to 90 ms with a 150 MB heap on a busy
// 2-core machine (78 ms inside a first turn, measured by a CPU profile), every millisecond of it a stall
// of every other request. So one worker thread, started on first use, forks the hosts and owns their IPC
// channels; it passes messages both ways and reports each host's exit with the end of its standard error.
// The worker keeps the server's process alive only while a host has work (hold()).

import { Worker } from 'node:worker_threads';
import type { HostRequest } from './host-protocol.ts';

export interface LaunchOptions {
  readonly script: string;
  readonly args: readonly string[];
  readonly execArgv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Scheduling priority (nice) the host is given as soon as it exists. */
  readonly niceness: number;
  /** Bytes of the end of its standard error kept for the exit report. */
  readonly stderrBytes: number;
}

export interface HostProcessEvents {
  spawned(pid: number): void;
  message(raw: unknown): void;
  exit(code: number | null, signal: NodeJS.Signals | null, stderr: string): void;
}

export interface HostProcess {
  send(request: HostRequest): void;
  /** SIGKILL: whatever the host is doing. */
  kill(): void;
  /** Whether this host has work that must keep the server's process alive. */
  hold(busy: boolean): void;
}

type LauncherMessage =
  | { readonly type: 'spawned'; readonly id: number; readonly pid: number }
  | { readonly type: 'message'; readonly id: number; readonly message: unknown }
  | {
      readonly type: 'exit';
      readonly id: number;
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stderr: string;
    };

// Plain CommonJS, so it runs the same from sources and from dist/.
const LAUNCHER = `
const { parentPort } = require('node:worker_threads');
const { fork } = require('node:child_process');
const { setPriority } = require('node:os');
const hosts = new Map();
function spawnHost(m) {
  let stderr = '';
  let child;
  try {
    child = fork(m.script, m.args, { execArgv: m.execArgv, env: m.env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
  } catch (error) {
    parentPort.postMessage({ type: 'exit', id: m.id, code: null, signal: null, stderr: String(error && error.message || error) });
    return;
  }
  hosts.set(m.id, child);
  try { setPriority(child.pid, m.niceness); } catch {}
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-m.stderrBytes); });
  child.on('message', (message) => parentPort.postMessage({ type: 'message', id: m.id, message }));
  child.on('error', (error) => {
    stderr = (stderr + String(error.message)).slice(-m.stderrBytes);
    // A process that never started has no exit to report.
    if (child.pid === undefined && hosts.delete(m.id)) parentPort.postMessage({ type: 'exit', id: m.id, code: null, signal: null, stderr });
  });
  child.on('exit', (code, signal) => {
    hosts.delete(m.id);
    parentPort.postMessage({ type: 'exit', id: m.id, code, signal, stderr });
  });
  if (child.pid !== undefined) parentPort.postMessage({ type: 'spawned', id: m.id, pid: child.pid });
}
parentPort.on('message', (m) => {
  if (m.type === 'spawn') spawnHost(m);
  else if (m.type === 'send') { try { hosts.get(m.id)?.send(m.request); } catch {} }
  else if (m.type === 'kill') hosts.get(m.id)?.kill('SIGKILL');
});
`;

let launcher: Worker | undefined;
const listeners = new Map<number, HostProcessEvents>();
const busy = new Set<number>();
let nextId = 1;

function worker(): Worker {
  if (launcher !== undefined) return launcher;
  const started = new Worker(LAUNCHER, { eval: true });
  started.on('message', (message: LauncherMessage) => {
    const events = listeners.get(message.id);
    if (events === undefined) return;
    switch (message.type) {
      case 'spawned':
        events.spawned(message.pid);
        return;
      case 'message':
        events.message(message.message);
        return;
      case 'exit':
        listeners.delete(message.id);
        busy.delete(message.id);
        refresh();
        events.exit(message.code, message.signal, message.stderr);
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unknown launcher message ${JSON.stringify(unreachable)}`);
      }
    }
  });
  // The launcher gone, every host it started is gone with it (their channels closed): each is told so.
  const lost = (why: string) => {
    if (launcher !== started) return;
    launcher = undefined;
    const orphans = [...listeners.values()];
    listeners.clear();
    busy.clear();
    for (const events of orphans) events.exit(null, null, why);
  };
  started.on('error', (error) => lost(`the model host launcher failed: ${error.message}`));
  started.on('exit', () => lost('the model host launcher stopped'));
  launcher = started;
  refresh();
  return started;
}

/** The launcher keeps the process alive while some host has work, and not otherwise. */
function refresh(): void {
  if (busy.size > 0) launcher?.ref();
  else launcher?.unref();
}

/** Starts a host process through the launcher thread; its events arrive on `events`. */
export function launchHost(options: LaunchOptions, events: HostProcessEvents): HostProcess {
  const id = nextId++;
  listeners.set(id, events);
  worker().postMessage({ type: 'spawn', id, ...options });
  return {
    send: (request) => launcher?.postMessage({ type: 'send', id, request }),
    kill: () => launcher?.postMessage({ type: 'kill', id }),
    hold(isBusy) {
      if (isBusy && listeners.has(id)) busy.add(id);
      else busy.delete(id);
      refresh();
    },
  };
}
