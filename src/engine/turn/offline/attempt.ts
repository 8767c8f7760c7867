// A deed the rules have no event for, done to a thing one costly event is about: "kick the gate" where the
// only event about the gate picks its lock. Nothing is spent and no question is asked (the issue allows one
// only between two costly events): the player is told that nothing comes of it, what is known of the thing,
// and what the rules do let them do with it. When the cartridge's notes say the deed does it ("Player
// kicks the door open"), the matcher runs that event instead (note-acts.ts). Pure.

import type { EventDef } from '../../../core/yare/index.ts';

/** How the player may ask for the event: its first intent phrase, else its name as words. */
function askedAs(event: EventDef): string {
  const phrase = event.intents.find((p) => p.trim() !== '');
  return phrase?.trim() ?? event.name.replaceAll('_', ' ');
}

/**
 * The answer to a deed that changes nothing: `known` is what examining the thing tells (undefined when
 * nothing is known of it).
 */
export function attemptAnswer(event: EventDef, known: string | undefined): string {
  const label = event.name.replaceAll('_', ' ');
  const can = `(What the rules let you do with it: ${label} — say “${askedAs(event)}”, or type /${event.name}.)`;
  // A sentence of its own: "side gate: A low iron gate…" (a lore section's name) starts with a capital.
  const told = known === undefined ? undefined : known.charAt(0).toUpperCase() + known.slice(1);
  return ['Nothing comes of that.', told, can].filter((part) => part !== undefined).join(' ');
}
