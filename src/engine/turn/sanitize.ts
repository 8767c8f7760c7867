// The turn's own inputs through the one prompt sanitiser (src/core/text-policy.ts, sanitizeForPrompt): the
// persona's fields, like the player's words and the chat front end's context, reach prompts neutralised.

import { sanitizeForPrompt } from '../../core/text-policy.ts';
import type { TurnPersona } from './types.ts';

/** The persona with every text field neutralised (names, pronouns, appearance, background, personality). */
export function neutralPersona(persona: TurnPersona | undefined): TurnPersona | undefined {
  if (persona === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(persona))
    out[key] = typeof value === 'string' ? sanitizeForPrompt(value) : value;
  return out as unknown as TurnPersona;
}
