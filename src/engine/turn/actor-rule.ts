// Who an event's `actor` input is at a shared table (table-actor.ts offers it to the Director; the tool check
// in tools.ts holds every call to it): the one acting character, or one of a round's characters.

import { ACTOR_INPUT } from './party.ts';

/** An `actor` input at a shared table: the one acting character, or one of a round's characters. */
export type ActorRule = { readonly fixed: string } | { readonly among: readonly string[] };

/** The `actor` the event runs with: the one actor, or the round's character the model named. */
export function actorOf(
  rule: ActorRule,
  given: unknown,
): { ok: true; actor: string } | { ok: false; message: string } {
  if ('fixed' in rule) return { ok: true, actor: rule.fixed };
  const named = typeof given === 'string' ? given.trim().toLowerCase() : '';
  const found = rule.among.find((character) => character.toLowerCase() === named);
  if (found !== undefined) return { ok: true, actor: found };
  return {
    ok: false,
    message: `input '${ACTOR_INPUT}' must name whose action this is: one of ${rule.among.join(', ')}`,
  };
}
