// The server's side of a model host: one child process per loaded model file, which owns node-llama-cpp
// (host-child.ts). Everything a model file steers — its header and metadata, its chat template (rendered
// in JavaScript, synchronously, when node-llama-cpp chooses a chat wrapper and for every prompt), grammars,
// generation — runs there, so the server's event loop only passes messages (docs/deploy.md, "Round four:
// model files").
//
// Why a child process and not a worker thread: a worker shares the server's process, so it cannot be
// bounded in memory beyond V8's heap (llama.cpp's native allocations, node-llama-cpp's native Jinja
// renderer and a llama.cpp abort on a malformed file would all land in the server), and `terminate()`
// cannot stop a thread stuck in native code. A child process can be killed outright (SIGKILL) whatever it
// is doing, its memory is its own and measured here (/proc/<pid>/status), its heap is capped (node's
// --max-old-space-size), it runs at a lower priority than the server, and it gets none of the server's
// secrets in its environment.
//
// The process is started by a worker thread (host-launcher.ts): fork() itself stops the event loop for
// tens of milliseconds.
//
// Each step of a load and of a call has a deadline (host-limits.ts); the host announces every step it
// starts, and past a deadline (or the memory limit) the process is killed and the waiting calls fail with
// an error naming the file, the step and the limit. Calls run one at a time, in order; a cancelled call
// that is waiting never runs, a running one is told to stop and killed if it does not.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelError } from '../errors.ts';
import {
  MODEL_ABORT_GRACE_MS,
  MODEL_HOST_HEAP_MB,
  MODEL_HOST_NICENESS,
  MODEL_HOST_STDERR_BYTES,
  MODEL_MEMORY_POLL_MS,
  MAX_TEMPLATE_RENDER_CPU_MS,
  PHASE_DEADLINES,
  type PhaseDeadlines,
} from './host-limits.ts';
import { type HostProcess, launchHost } from './host-launcher.ts';
import {
  type CallAnswer,
  type CallRequest,
  type HostError,
  type HostPhase,
  type HostReply,
  type HostRequest,
  hostReply,
  type LoadedInfo,
  type RenderedPrompt,
  type RenderRequest,
} from './host-protocol.ts';
import type { ChatMessage } from '../types.ts';

export interface LoadKey {
  /** node-llama-cpp's entry module (locate.ts). */
  readonly entry: string;
  readonly file: string;
  readonly threads: number;
  readonly contextSize?: number;
  /** The host's anonymous memory limit, in MiB (MNESOS_MODEL_MEMORY_MB). */
  readonly memoryMb: number;
}

export interface HostOptions {
  readonly key: LoadKey;
  /** The steps' deadlines (PHASE_DEADLINES; tests shorten some). */
  readonly deadlines?: PhaseDeadlines;
  /** MAX_TEMPLATE_RENDER_CPU_MS unless given. */
  readonly templateRenderCpuMs?: number;
}

/** Why a host stopped, and whether the file itself is to blame (it is then not loaded again). */
export interface HostDeath {
  readonly error: ModelError;
  readonly refuseFile: boolean;
}

type JobRequest = CallRequest | RenderRequest;

interface Job {
  readonly request: JobRequest;
  readonly signal: AbortSignal | undefined;
  readonly onText: ((text: string) => void) | undefined;
  readonly resolve: (reply: CallAnswer | RenderedPrompt) => void;
  readonly reject: (error: ModelError) => void;
  detach(): void;
}

/** The script that runs the host: the compiled JavaScript, or from sources through host-boot.mjs (tsx). */
function hostScript(): { script: string; args: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: fileURLToPath(new URL('./host-child.js', here)), args: [] };
  return {
    script: fileURLToPath(new URL('./host-boot.mjs', here)),
    args: [new URL('./host-child.ts', here).href],
  };
}

/** The host's environment: what node-llama-cpp reads, none of the server's keys or database URLs. */
function hostEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (['PATH', 'HOME', 'TMPDIR', 'LANG'].includes(name) || name.startsWith('NODE_LLAMA_CPP_'))
      env[name] = value;
  }
  return env;
}

const aborted = () => new ModelError('aborted', 'the local model call was cancelled');

