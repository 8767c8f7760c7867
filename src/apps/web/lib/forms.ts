// Checks of what the player types in forms, before anything is sent. The server checks again; these give
// the message next to the field instead of after a round trip.

import { baseUrlProblem, MAX_BASE_URL_CHARS } from '../../../core/base-url-policy.ts';

/** Largest seed the new-game form accepts: the session layer's MAX_DRAWN_SEED (2^31 − 1). */
export const MAX_FORM_SEED = 2 ** 31 - 1;
export const MIN_TEMPERATURE = 0;
export const MAX_TEMPERATURE = 2;
/** Characters of a model name and of a base URL: the server's limits (checked equal by test/web/forms.test.ts). */
export const MAX_MODEL_NAME_CHARS = 200;
/** Characters of a local model file's path: the server's MAX_MODEL_FILE_PATH_CHARS (test/llm/local-gguf-settings.test.ts). */
export const MAX_MODEL_FILE_PATH_CHARS = 4_096;
export { MAX_BASE_URL_CHARS };
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
