// The messages between the request thread and the generator's worker (runner.ts ⇄ worker.ts). Everything
// here is plain data (structured clone): a generation's job and its small progress events go one way, its
// result the other; a model the worker cannot build itself (given by code, or a local model file this
// process loads) is relayed, one call and its stream parts at a time.

import type {
  ModelErrorKind,
  ModelRequest,
  ModelStreamPart,
  OnlineModelConfig,
} from '../../../adapters/llm/index.ts';
import type { DraftFiles } from '../../../tools/authoring/builder/index.ts';
import type { GenerateStreamEvent, GeneratorFinding } from '../../contract/index.ts';

/**
 * The niceness the worker's thread runs at (Linux: a thread's own; 0 is normal, 19 the lowest). A generation
 * is long work nobody waits on by the millisecond; under a full CPU the request thread, which answers
 * everyone, goes first.
 */
export const GENERATE_WORKER_NICE = 10;

/** What one generation is asked: the route's body, checked. */
export interface GenerationJob {
  readonly requirements: string;
  readonly rounds?: number;
  readonly existing?: DraftFiles;
  /** The files of the draft the result is saved into: the generated files replace theirs (`draftFiles`). */
  readonly base?: DraftFiles;
}

/** An online provider's config as it crosses to the worker (the API key as text: it stays in the process). */
export type WireModelConfig = Omit<OnlineModelConfig, 'apiKey'> & { readonly apiKey?: string };

/** The model a generation uses: built in the worker from a config, or relayed to the request thread. */
export type WireModel =
  | { readonly kind: 'config'; readonly config: WireModelConfig; readonly temperature?: number }
  | { readonly kind: 'relay'; readonly modelId: string };

/** A model request without its signal (a relayed call is cancelled by a `model-abort` message). */
export type WireModelRequest = Omit<ModelRequest, 'signal'>;

/** A model error as it crosses threads (ModelError is rebuilt from it). */
export interface WireModelError {
  readonly kind: ModelErrorKind;
  readonly message: string;
  readonly status?: number;
  readonly modelId?: string;
}

/** What ended a generation early, as the stream's `error` event says it. */
export interface GenerationFailure {
  readonly code: string;
  readonly message: string;
}

/** A generation's outcome: what the draft is saved with and what `done` says. */
export interface GenerationResult {
  readonly ok: boolean;
  readonly files: DraftFiles;
  /**
   * The files the draft is saved with (`base` with `files` over it), as the JSON text the store keeps: made
   * here, in the worker, so the request thread neither serialises nor parses the draft's megabyte.
   */
  readonly draftFilesJson: string;
  /** The first MAX_LISTED_FINDINGS of each; the counts are whole. */
  readonly errors: GeneratorFinding[];
  readonly errorCount: number;
  readonly warnings: GeneratorFinding[];
  readonly warningCount: number;
  readonly rounds: number;
  readonly transcript: string;
  /** The generated rules' bot_name when it is a plain short line (the new draft's name). */
  readonly botName?: string;
}

/** The progress events a generation streams before its result. */
export type ProgressEvent = Extract<GenerateStreamEvent, { event: 'round' | 'answered' | 'checked' }>;

export type ToWorker =
  | { readonly type: 'start'; readonly id: number; readonly job: GenerationJob; readonly model: WireModel }
  | { readonly type: 'abort'; readonly id: number; readonly reason: string }
  | {
      readonly type: 'model-part';
      readonly id: number;
      readonly call: number;
      readonly part: ModelStreamPart;
    }
  | { readonly type: 'model-end'; readonly id: number; readonly call: number }
  | {
      readonly type: 'model-error';
      readonly id: number;
      readonly call: number;
      readonly error: WireModelError;
    };

export type FromWorker =
  /** The worker has loaded and listens. */
  | { readonly type: 'ready' }
  | { readonly type: 'event'; readonly id: number; readonly event: ProgressEvent }
  | { readonly type: 'result'; readonly id: number; readonly result: GenerationResult }
  | { readonly type: 'failed'; readonly id: number; readonly failure: GenerationFailure }
  | {
      readonly type: 'model-call';
      readonly id: number;
      readonly call: number;
      readonly request: WireModelRequest;
    }
  | { readonly type: 'model-abort'; readonly id: number; readonly call: number };
