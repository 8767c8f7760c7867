// What a turn did to the rules, as a player may see it: the dice (faces and total) and what changed (HP
// 24 → 19, +30 gold, brine tonic used, 2 h passed), from the turn record's public part only. A change to a
// private field, or to an engine key (`_pending_interaction`), is never listed; a roll whose dice come from
// a private value shows its total only (the run marks it, src/core/yare/run/privacy.ts; a record without
// the mark is judged by the roll's text). The web client and the terminal show this under each turn's prose.

import {
  type CompiledRules,
  formatValue,
  parseExpression,
  pathIsPrivate,
  type RollLabel,
  type RollRecord,
  readsPrivate,
  rollDiceArePrivate,
} from '../../core/yare/index.ts';
import { MAX_OUTCOME_ITEMS, type PublicChange, type PublicOutcome, type PublicRoll } from './outcome-text.ts';
import type { TurnRecord } from './types.ts';

export { describeOutcome, describeRoll, formatDuration, MAX_OUTCOME_ITEMS } from './outcome-text.ts';
export type { PublicChange, PublicOutcome, PublicRoll } from './outcome-text.ts';

/** Characters of one value as shown (a long text or list is cut). */
export const MAX_OUTCOME_VALUE_CHARS = 80;

type RecordPart = Pick<TurnRecord, 'rolls' | 'delta' | 'time'>;

function shown(value: unknown): string {
  // A player reads `true`/`false`, not the rules' Python spelling (`True`).
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? String(value)
        : formatValue(value as never);
  return text.length > MAX_OUTCOME_VALUE_CHARS ? `${text.slice(0, MAX_OUTCOME_VALUE_CHARS - 1)}…` : text;
}

function rollIsPrivate(rules: CompiledRules, roll: RollRecord): boolean {
  if (roll.private === true) return true;
  try {
    return rollDiceArePrivate(rules, parseExpression(roll.expr));
  } catch {
    return true; // not an expression this engine wrote: say nothing about it
  }
}

/** Whether an expression of a roll's label (its modifier, a check's other side) reads a private field. */
function textReadsPrivate(rules: CompiledRules, expr: string): boolean {
  try {
    return readsPrivate(rules, parseExpression(expr));
  } catch {
    return true; // not an expression this engine wrote: say nothing about it
  }
}

/** Items of `b` not in `a`, counting repeats (two tonics bought, one used). */
function minus(a: readonly unknown[], b: readonly unknown[]): string[] {
  const left = a.map(shown);
  const out: string[] = [];
  for (const item of b.map(shown)) {
    const at = left.indexOf(item);
    if (at >= 0) left.splice(at, 1);
    else out.push(item);
  }
  return out;
}

/** `player_attack_roll` → "player attack roll", `temp.damage` → "damage", `state.player.hp` → "player hp". */
function purposeOf(label: RollLabel): string | null {
  const words = (name: string) => name.replaceAll('_', ' ').trim();
  if (label.macro !== undefined) return words(label.macro);
  if (label.writes !== undefined) {
    const path = label.writes.split('.');
    return words(path[0] === 'temp' ? path.slice(1).join(' ') : path.slice(1).slice(-2).join(' '));
  }
  return label.event === undefined ? null : words(label.event);
}

/** Whether a written path is a private state field (a value written there stays unshown). */
function writesPrivate(rules: CompiledRules, writes: string | undefined): boolean {
  if (writes === undefined) return false;
  const path = writes.split('.');
  return path[0] === 'state' && pathIsPrivate(rules.schema, path.slice(1));
}

type LabelPart = Pick<PublicRoll, 'purpose' | 'value' | 'modified' | 'entry' | 'check'>;

/**
 * A roll's label as a player may see it: the purpose always (names from the rules, no values); the value
 * with its modifier, a table entry and a check's target only when no private field shows through them.
 * A check's outcome is shown: the turn's notes and changes tell it anyway.
 */
function publicLabel(rules: CompiledRules, label: RollLabel | undefined, total: number): LabelPart {
  if (label === undefined) return { purpose: null, value: null, modified: false, entry: null, check: null };
  const secretTarget = writesPrivate(rules, label.writes);
  const value = label.value;
  const modified = value !== undefined && value !== total;
  const valueShown =
    value !== undefined && !secretTarget && !(modified && textReadsPrivate(rules, label.of ?? ''));
  const check = label.check;
  return {
    purpose: purposeOf(label),
    value: valueShown ? value : null,
    modified,
    entry: label.entry !== undefined && !secretTarget ? label.entry : null,
    check:
      check === undefined
        ? null
        : {
            op: check.op,
            against: textReadsPrivate(rules, check.of) ? null : check.against,
            passed: check.passed,
          },
  };
}

/** The public outcome of a turn record (player view). */
export function publicOutcome(rules: CompiledRules, record: RecordPart): PublicOutcome {
  const rolls: PublicRoll[] = [];
  const changes: PublicChange[] = [];
  let more = 0;
  for (const roll of record.rolls ?? []) {
    if (rolls.length >= MAX_OUTCOME_ITEMS) {
      more++;
      continue;
    }
    const hidden = rollIsPrivate(rules, roll);
    rolls.push({
      dice: hidden ? null : roll.dice,
      faces: hidden ? null : [...roll.faces],
      total: roll.total,
      ...publicLabel(rules, roll.label, roll.total),
    });
  }
  for (const change of record.delta ?? []) {
    const path = change.path;
    if (path.length === 0 || path.some((p) => p.startsWith('_')) || path[0] === 'game_time') continue;
    if (pathIsPrivate(rules.schema, path)) continue;
    if (changes.length + rolls.length >= MAX_OUTCOME_ITEMS) {
      more++;
      continue;
    }
    const before = change.before;
    const after = change.op === 'set' ? change.after : undefined;
    if (typeof before === 'number' && typeof after === 'number') {
      changes.push({ kind: 'number', path, before, after });
    } else if (Array.isArray(before) && Array.isArray(after)) {
      changes.push({ kind: 'list', path, added: minus(before, after), removed: minus(after, before) });
    } else {
      changes.push({
        kind: 'value',
        path,
        before: before === undefined ? null : shown(before),
        after: after === undefined ? null : shown(after),
      });
    }
  }
  const t = record.time;
  const time =
    t !== undefined && t.advancedSeconds > 0
      ? { before: t.before, after: t.after, seconds: t.advancedSeconds }
      : null;
  return { rolls, changes, time, more };
}
