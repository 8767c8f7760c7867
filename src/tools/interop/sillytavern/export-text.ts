// Cartridge text as SillyTavern shows it. The engine's persona macros: `{{user}}` is SillyTavern's own (its
// persona's name); the pronoun macros `{{sub}}`, `{{obj}}`, `{{poss}}`, `{{poss_obj}}` are not, so they
// become the default persona's pronouns (they/them/their/theirs) — the words the game itself uses when no
// persona is chosen, so the card's greeting and the game's agree (docs/sillytavern.md). A cartridge's
// Markdown is hard-wrapped; SillyTavern shows every line break, so a paragraph's lines are joined (lists,
// quotes, headings and tables keep theirs). An imported card's own fields go back exactly as they came.

import { DEFAULT_PERSONA } from '../../../core/cartridge/index.ts';

const PRONOUN = /\{\{(sub|obj|poss|poss_obj)\}\}/gi;
/** A line that Markdown reads as a block of its own (its line break matters). */
const BLOCK_LINE = /^\s*(?:[-*+>#|]|\d+[.)]\s|```|<)/;

export function pronounsResolved(text: string): string {
  return text.replace(PRONOUN, (_all, name: string) => {
    switch (name.toLowerCase()) {
      case 'sub':
        return DEFAULT_PERSONA.pronoun_sub;
      case 'obj':
        return DEFAULT_PERSONA.pronoun_obj;
      case 'poss':
        return DEFAULT_PERSONA.pronoun_poss;
      default:
        return DEFAULT_PERSONA.pronoun_poss_obj;
    }
  });
}

/** Each paragraph's hard-wrapped lines joined with a space; blank lines and block lines kept. */
export function reflowed(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const previous = out.at(-1);
    const joins =
      previous !== undefined &&
      previous.trim() !== '' &&
      line.trim() !== '' &&
      !BLOCK_LINE.test(line) &&
      !BLOCK_LINE.test(previous) &&
      !previous.endsWith('  ');
    if (joins) out[out.length - 1] = `${previous.trimEnd()} ${line.trim()}`;
    else out.push(line);
  }
  return out.join('\n');
}

/** A cartridge text for a card field: pronoun macros resolved, hard wraps joined. */
export function cardText(text: string): string {
  return reflowed(pronounsResolved(text)).trim();
}
