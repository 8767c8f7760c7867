// The settings of a local GGUF model (docs/models.md, "Local models"): the file, the CPU threads, the
// context size, the sampling seed and the memory of its host process, read from the environment with their
// limits. Pure: the file is
// checked by model-file.ts, the package found by locate.ts.

import { ModelError } from '../errors.ts';

/** The node-llama-cpp release this adapter is written and tested against. */
export const LLAMA_CPP_VERSION = '3.21.1';

/** Threads a model may be given (MNESOS_MODEL_THREADS). */
export const MAX_MODEL_THREADS = 64;
/** Threads used by default at most, however many cores the machine has. */
export const MAX_DEFAULT_THREADS = 8;
/** Context window, in tokens (MNESOS_MODEL_CONTEXT). */
export const MIN_MODEL_CONTEXT = 256;
export const MAX_MODEL_CONTEXT = 131_072;
/** The context used when none is set: the model's training context, capped here. */
export const DEFAULT_MODEL_CONTEXT = 8_192;
/** A model file larger than this is refused (a 70B model at 4 bits is about 40 GB). */
export const MAX_MODEL_FILE_BYTES = 64 * 1024 ** 3;
/** Models kept loaded at once; loading another unloads the least recently used. */
export const MAX_LOADED_MODELS = 2;
/** Tokens a call may generate when the request sets no `maxOutputTokens`. */
export const DEFAULT_LOCAL_OUTPUT_TOKENS = 1_024;
/** Sampling temperature when the request sets none. */
export const DEFAULT_LOCAL_TEMPERATURE = 0.7;
/** The largest seed llama.cpp takes (a u32). */
export const MAX_MODEL_SEED = 2 ** 32 - 1;
/**
 * Anonymous memory (MiB) a model's host process may use (MNESOS_MODEL_MEMORY_MB): the context's KV cache,
 * llama.cpp's buffers and the host's JavaScript. The weights are mapped from the file and not counted.
 */
export const DEFAULT_MODEL_MEMORY_MB = 8_192;
export const MIN_MODEL_MEMORY_MB = 256;
export const MAX_MODEL_MEMORY_MB = 1_048_576;

export interface LocalModelOptions {
  /** CPU threads of generation (llama.cpp threads spin while they wait, so more than the free cores is slower). */
  readonly threads: number;
  /** Context window in tokens; undefined: the model's training context, at most DEFAULT_MODEL_CONTEXT. */
  readonly contextSize?: number;
  /** Sampling seed of every call; undefined: a fresh seed per call. */
  readonly seed?: number;
  /** The host process's memory limit in MiB; undefined: DEFAULT_MODEL_MEMORY_MB. */
  readonly memoryMb?: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Threads when none are set: one core is left to the engine (the event loop, tokenising, the store), since
 * llama.cpp's threads spin-wait and collapse when they outnumber the free cores; at least 1, at most
 * MAX_DEFAULT_THREADS. A 2-core machine gets 1, a 4-core one 3.
 */
export function defaultThreads(cores: number): number {
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, Math.floor(cores) - 1));
}

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, min: number, max: number, limit: string): number | undefined {
  const text = read(env, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new ModelError('config', `${name}: ${JSON.stringify(text)} is not an integer`);
  }
  if (value < min || value > max) {
    throw new ModelError(
      'config',
      `${name}: ${value} is out of range ${min}..${max} (the limit is ${limit})`,
    );
  }
  return value;
}

/**
 * MNESOS_MODEL_THREADS, MNESOS_MODEL_CONTEXT, MNESOS_MODEL_SEED and MNESOS_MODEL_MEMORY_MB, checked; `cores`
 * gives the default threads.
 */
export function readLocalModelOptions(env: Env, cores: number): LocalModelOptions {
  const threads = integer(env, 'MNESOS_MODEL_THREADS', 1, MAX_MODEL_THREADS, 'MAX_MODEL_THREADS');
  const contextSize = integer(
    env,
    'MNESOS_MODEL_CONTEXT',
    MIN_MODEL_CONTEXT,
    MAX_MODEL_CONTEXT,
    'MAX_MODEL_CONTEXT',
  );
  const seed = integer(env, 'MNESOS_MODEL_SEED', 0, MAX_MODEL_SEED, 'MAX_MODEL_SEED');
  const memoryMb = integer(
    env,
    'MNESOS_MODEL_MEMORY_MB',
    MIN_MODEL_MEMORY_MB,
    MAX_MODEL_MEMORY_MB,
    'MAX_MODEL_MEMORY_MB',
  );
  return {
    threads: threads ?? defaultThreads(cores),
    ...(contextSize === undefined ? {} : { contextSize }),
    ...(seed === undefined ? {} : { seed }),
    ...(memoryMb === undefined ? {} : { memoryMb }),
  };
}

/** The model configuration of a local file (config.ts builds it from MNESOS_MODEL_FILE). */
export interface LocalModelConfig {
  readonly provider: 'file';
  /** The model file as configured (checked by model-file.ts when the models are made). */
  readonly file: string;
  /** Which setting named the file, for messages (`MNESOS_MODEL_FILE`, `modelFile`). */
  readonly source: string;
  readonly local: LocalModelOptions;
  /** MNESOS_LLAMA_CPP_DIR when set (locate.ts). */
  readonly llamaCppDir?: string;
}
