// What the cartridge says each value of an input does: Lanternmere's `spell` input is described as "flare
// burns the foe (4 mana), mend heals the player (3 mana), glimmer makes light (1 mana)", so "burn it with
// flare" names cast_spell's flare by the cartridge's own words, though "burn" is none of the event's verbs.
// The offline matcher (choose.ts) takes a value said with a verb of its own clause as a plain request. Read
// from the inputs' descriptions and the event's description, clause by clause. Pure, bounded by
// MAX_OPTION_DEEDS and the descriptions' length (the checker bounds them).

import { type EventDef, type InputSpec, toStateValue } from '../../../core/yare/index.ts';
import { allWords, contentWords, isNameVerb } from './words.ts';

export interface OptionDeed {
  /** The value's words ("flare"). */
  readonly option: readonly string[];
  /** The verbs its clause says it does ("burns"), as written. */
  readonly verbs: readonly string[];
  /** Its clause as written ("flare burns the foe (4 mana)"): what examining the value tells. */
  readonly told: string;
}

/** Values read per event (an enum of hundreds cannot make matching slow). */
export const MAX_OPTION_DEEDS = 64;

/** Clauses of a description: "flare burns the foe (4 mana), mend heals the player (3 mana)". */
function clauses(text: string): string[] {
  return text
    .split(/[,;:]|\.(?:\s|$)|\s[—–-]\s/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

function containsWords(words: readonly string[], part: readonly string[]): boolean {
  for (let start = 0; start + part.length <= words.length; start++)
    if (part.every((w, k) => words[start + k] === w)) return true;
  return false;
}

function enumValues(spec: InputSpec): string[] {
  return (spec.enum ?? []).map((v) => toStateValue(v)).filter((v): v is string => typeof v === 'string');
}

const deedsOfEvents = new WeakMap<EventDef, readonly OptionDeed[]>();

/** Each value of the event's inputs with the verbs the cartridge's descriptions say it does (remembered). */
export function optionDeeds(event: EventDef): readonly OptionDeed[] {
  let deeds = deedsOfEvents.get(event);
  if (deeds === undefined) {
    deeds = readDeeds(event);
    deedsOfEvents.set(event, deeds);
  }
  return deeds;
}

function readDeeds(event: EventDef): OptionDeed[] {
  const out: OptionDeed[] = [];
  for (const spec of event.inputList) {
    const told = [...clauses(spec.description ?? ''), ...clauses(event.description)];
    const toldWords = told.map(allWords);
    for (const value of enumValues(spec)) {
      if (out.length >= MAX_OPTION_DEEDS) return out;
      const option = allWords(value);
      const at = option.length === 0 ? -1 : toldWords.findIndex((clause) => containsWords(clause, option));
      if (at < 0) continue;
      const verbs = contentWords(told[at]!).filter((w) => !option.includes(w) && isNameVerb(w));
      if (verbs.length > 0) out.push({ option, verbs: [...new Set(verbs)], told: told[at]! });
    }
  }
  return out;
}
