// `turn --interaction '{"minigame_id":…,"status":…,"metrics":…,"data":…}'`: parsed here as JSON (a
// syntax error is a usage error, exit 2); the turn engine checks the fields against the pending mini-game.

import { InvalidArgumentError } from 'commander';
import { MAX_INTERACTION_ARG_CHARS } from './limits.ts';

export function parseInteractionArg(raw: string): Record<string, unknown> {
  if (raw.length > MAX_INTERACTION_ARG_CHARS) {
    throw new InvalidArgumentError(
      `the interaction is ${raw.length} characters, over the limit of ${MAX_INTERACTION_ARG_CHARS} (MAX_INTERACTION_ARG_CHARS)`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new InvalidArgumentError(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError('expected a JSON object like {"minigame_id": "…", "status": "completed"}');
  }
  return value as Record<string, unknown>;
}
