// The bounds of a model host (host.ts): how long each step of loading a file and of a call may take, how
// much memory the host process may use, and how much CPU one render of a chat template may cost at load.
// Each protects the server from what a model file can make node-llama-cpp do (docs/deploy.md, "Round
// four: model files"); past any of them the host process is killed and the error names the limit.

import type { HostPhase } from './host-protocol.ts';

export interface PhaseDeadline {
  /** Wall-clock milliseconds the step may take. */
  readonly ms: number;
  /** The step, as a message says it. */
  readonly what: string;
  /** Past the deadline, the file itself is refused from then on (its template is what is slow). */
  readonly refusesFile: boolean;
}

export type PhaseDeadlines = Readonly<Record<HostPhase, PhaseDeadline>>;

/**
 * One deadline per step. The slow ones a file cannot make slower than its size: loading weights from a
 * slow disk, making the context. The template steps are short: an ordinary template renders in well under
 * a millisecond, and node-llama-cpp renders it dozens of times to choose a chat wrapper.
 */
export const PHASE_DEADLINES: PhaseDeadlines = {
  boot: { ms: 60_000, what: 'starting the model host', refusesFile: false },
  header: { ms: 30_000, what: 'reading the GGUF header', refusesFile: true },
  template: {
    ms: 10_000,
    what: 'rendering its chat template (tokenizer.chat_template) at load',
    refusesFile: true,
  },
  backend: { ms: 60_000, what: 'starting llama.cpp', refusesFile: false },
  weights: { ms: 300_000, what: 'loading the weights', refusesFile: false },
  context: { ms: 120_000, what: 'making the context', refusesFile: false },
  'chat-wrapper': {
    ms: 30_000,
    what: 'choosing a chat wrapper from its chat template (tokenizer.chat_template)',
    refusesFile: true,
  },
  grammar: { ms: 30_000, what: 'building the grammar', refusesFile: false },
  render: {
    ms: 10_000,
    what: 'rendering a prompt with its chat template (tokenizer.chat_template)',
    refusesFile: true,
  },
  generate: { ms: 600_000, what: 'generating', refusesFile: false },
};

/**
 * CPU milliseconds one render of the chat template may take at load (a short conversation, the cheaper of
 * two renders). An ordinary template takes under 1 ms; a template that loops 300,000 times takes 50 to
 * 200 ms and would cost that on every prompt, dozens of times while node-llama-cpp chooses its wrapper.
 * CPU time, not wall time, so a busy machine does not refuse a good template.
 */
export const MAX_TEMPLATE_RENDER_CPU_MS = 25;

/** The host's JavaScript heap (node's --max-old-space-size): node-llama-cpp reads metadata into it. */
export const MODEL_HOST_HEAP_MB = 1_536;

/** How often the server reads the host's memory use (Linux: /proc/<pid>/status, RssAnon). */
export const MODEL_MEMORY_POLL_MS = 200;

/**
 * The host's scheduling priority (nice): lower than the server's, so llama.cpp's threads, which spin while
 * they wait, never take a core from the event loop that answers other clients.
 */
export const MODEL_HOST_NICENESS = 10;

/** Milliseconds a cancelled call has to stop before its host is killed. */
export const MODEL_ABORT_GRACE_MS = 5_000;

/** Bytes of the host's standard error kept for messages (the last ones). */
export const MODEL_HOST_STDERR_BYTES = 4_096;
