// The acting character: an event input that names who acts (`attacker`, `actor`, `who`, `source`, …) and
// that the player's words leave open is the player, as a game master would read "combat strike" typed
// plainly. Its value is the one the rules use for the player: an enum value that names the player
// ("player", "hero"), else the name of the state's player group (`player:` in `state_schema`). Pure.

import type { CompiledRules, InputSpec } from '../../../core/yare/index.ts';
import { PLAYER_DOMAINS } from './place.ts';

/** Input names that say who acts. */
const ACTOR_INPUTS: ReadonlySet<string> = new Set([
  'attacker',
  'actor',
  'who',
  'source',
  'caster',
  'user',
  'agent',
  'acting',
  'character',
]);

/** Whether an input names the one who acts. */
export function isActorInput(spec: InputSpec): boolean {
  return ACTOR_INPUTS.has(spec.name.toLowerCase());
}

/** The value that means the player for this input, or undefined when the rules name no player. */
export function playerValue(rules: CompiledRules, spec: InputSpec): string | undefined {
  for (const value of spec.enum ?? [])
    if (typeof value === 'string' && PLAYER_DOMAINS.includes(value.toLowerCase())) return value;
  if (spec.enum !== undefined) return undefined;
  for (const domain of PLAYER_DOMAINS)
    if (rules.schema.children.get(domain)?.kind === 'domain') return domain;
  return undefined;
}

/**
 * `args` with every actor input the player left open, and that has no default, set to the player; other
 * inputs untouched.
 */
export function withPlayerAsActor(
  rules: CompiledRules,
  inputs: readonly InputSpec[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  for (const spec of inputs) {
    if (Object.hasOwn(args, spec.name) || spec.hasDefault || !isActorInput(spec)) continue;
    const value = playerValue(rules, spec);
    if (value !== undefined) args[spec.name] = value;
  }
  return args;
}
