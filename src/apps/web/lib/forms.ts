// Checks of what the player types in forms, before anything is sent. The server checks again; these give
// the message next to the field instead of after a round trip.

import { baseUrlProblem } from '../../../core/base-url-policy.ts';
import { MAX_BASE_URL_CHARS, MAX_TEMPERATURE, MIN_TEMPERATURE } from '../../../core/model-settings/index.ts';

/** Largest seed the new-game form accepts: the session layer's MAX_DRAWN_SEED (2^31 − 1). */
export const MAX_FORM_SEED = 2 ** 31 - 1;
// The settings' limits are the server's own (core/model-settings, bundled).
export {
  MAX_BASE_URL_CHARS,
  MAX_MODEL_FILE_PATH_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
} from '../../../core/model-settings/index.ts';
/** Characters of a turn's text shown in a tree row. */
export const TREE_LABEL_CHARS = 60;

/** '' when the seed field is fine (empty means "draw one"), else what is wrong. */
export function seedError(text: string): string {
  if (text.trim() === '') return '';
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= MAX_FORM_SEED
    ? ''
    : `the seed must be a whole number from 0 to ${MAX_FORM_SEED}`;
}

export function temperatureError(value: number | undefined): string {
  if (value === undefined) return '';
  return Number.isFinite(value) && value >= MIN_TEMPERATURE && value <= MAX_TEMPERATURE
    ? ''
    : `temperature must be from ${MIN_TEMPERATURE} to ${MAX_TEMPERATURE}`;
}

/** '' when the base URL field is fine (empty means "the server's"), else what is wrong. */
export function baseUrlError(text: string | undefined): string {
  const value = text?.trim() ?? '';
  if (value === '') return '';
  // The server's policy (one module, bundled), worded for the field.
  const problem = baseUrlProblem(value, { allowCredentials: false });
  switch (problem?.kind) {
    case undefined:
      return '';
    case 'too-long':
      return `the base URL must be at most ${MAX_BASE_URL_CHARS} characters`;
    case 'not-a-url':
      return 'the base URL must be a URL like http://localhost:11434/v1';
    case 'not-http':
      return 'the base URL must start with http:// or https://';
    case 'credentials':
      return 'the base URL must not contain a user name or password (keys stay on the server)';
  }
}

/** A turn's text cut for a tree row (the full text goes in the row's title). */
export function treeLabel(text: string): string {
  return text.length > TREE_LABEL_CHARS ? `${text.slice(0, TREE_LABEL_CHARS)}…` : text;
}
