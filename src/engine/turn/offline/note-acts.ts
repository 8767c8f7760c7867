// What an event's own notes say the player does: "Player rents a room for 5 gold." → rent (a room),
// "Player casts Heal!" → cast (heal), "Player prays at a bleak ruined shrine." → pray (shrine). A cartridge
// written without `intents:` still says in its notes what its events are about; the offline matcher
// (choose.ts) weighs these acts as it weighs an intent phrase's verb and words. Read from the notes' fixed
// text only (placeholders left out), in the event's own steps (not the events it calls). Pure.

import type { EventDef, Step } from '../../../core/yare/index.ts';
import { MONEY_NAMES } from './place.ts';
import { allWords, isNameVerb, isNoun, STOP_WORDS, verbLemma } from './words.ts';

export interface NoteAct {
  /** The verb's base form ("rent"). */
  readonly verb: string;
  /** The first noun after it that is not money ("room"), when there is one. */
  readonly object: string | undefined;
}

/** Words that name the player as the one who acts in a note. */
const PLAYER_WORDS = new Set(['player', 'you', 'hero', 'adventurer', 'hunter']);
/** Words between the player and the verb that do not change the act ("successfully fled", "tries to rest"). */
const SKIPPED = new Set(['tries', 'try', 'attempts', 'attempted', 'attempt', 'to', 'then', 'also', 'now']);
/** Acts kept per event (a note-heavy event cannot make matching slow). */
export const MAX_NOTE_ACTS = 16;
/** Words looked at after the player's word for the verb, and after the verb for its object. */
const VERB_WINDOW = 3;
const OBJECT_WINDOW = 6;

function noteTexts(steps: readonly Step[], out: string[]): void {
  for (const step of steps) {
    if (out.length >= MAX_NOTE_ACTS * 2) return;
    switch (step.kind) {
      case 'note':
        out.push(step.parts.map((p) => (typeof p === 'string' ? p : ' ')).join(''));
        break;
      case 'branch':
        for (const arm of step.arms) noteTexts(arm.steps, out);
        break;
      case 'foreach':
        noteTexts(step.steps, out);
        break;
      default:
        break;
    }
  }
}

function actAfter(words: readonly string[], from: number): NoteAct | undefined {
  for (let i = from; i < Math.min(words.length, from + VERB_WINDOW); i++) {
    const word = words[i]!;
    if (SKIPPED.has(word) || word.endsWith('ly')) continue;
    if (!isNameVerb(word)) return undefined;
    const object = words
      .slice(i + 1, i + 1 + OBJECT_WINDOW)
      .find(
        (w) => !STOP_WORDS.has(w) && w.length > 2 && !MONEY_NAMES.includes(w) && isNoun(w) && !isNameVerb(w),
      );
    return { verb: verbLemma(word), object };
  }
  return undefined;
}

const actsOf = new WeakMap<EventDef, readonly NoteAct[]>();

/** The acts an event's notes give the player, each verb once (cached per compiled event). */
export function noteActs(event: EventDef): readonly NoteAct[] {
  const cached = actsOf.get(event);
  if (cached !== undefined) return cached;
  const texts: string[] = [];
  noteTexts(event.steps, texts);
  const acts: NoteAct[] = [];
  for (const text of texts) {
    const words = allWords(text);
    for (let i = 0; i < words.length && acts.length < MAX_NOTE_ACTS; i++) {
      if (!PLAYER_WORDS.has(words[i]!)) continue;
      const act = actAfter(words, i + 1);
      if (act !== undefined && !acts.some((a) => a.verb === act.verb && a.object === act.object))
        acts.push(act);
    }
  }
  actsOf.set(event, acts);
  return acts;
}
