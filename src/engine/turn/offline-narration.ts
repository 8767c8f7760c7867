// The offline narrator: with no model, the story of a turn is told from its notes. Each note is rendered
// through the public view of the state (offline-notes.ts), its `[SYSTEM LOG: …]` wrapper and its
// narrator-only text are removed — `((…))` marked by the author, and unmarked sentences that give the
// Narrator an order ("Describe the arrival.", "Remind the player …", "List them plainly.") — and "the
// player" becomes the persona's name. No banner, no field dump: the interface shows that play is offline,
// and what changed is shown from the turn record beside the prose.

import type { Persona } from '../../core/cartridge/index.ts';
import type { CompiledRules } from '../../core/yare/index.ts';
import { publicNote } from './offline-notes.ts';

/** Removes text the author marked for the Narrator model only: `((` to the next `))` (no nesting). */
function withoutNarratorOnly(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('((', from);
    const close = open < 0 ? -1 : text.indexOf('))', open + 2);
    if (close < 0) return out + text.slice(from);
    out += `${text.slice(from, open)} `;
    from = close + 2;
  }
}
const WRAPPER_START = /^\s*\[SYSTEM LOG:\s*/i;
const WRAPPER_END = /\s*\]\s*$/;

/**
 * Sentences that instruct the Narrator rather than state what happened; authors write notes as stage
 * directions (the seed's combat-mechanics notes), which a player should not read.
 */
const STAGE_DIRECTION =
  /^(describe|narrate|convey|depict|render|show|hint|mention|emphasi[sz]e|remind|suggest|list|tell|make sure|be sure|keep|focus|let the player|do not|don't|never|always|note that|remember)\b/i;

const SENTENCE = /(?<=[.!?])\s+/;

/** A note as a player may read it: no wrapper, no narrator-only text, no stage directions. */
export function stripNote(note: string): string {
  let text = withoutNarratorOnly(note);
  const wrapped = WRAPPER_START.test(text);
  text = text.replace(WRAPPER_START, '');
  if (wrapped) text = text.replace(WRAPPER_END, '');
  const sentences = text
    .trim()
    .split(SENTENCE)
    .filter((s) => s !== '');
  return sentences
    .filter((sentence) => !STAGE_DIRECTION.test(sentence))
    .join(' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** "the player" as the persona's name (names the shipped notes use for the player character). */
function withPersona(text: string, persona: Persona | undefined): string {
  const name = persona?.name.trim();
  if (name === undefined || name === '' || name.toLowerCase() === 'player') return text;
  return text.replace(/\b[Tt]he player\b/g, name);
}

export interface OfflineNarrationInput {
  readonly notes: readonly string[];
  /** Engine text for the player (`/wait`: "Time passes."), shown before the notes. */
  readonly reply?: string | undefined;
  readonly persona?: Persona | undefined;
}

/** The turn told as prose: one paragraph of what happened, or "Nothing happens." */
export function narrateOffline(rules: CompiledRules, input: OfflineNarrationInput): string {
  const told: string[] = [];
  if (input.reply !== undefined && input.reply !== '') told.push(input.reply);
  for (const note of input.notes) {
    const visible = publicNote(rules, note);
    if (visible === undefined) continue;
    const text = stripNote(visible);
    if (text !== '') told.push(withPersona(text, input.persona));
  }
  return told.length === 0 ? 'Nothing happens.' : told.join(' ');
}
