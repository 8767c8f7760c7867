// Each character's own state at a shared table. A cartridge marks one top-level domain `per_character: true`
// (docs/yare.md, "Several players"); the engine keeps one copy of it per character in `state.players`
// (`players.<character>.hp`), and while a character's event runs the domain *is* that character's copy, so
// rules written for one player (`state.player.hp`) act on whoever acts. The other characters' copies are
// held aside for the whole turn: no prompt, rule, condition or note of the turn can read them (a player's
// private fields never reach another player's turn). A cartridge without such a domain plays as a party
// sharing it, unchanged; a turn without a table binds nothing.
//
// Pure: the turn binds at its start and stores back at its end, and replay does the same from the record.

import {
  type CompiledRules,
  type Dict,
  diffStates,
  isDict,
  newDict,
  perCharacterDomain,
  PLAYERS_KEY,
  type StateChange,
  type Value,
} from '../../core/yare/index.ts';

/** The event input the engine fills with the acting character's key (tools: table-actor.ts). */
export const ACTOR_INPUT = 'actor';

export class Party {
  readonly #domain: string;
  readonly #defaults: Value;
  /** Every character's copy but the bound one's, as stored (or as the turn left them). */
  readonly #aside: Dict;
  #bound: string;

  private constructor(domain: string, defaults: Value, aside: Dict, bound: string) {
    this.#domain = domain;
    this.#defaults = defaults;
    this.#aside = aside;
    this.#bound = bound;
  }

  /**
   * Binds `character`'s copy as the domain and sets the other copies aside; undefined (the state as it is)
   * when the cartridge has no per-character domain.
   */
  static bind(
    rules: CompiledRules,
    state: Dict,
    character: string,
  ): { party: Party; state: Dict } | undefined {
    const domain = perCharacterDomain(rules.schema);
    if (domain === undefined) return undefined;
    const stored = state[PLAYERS_KEY];
    const aside = newDict();
    if (isDict(stored)) for (const key of Object.keys(stored)) aside[key] = stored[key] as Value;
    const defaults = (rules.initialState[domain.name] as Value | undefined) ?? newDict();
    const party = new Party(domain.name, defaults, aside, character);
    return { party, state: party.#take(state, character) };
  }

  /** The character whose copy is the domain now. */
  get bound(): string {
    return this.#bound;
  }

  /** `state` with the bound copy set aside and `character`'s copy as the domain (a round's next actor). */
  rebind(state: Dict, character: string): Dict {
    if (character === this.#bound) return state;
    this.#aside[this.#bound] = state[this.#domain] as Value;
    this.#bound = character;
    return this.#take(state, character);
  }

  /** The state to store: every copy back in `players`, the bound one as the turn left it. */
  store(state: Dict): Dict {
    const players = newDict();
    for (const key of Object.keys(this.#aside).sort()) players[key] = this.#aside[key] as Value;
    players[this.#bound] = state[this.#domain] as Value;
    const out = newDict();
    for (const key of Object.keys(state)) out[key] = state[key] as Value;
    out[PLAYERS_KEY] = players;
    return out;
  }

  #take(state: Dict, character: string): Dict {
    const copy = Object.hasOwn(this.#aside, character) ? this.#aside[character] : this.#defaults;
    delete this.#aside[character];
    const out = newDict();
    for (const key of Object.keys(state)) if (key !== PLAYERS_KEY) out[key] = state[key] as Value;
    out[this.#domain] = copy as Value;
    return out;
  }
}

/**
 * The state as one character sees it between turns: the per-character domain is their own copy (the
 * defaults before they first act), and nobody's copies are listed. The state as it is otherwise.
 */
export function stateFor(rules: CompiledRules, state: Dict, character: string | undefined): Dict {
  const domain = perCharacterDomain(rules.schema);
  if (domain === undefined || character === undefined) return state;
  return Party.bind(rules, state, character)?.state ?? state;
}

/** Each character's copy of the per-character domain, by character (empty without such a domain). */
export function characterCopies(rules: CompiledRules, state: Dict): Map<string, Value> {
  const out = new Map<string, Value>();
  if (perCharacterDomain(rules.schema) === undefined) return out;
  const stored = state[PLAYERS_KEY];
  if (isDict(stored)) for (const key of Object.keys(stored)) out.set(key, stored[key] as Value);
  return out;
}

/** The character a rule call acts for: its `actor` input, when the event declares one. */
export function callActor(
  rules: CompiledRules,
  event: string,
  inputs: Readonly<Record<string, unknown>>,
): string | undefined {
  if (rules.events.get(event)?.inputs.has(ACTOR_INPUT) !== true) return undefined;
  const actor = inputs[ACTOR_INPUT];
  return typeof actor === 'string' && actor !== '' ? actor : undefined;
}

/**
 * A round's changes when several characters acted: the shared state's, then each character's own copy's in
 * the order they acted, each from their own copy before the round (a diff of the first actor's copy before
 * and the last one's after would mix two characters). They are paths of the per-character domain, so the
 * schema's privacy applies to them as to one player's. `before` and `after` are stored states (every copy in
 * `players`). Undefined when the cartridge has no per-character domain or one character acted.
 */
export function roundChanges(
  rules: CompiledRules,
  before: Dict,
  after: Dict,
  characters: readonly string[],
): StateChange[] | undefined {
  const domain = perCharacterDomain(rules.schema);
  const acted = [...new Set(characters)];
  if (domain === undefined || acted.length < 2) return undefined;
  const shared = (state: Dict): Dict => {
    const out = newDict();
    for (const key of Object.keys(state))
      if (key !== PLAYERS_KEY && key !== domain.name) out[key] = state[key] as Value;
    return out;
  };
  const changes = diffStates(shared(before), shared(after));
  for (const character of acted) {
    const was = stateFor(rules, before, character)[domain.name];
    const now = stateFor(rules, after, character)[domain.name];
    changes.push(...diffStates(was, now, [domain.name]));
  }
  return changes;
}