export class ModelHost {
  readonly key: LoadKey;
  readonly #deadlines: PhaseDeadlines;
  readonly #templateRenderCpuMs: number;
  readonly #process: HostProcess;
  #pid: number | undefined;
  readonly #exited: Promise<void>;
  #markExited: () => void = () => undefined;
  readonly #loaded: Promise<LoadedInfo>;
  #settleLoad: { resolve(info: LoadedInfo): void; reject(error: ModelError): void } | undefined;
  #info: LoadedInfo | undefined;
  #phase: HostPhase | 'idle' = 'boot';
  #phaseTimer: NodeJS.Timeout | undefined;
  #abortTimer: NodeJS.Timeout | undefined;
  #memoryTimer: NodeJS.Timeout | undefined;
  readonly #queue: Job[] = [];
  #running: Job | undefined;
  #nextId = 1;
  #death: HostDeath | undefined;
  #retiring = false;
  readonly #deathListeners: ((death: HostDeath) => void)[] = [];

  constructor(options: HostOptions) {
    this.key = options.key;
    this.#deadlines = options.deadlines ?? PHASE_DEADLINES;
    this.#templateRenderCpuMs = options.templateRenderCpuMs ?? MAX_TEMPLATE_RENDER_CPU_MS;
    this.#loaded = new Promise<LoadedInfo>((resolve, reject) => {
      this.#settleLoad = { resolve, reject };
    });
    // Callers observe it through ready(); a load nobody waits for must not be an unhandled rejection.
    this.#loaded.catch(() => undefined);
    this.#exited = new Promise<void>((resolve) => {
      this.#markExited = resolve;
    });
    this.#process = launchHost(
      {
        ...hostScript(),
        execArgv: [`--max-old-space-size=${MODEL_HOST_HEAP_MB}`],
        env: hostEnv(),
        niceness: MODEL_HOST_NICENESS,
        stderrBytes: MODEL_HOST_STDERR_BYTES,
      },
      {
        spawned: (pid) => {
          this.#pid = pid;
        },
        message: (raw) => this.#onMessage(raw),
        exit: (code, signal, stderr) => {
          this.#markExited();
          this.#onExit(code, signal, stderr);
        },
      },
    );
    this.#arm('boot');
    this.#memoryTimer = setInterval(() => void this.#checkMemory(), MODEL_MEMORY_POLL_MS);
    this.#memoryTimer.unref();
    this.#holdProcess();
  }

  /** The process id of the host, once it exists. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** What the loaded model is (undefined until it has loaded). */
  get info(): LoadedInfo | undefined {
    return this.#info;
  }

  /** Whether the host still takes calls (not dead, not being retired). */
  get usable(): boolean {
    return this.#death === undefined && !this.#retiring;
  }

  /** Resolves once the file is loaded; rejects with the error that stopped the load. */
  ready(): Promise<LoadedInfo> {
    return this.#loaded;
  }

  onDeath(listener: (death: HostDeath) => void): void {
    if (this.#death !== undefined) listener(this.#death);
    else this.#deathListeners.push(listener);
  }

  /** One generation; text goes to `onText` as it is written when `request.stream` is set. */
  call(
    request: Omit<CallRequest, 'type' | 'id'>,
    signal?: AbortSignal,
    onText?: (text: string) => void,
  ): Promise<CallAnswer> {
    return this.#enqueue(
      { ...request, type: 'call', id: this.#nextId++ },
      signal,
      onText,
    ) as Promise<CallAnswer>;
  }

  /** The prompt of a conversation as the model's chat template renders it, and its tokens. */
  render(system: string, messages: readonly ChatMessage[]): Promise<RenderedPrompt> {
    return this.#enqueue(
      { type: 'render', id: this.#nextId++, system, messages },
      undefined,
      undefined,
    ) as Promise<RenderedPrompt>;
  }

  /** Stops taking calls; the host ends after the calls it has (at once when it has none). */
  retire(): void {
    this.#retiring = true;
    if (this.#running === undefined && this.#queue.length === 0)
      this.kill(new ModelError('aborted', `${this.key.file}: unloaded`));
  }

  /** Resolves once the host process has exited. */
  exited(): Promise<void> {
    return this.#exited;
  }

  /** Kills the host at once; everything waiting on it fails with `error`. */
  kill(error: ModelError, refuseFile = false): void {
    if (this.#death !== undefined) return;
    this.#process.kill();
    this.#die({ error, refuseFile });
  }

  /** The host keeps the server's process alive only while it has work (a CLI turn waits on it). */
  #holdProcess(): void {
    this.#process.hold(
      this.#death === undefined &&
        (this.#info === undefined || this.#running !== undefined || this.#queue.length > 0),
    );
  }

  #send(request: HostRequest): void {
    this.#process.send(request);
  }

  #onMessage(raw: unknown): void {
    const parsed = hostReply.safeParse(raw);
    if (!parsed.success) {
      this.kill(
        new ModelError(
          'bad-response',
          `${this.key.file}: the model host sent a message that is not understood`,
        ),
      );
      return;
    }
    this.#handle(parsed.data);
  }

  #handle(reply: HostReply): void {
    switch (reply.type) {
      case 'ready':
        this.#arm('header');
        this.#send({
          type: 'load',
          entry: this.key.entry,
          file: this.key.file,
          threads: this.key.threads,
          ...(this.key.contextSize === undefined ? {} : { contextSize: this.key.contextSize }),
          templateRenderCpuMs: this.#templateRenderCpuMs,
        });
        return;
      case 'phase':
        if (reply.id === undefined ? this.#info === undefined : reply.id === this.#running?.request.id)
          this.#arm(reply.phase);
        return;
      case 'loaded':
        this.#info = reply.model;
        this.#idle();
        this.#settleLoad?.resolve(reply.model);
        this.#pump();
        return;
      case 'load-failed':
        this.kill(this.#errorOf(reply.error), reply.error.refuseFile);
        return;
      case 'text':
        if (reply.id === this.#running?.request.id) this.#running.onText?.(reply.text);
        return;
      case 'answer':
      case 'rendered':
        this.#finish(reply.id, reply);
        return;
      case 'call-failed':
        this.#finish(reply.id, this.#errorOf(reply.error));
        return;
      default: {
        const unreachable: never = reply;
        throw new Error(`unknown reply ${JSON.stringify(unreachable)}`);
      }
    }
  }

  #errorOf(error: HostError): ModelError {
    return new ModelError(error.kind, error.message, { modelId: `file:${basename(this.key.file)}` });
  }

  /** Starts the deadline of `phase`, ending the previous one's. */
  #arm(phase: HostPhase): void {
    clearTimeout(this.#phaseTimer);
    this.#phase = phase;
    const deadline = this.#deadlines[phase];
    this.#phaseTimer = setTimeout(() => this.#overran(phase), deadline.ms);
  }

  #idle(): void {
    clearTimeout(this.#phaseTimer);
    this.#phaseTimer = undefined;
    this.#phase = 'idle';
  }

  #overran(phase: HostPhase): void {
    const { ms, what, refusesFile } = this.#deadlines[phase];
    const message = `${this.key.file}: ${what} took longer than ${ms.toLocaleString('en-US')} ms (PHASE_DEADLINES.${phase})${refusesFile ? '; the file is refused' : ''}`;
    this.kill(new ModelError(refusesFile ? 'config' : 'timeout', message), refusesFile);
  }

  async #checkMemory(): Promise<void> {
    const pid = this.#pid;
    if (pid === undefined || this.#death !== undefined) return;
    let status: string;
    try {
      status = await readFile(`/proc/${pid}/status`, 'utf8');
    } catch {
      // No /proc (not Linux), or the process has just ended: the heap cap and the deadlines still hold.
      if (process.platform !== 'linux') clearInterval(this.#memoryTimer);
      return;
    }
    const kb = /^RssAnon:\s+(\d+) kB/m.exec(status)?.[1];
    if (kb === undefined) return;
    const mb = Number(kb) / 1024;
    if (mb <= this.key.memoryMb || this.#death !== undefined) return;
    this.kill(
      new ModelError(
        'config',
        `${this.key.file}: the model host used ${Math.round(mb).toLocaleString('en-US')} MiB of memory while ${this.#what()}; the limit is ${this.key.memoryMb.toLocaleString('en-US')} MiB (MNESOS_MODEL_MEMORY_MB)`,
      ),
    );
  }

  #what(): string {
    return this.#phase === 'idle' ? 'idle' : this.#deadlines[this.#phase].what;
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (this.#death !== undefined) return;
    const how = signal ?? (code === null ? stderr.trim() || 'did not start' : `exit code ${code}`);
    const heap = /heap out of memory|Reached heap limit/i.test(stderr)
      ? `: it ran out of its ${MODEL_HOST_HEAP_MB.toLocaleString('en-US')} MiB JavaScript heap (MODEL_HOST_HEAP_MB)`
      : '';
    const loading = this.#info === undefined;
    this.#die({
      error: new ModelError(
        loading ? 'config' : 'bad-response',
        `${this.key.file}: the model host stopped while ${this.#what()} (${how})${heap}`,
      ),
      refuseFile: false,
    });
  }

  #die(death: HostDeath): void {
    if (this.#death !== undefined) return;
    this.#death = death;
    clearTimeout(this.#phaseTimer);
    clearTimeout(this.#abortTimer);
    clearInterval(this.#memoryTimer);
    this.#settleLoad?.reject(death.error);
    const jobs = [...(this.#running === undefined ? [] : [this.#running]), ...this.#queue.splice(0)];
    this.#running = undefined;
    for (const job of jobs) {
      job.detach();
      job.reject(death.error);
    }
    this.#holdProcess();
    for (const listener of this.#deathListeners.splice(0)) listener(death);
  }

  #enqueue(
    request: JobRequest,
    signal: AbortSignal | undefined,
    onText: ((text: string) => void) | undefined,
  ): Promise<CallAnswer | RenderedPrompt> {
    if (this.#death !== undefined) return Promise.reject(this.#death.error);
    if (signal?.aborted === true) return Promise.reject(aborted());
    return new Promise((resolve, reject) => {
      const onAbort = () => this.#cancel(job);
      const job: Job = {
        request,
        signal,
        onText,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
      this.#holdProcess();
    });
  }

  /** A cancelled call: dropped while it waits; told to stop while it runs, and killed if it does not. */
  #cancel(job: Job): void {
    const waiting = this.#queue.indexOf(job);
    if (waiting >= 0) {
      this.#queue.splice(waiting, 1);
      job.detach();
      job.reject(aborted());
      this.#holdProcess();
      return;
    }
    if (this.#running !== job) return;
    this.#send({ type: 'abort', id: job.request.id });
    clearTimeout(this.#abortTimer);
    this.#abortTimer = setTimeout(() => {
      if (this.#running !== job) return;
      this.#running = undefined;
      job.detach();
      job.reject(aborted());
      this.kill(
        new ModelError(
          'timeout',
          `${this.key.file}: a cancelled call did not stop within ${MODEL_ABORT_GRACE_MS.toLocaleString('en-US')} ms (MODEL_ABORT_GRACE_MS)`,
        ),
      );
    }, MODEL_ABORT_GRACE_MS);
  }

  /** Starts the next waiting call when the model is loaded and free. */
  #pump(): void {
    if (this.#death !== undefined || this.#info === undefined || this.#running !== undefined) return;
    const job = this.#queue.shift();
    if (job === undefined) {
      if (this.#retiring) this.kill(new ModelError('aborted', `${this.key.file}: unloaded`));
      return;
    }
    this.#running = job;
    // Until the host announces its first step, the call is held to that step's deadline.
    this.#arm(job.request.type === 'call' ? 'grammar' : 'render');
    this.#send(job.request);
  }

  #finish(id: number, outcome: CallAnswer | RenderedPrompt | ModelError): void {
    const job = this.#running;
    if (job === undefined || job.request.id !== id) return;
    this.#running = undefined;
    clearTimeout(this.#abortTimer);
    this.#idle();
    job.detach();
    if (outcome instanceof ModelError) job.reject(outcome);
    else job.resolve(outcome);
    this.#pump();
    this.#holdProcess();
  }
}
