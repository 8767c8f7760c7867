// The model file an operator (MNESOS_MODEL_FILE) or a user's settings name: a regular, readable `.gguf`
// file within the size limit that starts with the GGUF magic, checked before anything is loaded so a typo
// is one clear line and not a native crash.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { errnoCode, isNotFound } from '../../../core/errno.ts';
import { ModelError } from '../errors.ts';
import { MAX_MODEL_FILE_BYTES } from './options.ts';

/** "GGUF" in the first four bytes (the GGUF specification in the ggml repository). */
const GGUF_MAGIC = 'GGUF';
/** Magic, version, tensor count and key/value count: a file shorter than this cannot be a model. */
const GGUF_HEADER_BYTES = 24;

export interface ModelFileCheck {
  /** Names the setting in messages (`MNESOS_MODEL_FILE`, `modelFile`). */
  readonly source: string;
  /** Relative paths are refused (a user's setting must not depend on the server's working folder). */
  readonly requireAbsolute?: boolean;
  readonly maxBytes?: number;
}

/** Why `path` is not a usable model file, or undefined. Reads at most four bytes. */
export function modelFileProblem(path: string, check: ModelFileCheck): string | undefined {
  const max = check.maxBytes ?? MAX_MODEL_FILE_BYTES;
  if (path.trim() === '') return 'is empty';
  if (path.includes('\0')) return 'contains a NUL character';
  if (check.requireAbsolute === true && !isAbsolute(path)) return `${path}: must be an absolute path`;
  if (!path.toLowerCase().endsWith('.gguf')) return `${path}: is not a .gguf file`;
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `${path}: is not a regular file`;
    size = stat.size;
  } catch (error) {
    if (isNotFound(error)) return `${path}: not found`;
    const code = errnoCode(error);
    if (code !== undefined) return `${path}: cannot be read (${code})`;
    throw error;
  }
  if (size > max) return `${path}: is ${size} bytes, the limit is ${max} (MAX_MODEL_FILE_BYTES)`;
  if (size < GGUF_HEADER_BYTES) return `${path}: is ${size} bytes, too short for a GGUF model`;
  const head = Buffer.alloc(GGUF_MAGIC.length);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, head.length, 0);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== undefined) return `${path}: cannot be read (${code})`;
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.toString('latin1') !== GGUF_MAGIC)
    return `${path}: does not start with the GGUF magic (not a GGUF model)`;
  return undefined;
}

/** The model file as an absolute path, or a `config` ModelError naming the setting and the problem. */
export function checkModelFile(path: string, check: ModelFileCheck): string {
  const problem = modelFileProblem(path, check);
  if (problem !== undefined) throw new ModelError('config', `${check.source}: ${problem}`);
  return resolve(path);
}
