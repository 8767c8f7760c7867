// Persona macros: `{{user}} {{sub}} {{obj}} {{poss}} {{poss_obj}}` in directives, lore and
// the first message are replaced by the player's persona. Unlike the original's chain of `str.replace`,
// this is one pass over the text: a persona whose name contains `{{sub}}` is inserted as written and never
// expanded again. Macro names match case-insensitively (`{{User}}` is common in imported cards); any other
// `{{macro}}` is left as it is.

import { sanitizeForPrompt } from '../text-policy.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { cartError } from './diagnostics.ts';
import {
  MAX_PERSONA_NAME_CHARS,
  MAX_PERSONA_TEXT_CHARS,
  MAX_PERSONA_VOICE_CHARS,
  MAX_PRONOUN_CHARS,
} from './limits.ts';
import { codePointLength, firstControlCharacter } from './text.ts';
import { secondPerson } from './verbs.ts';

export interface Persona {
  readonly name: string;
  readonly pronoun_sub: string;
  readonly pronoun_obj: string;
  readonly pronoun_poss: string;
  readonly pronoun_poss_obj: string;
  readonly appearance?: string;
  readonly background?: string;
  readonly personality?: string;
  /** The voice the player's lines are read aloud in (docs/voices.md). */
  readonly voice?: string;
}

/**
 * Used when no persona is given (for example by `mnesos validate`). Leaving `{{user}}` in a prompt would
 * show the model template syntax, so macros always expand; "Player" is how the shipped cartridges' own
 * notes name the player character, and they/them is the neutral choice.
 */
export const DEFAULT_PERSONA: Persona = Object.freeze({
  name: 'Player',
  pronoun_sub: 'they',
  pronoun_obj: 'them',
  pronoun_poss: 'their',
  pronoun_poss_obj: 'theirs',
});

type MacroName = 'user' | 'sub' | 'obj' | 'poss' | 'poss_obj';

const MACRO = /\{\{(user|sub|obj|poss|poss_obj)\}\}/gi;

function macroValue(persona: Persona, macro: MacroName): string {
  switch (macro) {
    case 'user':
      return persona.name;
    case 'sub':
      return persona.pronoun_sub;
    case 'obj':
      return persona.pronoun_obj;
    case 'poss':
      return persona.pronoun_poss;
    case 'poss_obj':
      return persona.pronoun_poss_obj;
    default: {
      const unreachable: never = macro;
      return unreachable;
    }
  }
}

/** Replaces the persona macros in one pass; `persona` defaults to `DEFAULT_PERSONA`. */
export function applyPersonaMacros(text: string, persona: Persona = DEFAULT_PERSONA): string {
  // The persona is the player's text: neutralised by the one prompt sanitiser wherever a macro puts it.
  return text.replace(MACRO, (_whole, name: string) =>
    sanitizeForPrompt(macroValue(persona, name.toLowerCase() as MacroName)),
  );
}

/** How story text names the player when no persona is given: as the rules' notes do ("The player pays…"). */
export const STORY_PLAYER = 'the player';

/** Whether a persona is the player addressed directly: named "you". */
export function isSecondPerson(persona: Persona | undefined): boolean {
  return persona?.name.trim().toLowerCase() === 'you';
}

const SECOND_PERSON: Persona = Object.freeze({
  name: 'you',
  pronoun_sub: 'you',
  pronoun_obj: 'you',
  pronoun_poss: 'your',
  pronoun_poss_obj: 'yours',
});

const STORY_MACRO = /\{\{(user|sub|obj|poss|poss_obj)\}\}(\s+[A-Za-z]+)?/gi;

/** Whether `offset` in `text` starts a sentence (the text's start, after `.`/`!`/`?`, a line break or an opening quote). */
function startsSentence(text: string, offset: number): boolean {
  const start = Math.max(0, offset - 8);
  const before = text.slice(start, offset);
  if (start === 0 && before.trim() === '') return true;
  return /(?:[.!?]["'”’)]?\s+|\n\s*|["“‘]\s*)$/.test(before);
}

/**
 * Persona macros in story text the player reads (the opening and the greetings), in the voice the turns
 * use: with no persona `{{user}}` is "the player" ("The player" at a sentence's start; "Player" when
 * spoken to, as in "Welcome, {{user}}.") and the pronouns they/them, as the rules' notes say it; with a persona named "you" it is "you"/"You", the pronouns
 * you/your, and the verb after `{{user}}` or `{{sub}}` agrees ("you step"); any other persona as
 * `applyPersonaMacros`.
 */
