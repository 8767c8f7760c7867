// Idioms the English lexicon lacks: phrases whose meaning is none of their words' ("finish it off" is to
// kill, "run for it" is to flee), kept here as data beside the lexicon (./wordnet.ts) and rewritten to
// their plain verb before the offline matcher compares words (src/engine/turn/offline/choose.ts), so
// they count as that verb said. Only idioms WordNet has no sense for belong here; add a row, not code.
// Bounded: each word of a line is tried against each row once, and a slot takes at most MAX_SLOT_WORDS.

/** One idiom: its words (`*` marks a slot for what it is done to, kept in the rewrite) and its verb. */
export interface Idiom {
  readonly words: readonly string[];
  readonly verb: string;
}

function idiom(phrase: string, verb: string): Idiom {
  return { words: phrase.split(' '), verb };
}

export const IDIOMS: readonly Idiom[] = [
  idiom('finish * off', 'kill'),
  idiom('finish off', 'kill'),
  idiom('make a run for it', 'flee'),
  idiom('make a break for it', 'flee'),
  idiom('run for it', 'flee'),
  idiom('leg it', 'flee'),
  idiom('take to your heels', 'flee'),
];

/** Words a slot may take ("finish the old goblin off"). */
export const MAX_SLOT_WORDS = 3;

/** How many words of `words` from `start` the idiom spans, and what its slot holds; undefined if none. */
function matchAt(words: readonly string[], start: number, row: Idiom) {
  let at = start;
  let slot: string[] = [];
  for (let k = 0; k < row.words.length; k++) {
    const part = row.words[k]!;
    if (part !== '*') {
      if (words[at] !== part) return undefined;
      at++;
      continue;
    }
    // The slot ends where the idiom's next word is found, within MAX_SLOT_WORDS words.
    const next = row.words[k + 1];
    let end = at + 1;
    while (end < words.length && end - at <= MAX_SLOT_WORDS && words[end] !== next) end++;
    if (end >= words.length || end - at > MAX_SLOT_WORDS) return undefined;
    slot = words.slice(at, end);
    at = end;
  }
  return { length: at - start, slot };
}

/** The words with each idiom replaced by its verb and what its slot held ("finish it off" → "kill it"). */
export function rewriteIdioms(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let found: { length: number; slot: string[]; verb: string } | undefined;
    for (const row of IDIOMS) {
      const m = matchAt(words, i, row);
      if (m !== undefined) {
        found = { ...m, verb: row.verb };
        break;
      }
    }
    if (found === undefined) {
      out.push(words[i]!);
      i++;
      continue;
    }
    out.push(found.verb, ...found.slot);
    i += found.length;
  }
  return out;
}
