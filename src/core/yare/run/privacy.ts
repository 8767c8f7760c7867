// Private values while a run goes on: which `temp` keys, inputs and loop items hold a value computed from a
// private field (src/core/yare/privacy.ts says what each expression reads). Tracked per name, not per value:
// a set of private temp keys per run, of private inputs per call, of private loop names per loop, each
// `undefined` while empty, so a run that touches nothing private pays one comparison per write. A note
// records where its private values stand, and a roll whose dice are private is marked, so every view
// that shows them to a player (offline prose, the Narrator prompt, the outcome under the prose) leaves
// them out.

import type { RollRecord } from '../dice.ts';
import { type ExprReads, pathIsPrivate, type ValueReads } from '../privacy.ts';
import type { DomainSchema } from '../program.ts';

/** What a run knows of its private names; the machine holds it, saved and restored with each frame. */
export interface RunPrivacy {
  /** `temp` keys holding a private value in this run. */
  privateTemps: Set<string> | undefined;
  /** This frame's inputs holding a private value (its caller passed one). */
  privateInputs: ReadonlySet<string> | undefined;
  /** Loop items and indexes in scope that hold a private value (they loop over a private list). */
  privateNames: ReadonlySet<string> | undefined;
  /** Texts of the rolls being evaluated now whose dice are private. */
  privateRollTexts: ReadonlySet<string> | undefined;
}

/** Whether a value is private, given what the run knows now. */
export type PrivacyTest = (p: RunPrivacy) => boolean;

const ALWAYS: PrivacyTest = () => true;

function holds(set: ReadonlySet<string> | undefined, read: readonly string[] | 'any'): boolean {
  if (set === undefined || set.size === 0) return false;
  if (read === 'any') return true;
  for (let i = 0; i < read.length; i++) if (set.has(read[i]!)) return true;
  return false;
}

/** The test for a value that reads `reads`; undefined when it can never be private. */
export function privacyTest(reads: ValueReads): PrivacyTest | undefined {
  if (reads.privateState) return ALWAYS;
  const { temps, inputs, names } = reads;
  if (temps !== 'any' && temps.length === 0 && inputs !== 'any' && inputs.length === 0 && names.length === 0)
    return undefined;
  return (p) =>
    holds(p.privateTemps, temps) || holds(p.privateInputs, inputs) || holds(p.privateNames, names);
}

/** Either test holding (undefined when neither can). */
export function eitherTest(a: PrivacyTest | undefined, b: PrivacyTest | undefined): PrivacyTest | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (p) => a(p) || b(p);
}

/**
 * After a write to `temp.<key>`: the key holds a private value when the value written is private; a write
 * of the whole key with a public value makes it public again (a write inside it keeps what was there).
 */
export function markTemp(p: RunPrivacy, key: string, isPrivate: boolean, whole: boolean): void {
  if (isPrivate) {
    p.privateTemps ??= new Set();
    p.privateTemps.add(key);
  } else if (whole) p.privateTemps?.delete(key);
}

/** Whether a resolved `state.`/`temp.` path holds a private value now. */
export function pathHoldsPrivate(p: RunPrivacy, segments: readonly string[], schema: DomainSchema): boolean {
  if (segments[0] === 'state') return pathIsPrivate(schema, segments.slice(1));
  return p.privateTemps?.has(segments[1]!) === true;
}

/** The loop names private inside a loop: the item and index added (private list) or shadowed (public). */
export function loopNames(
  outer: ReadonlySet<string> | undefined,
  item: string,
  index: string,
  isPrivate: boolean,
): ReadonlySet<string> | undefined {
  if (isPrivate) return new Set(outer ?? []).add(item).add(index);
  if (outer === undefined || !(outer.has(item) || outer.has(index))) return outer;
  const names = new Set(outer);
  names.delete(item);
  names.delete(index);
  return names;
}

/**
 * Wraps an expression's evaluation so the rolls in it whose dice are private are marked: their texts are
 * set for `markRoll` while it runs. Returns `evaluate` itself when no roll of it reads anything.
 */
export function withPrivateRolls<C extends RunPrivacy, V>(
  reads: ExprReads,
  evaluate: (m: C) => V,
): (m: C) => V {
  const rolls: { text: string; test: PrivacyTest }[] = [];
  for (const roll of reads.rollDice) {
    const test = privacyTest(roll.reads);
    if (test !== undefined) rolls.push({ text: roll.text, test });
  }
  if (rolls.length === 0) return evaluate;
  const fixed = rolls.every((r) => r.test === ALWAYS) ? new Set(rolls.map((r) => r.text)) : undefined;
  return (m) => {
    let texts: Set<string> | undefined = fixed;
    if (texts === undefined)
      for (const r of rolls) {
        if (!r.test(m)) continue;
        texts ??= new Set();
        texts.add(r.text);
      }
    if (texts === undefined) return evaluate(m);
    const saved = m.privateRollTexts;
    m.privateRollTexts = texts;
    try {
      return evaluate(m);
    } finally {
      m.privateRollTexts = saved;
    }
  };
}

/** Marks the roll just recorded as one whose dice are private, when its text is one being evaluated. */
export function markRoll(p: RunPrivacy, rolls: RollRecord[], text: string): void {
  if (p.privateRollTexts === undefined || !p.privateRollTexts.has(text)) return;
  const last = rolls.length - 1;
  const roll = rolls[last];
  if (roll !== undefined && roll.expr === text) rolls[last] = { ...roll, private: true };
}
