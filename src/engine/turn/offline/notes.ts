// Notes as a player may read them. A note is interpolated by the rules with the whole state, private fields
// included (the rules and the Director need them); the offline narrator shows notes to the player directly,
// so each note is matched to the note template that produced it and every sentence that shows a private
// value is left out. Which values are private the run itself says (`RunResult.privateNotes`: a value read
// from a private field, directly, through a macro, or through a temp, an input or a loop item computed from
// one; src/core/yare/run/privacy.ts); a template value that reads a private field is withheld even when no
// run says so (notes given without their run). A note no template of the cartridge produced (one the
// engine wrote for itself) is left out too.

import { type CompiledRules, type NotePart, readsPrivate, type Step } from '../../../core/yare/index.ts';

interface Template {
  /** Text before the first value, then [value, text after it] pairs. */
  readonly lead: string;
  readonly values: readonly { readonly private: boolean; readonly after: string }[];
  /** Characters of literal text: with several matching templates, the most specific one is used. */
  readonly literalChars: number;
}

/** Note templates indexed per cartridge; a cartridge with more keeps the first ones (the rest are dropped). */
export const MAX_NOTE_TEMPLATES = 2_000;

const templatesByRules = new WeakMap<CompiledRules, readonly Template[]>();

function templateOf(rules: CompiledRules, parts: readonly NotePart[]): Template {
  let lead = '';
  const values: { private: boolean; after: string }[] = [];
  let literalChars = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      literalChars += part.length;
      if (values.length === 0) lead += part;
      else values[values.length - 1]!.after += part;
    } else {
      const isPrivate = part.kind === 'expr' && readsPrivate(rules, part.expr);
      values.push({ private: isPrivate, after: '' });
    }
  }
  return { lead, values, literalChars };
}

function collect(rules: CompiledRules, steps: readonly Step[], out: Template[]): void {
  for (const step of steps) {
    if (out.length >= MAX_NOTE_TEMPLATES) return;
    switch (step.kind) {
      case 'note':
        out.push(templateOf(rules, step.parts));
        break;
      case 'branch':
        for (const arm of step.arms) collect(rules, arm.steps, out);
        break;
      case 'foreach':
        collect(rules, step.steps, out);
        break;
      default:
        break;
    }
  }
}

function templatesOf(rules: CompiledRules): readonly Template[] {
  let templates = templatesByRules.get(rules);
  if (templates === undefined) {
    const out: Template[] = [];
    for (const event of rules.events.values()) collect(rules, event.steps, out);
    templates = out;
    templatesByRules.set(rules, templates);
  }
  return templates;
}

/** Marks where a private value stood; sentences holding one are dropped. */
const WITHHELD = '\u0000';

/** Whether a private span of the run (flat [start, end) pairs) touches the value at [from, to). */
function touches(spans: readonly number[] | undefined, from: number, to: number): boolean {
  if (spans === undefined) return false;
  for (let i = 0; i < spans.length; i += 2) if (spans[i]! <= to && spans[i + 1]! >= from) return true;
  return false;
}

/**
 * The note with private values replaced by WITHHELD, when `template` produced it; undefined otherwise.
 * Values are found leftmost: each literal after a value is searched from where the value starts. A value
 * is withheld when the template reads a private field or the run's `spans` say it shows a private value;
 * when a span lies outside every withheld value (the note matched the wrong template), all is withheld.
 */
function rendered(
  template: Template,
  note: string,
  spans: readonly number[] | undefined,
): string | undefined {
  if (!note.startsWith(template.lead)) return undefined;
  let pos = template.lead.length;
  let out = template.lead;
  const n = template.values.length;
  if (n === 0) {
    if (note !== template.lead) return undefined;
    return spans === undefined ? note : WITHHELD;
  }
  const withheld: number[] = [];
  for (let i = 0; i < n; i++) {
    const { private: isPrivate, after } = template.values[i]!;
    let end: number;
    if (i === n - 1) {
      if (!note.endsWith(after) || note.length - after.length < pos) return undefined;
      end = note.length - after.length;
    } else if (after === '') {
      // Two values side by side cannot be told apart: when either is private, both are withheld.
      const next = template.values[i + 1]!;
      if (isPrivate || next.private || spans !== undefined) return WITHHELD;
      end = pos;
    } else {
      end = note.indexOf(after, pos);
      if (end < 0) return undefined;
    }
    const hidden = isPrivate || touches(spans, pos, end);
    if (hidden) withheld.push(pos, end);
    out += (hidden ? WITHHELD : note.slice(pos, end)) + after;
    pos = end + after.length;
  }
  if (spans !== undefined) {
    for (let i = 0; i < spans.length; i += 2) {
      let covered = false;
      for (let j = 0; j < withheld.length && !covered; j += 2)
        covered = withheld[j]! <= spans[i]! && spans[i + 1]! <= withheld[j + 1]!;
      if (!covered) return WITHHELD;
    }
  }
  return out;
}

const SENTENCE_END = /(?<=[.!?])\s+/;

/**
 * The note rendered through the public view of the state: sentences showing a private value are left out.
 * Undefined when no note template of the cartridge produced it (a note the engine wrote for itself) or
 * when nothing public is left.
 */
export function publicNote(
  rules: CompiledRules,
  note: string,
  privateSpans?: readonly number[],
): string | undefined {
  return publicNoteOf(rules, note, privateSpans)?.text;
}

/**
 * publicNote, with the index of the note template that produced it (notes of one loop share it).
 * `privateSpans`: where the run says the note shows private values (`PrivateNote.spans`).
 */
export function publicNoteOf(
  rules: CompiledRules,
  note: string,
  privateSpans?: readonly number[],
): { text: string; template: number } | undefined {
  let best: { text: string; chars: number; template: number } | undefined;
  templatesOf(rules).forEach((template, index) => {
    if (best !== undefined && template.literalChars <= best.chars) return;
    const text = rendered(template, note, privateSpans);
    if (text !== undefined) best = { text, chars: template.literalChars, template: index };
  });
  const found = best as { text: string; chars: number; template: number } | undefined;
  if (found === undefined) return undefined;
  if (!found.text.includes(WITHHELD)) return { text: found.text, template: found.template };
  const kept = found.text.split(SENTENCE_END).filter((s) => !s.includes(WITHHELD));
  const text = kept.join(' ').trim();
  return text === '' ? undefined : { text, template: found.template };
}
