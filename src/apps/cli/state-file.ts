// Reading a `--state file.json`: a game state as JSON, laid over the cartridge's initial state so a
// file may give only the fields that matter; a full state, as `run-event --json` prints it, reads back as
// exactly that state (src/core/yare/starting-state.ts).

import { readFileSync } from 'node:fs';
import { type CompiledRules, type Dict, startingState } from '../../core/yare/index.ts';
import { UserError } from './user-error.ts';

/** State files are JSON read whole; the cap keeps a mistaken path from filling memory. */
export const MAX_STATE_FILE_BYTES = 4 * 1024 * 1024;

export function readStateFile(path: string | undefined, rules: CompiledRules): Dict {
  if (path === undefined) return startingState(rules, undefined);
  let text: string;
  try {
    const buf = readFileSync(path);
    if (buf.byteLength > MAX_STATE_FILE_BYTES) {
      throw new UserError(
        `${path}: state file is ${buf.byteLength} bytes, over the ${MAX_STATE_FILE_BYTES}-byte limit.`,
      );
    }
    text = buf.toString('utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${path}: cannot read state file (${(error as Error).message}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path}: not valid JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UserError(`${path}: a state file must hold a JSON object.`);
  try {
    return startingState(rules, parsed);
  } catch (error) {
    throw new UserError(`${path}: ${(error as Error).message}.`);
  }
}