export function applyStoryMacros(text: string, persona: Persona | undefined): string {
  const second = isSecondPerson(persona);
  if (persona !== undefined && !second) return applyPersonaMacros(text, persona);
  const who = second ? SECOND_PERSON : { ...DEFAULT_PERSONA, name: STORY_PLAYER };
  return text.replace(STORY_MACRO, (_whole, name: string, next: string | undefined, offset: number) => {
    const macro = name.toLowerCase() as MacroName;
    // Spoken to ("Welcome, {{user}}."): a name, not a description — the default persona's.
    const vocative =
      macro === 'user' &&
      !second &&
      next === undefined &&
      /^[,.!?;:]/.test(text.slice(offset + _whole.length));
    let value = vocative ? DEFAULT_PERSONA.name : macroValue(who, macro);
    if (startsSentence(text, offset)) value = value[0]!.toUpperCase() + value.slice(1);
    if (next === undefined) return value;
    const subject = macro === 'user' || macro === 'sub';
    if (!second || !subject) return value + next;
    const space = /^\s+/.exec(next)![0];
    return `${value}${space}${secondPerson(next.slice(space.length))}`;
  });
}

/**
 * Checks a persona given by a caller (a player's settings): every field a string, within its limit, and the
 * fields that are inserted into running text free of line breaks and control characters, so a name cannot
 * smuggle in a fake "ASSISTANT:" line.
 */
export function validatePersona(persona: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (typeof persona !== 'object' || persona === null || Array.isArray(persona)) {
    return [cartError('CART_BAD_PERSONA', 'The persona must be an object with a name and four pronouns.')];
  }
  const record = persona as Record<string, unknown>;
  const inline: ReadonlyArray<readonly [keyof Persona, number]> = [
    ['name', MAX_PERSONA_NAME_CHARS],
    ['pronoun_sub', MAX_PRONOUN_CHARS],
    ['pronoun_obj', MAX_PRONOUN_CHARS],
    ['pronoun_poss', MAX_PRONOUN_CHARS],
    ['pronoun_poss_obj', MAX_PRONOUN_CHARS],
  ];
  for (const [field, max] of inline) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    out.push(...inlineFieldProblems(field, value, max));
  }
  for (const field of ['appearance', 'background', 'personality'] as const) {
    if (!Object.hasOwn(record, field) || record[field] === undefined) continue;
    const problem = proseFieldProblem(field, record[field]);
    if (problem !== undefined) out.push(problem);
  }
  out.push(...voiceProblems(record));
  return out;
}

/** A field inserted into running text: non-empty, within `max`, one line without control characters. */
function inlineFieldProblems(field: keyof Persona, value: unknown, max: number): Diagnostic[] {
  if (typeof value !== 'string' || value.trim() === '')
    return [cartError('CART_BAD_PERSONA', `Persona field '${field}' must be non-empty text.`)];
  const out: Diagnostic[] = [];
  if (codePointLength(value) > max) {
    out.push(
      cartError(
        'CART_BAD_PERSONA',
        `Persona field '${field}' has ${codePointLength(value)} characters; the limit is ${max}.`,
      ),
    );
  }
  if (/[\r\n\t]/.test(value) || firstControlCharacter(value) !== -1) {
    out.push(
      cartError('CART_BAD_PERSONA', `Persona field '${field}' must be one line without control characters.`),
    );
  }
  return out;
}

/** A field of prose (appearance, background, personality): text within its limit, no control characters. */
function proseFieldProblem(field: keyof Persona, value: unknown): Diagnostic | undefined {
  if (typeof value !== 'string')
    return cartError('CART_BAD_PERSONA', `Persona field '${field}' must be text.`);
  if (codePointLength(value) > MAX_PERSONA_TEXT_CHARS) {
    return cartError(
      'CART_BAD_PERSONA',
      `Persona field '${field}' has ${codePointLength(value)} characters; the limit is ${MAX_PERSONA_TEXT_CHARS}.`,
    );
  }
  if (firstControlCharacter(value) !== -1)
    return cartError('CART_BAD_PERSONA', `Persona field '${field}' contains a control character.`);
  return undefined;
}

/** The optional `voice`: one line of at most MAX_PERSONA_VOICE_CHARS characters. */
function voiceProblems(record: Record<string, unknown>): Diagnostic[] {
  if (!Object.hasOwn(record, 'voice') || record.voice === undefined) return [];
  const voice = record.voice;
  if (typeof voice !== 'string' || voice.trim() === '')
    return [cartError('CART_BAD_PERSONA', "Persona field 'voice' must be non-empty text.")];
  if (codePointLength(voice) > MAX_PERSONA_VOICE_CHARS)
    return [
      cartError(
        'CART_BAD_PERSONA',
        `Persona field 'voice' has ${codePointLength(voice)} characters; the limit is ${MAX_PERSONA_VOICE_CHARS}.`,
      ),
    ];
  if (firstControlCharacter(voice) !== -1 || /[\r\n\t]/.test(voice))
    return [
      cartError('CART_BAD_PERSONA', "Persona field 'voice' must be one line without control characters."),
    ];
  return [];
}
