// A small file the operator names (the model config, a model script): size-checked before it is read
// whole. Every problem is a ModelError of kind `config` naming the path; an error without an errno code is
// a bug and surfaces as itself.

import { readFileSync, statSync } from 'node:fs';
import { errnoCode, isNotFound } from '../../core/errno.ts';
import { ModelError } from './errors.ts';

/** `what` names the file in messages (`config file`); `limitName` is the constant behind `maxBytes`. */
export function readSmallFile(path: string, what: string, maxBytes: number, limitName: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if (isNotFound(error)) throw new ModelError('config', `${path}: ${what} not found`);
    const code = errnoCode(error);
    if (code !== undefined) throw new ModelError('config', `${path}: ${what} cannot be read (${code})`);
    throw error;
  }
  if (size > maxBytes) {
    throw new ModelError(
      'config',
      `${path}: ${what} is ${size} bytes, the limit is ${maxBytes} (${limitName})`,
    );
  }
  return readFileSync(path, 'utf8');
}
