// What a turn did to the rules, as a player may see it: the dice (faces and total) and what changed (HP
// 24 → 19, +30 gold, brine tonic used, 2 h passed), from the turn record's public part only. A change to a
// private field, or to an engine key (`_pending_interaction`), is never listed; a roll whose dice come from
// a private field shows its total only. The web client and the terminal show this under each turn's prose.

import { parseExpression } from '../yare/expr/parser.ts';
import type { CompiledRules } from '../yare/program.ts';
import { formatValue } from '../yare/python.ts';
import { pathIsPrivate, readsPrivate } from './offline-notes.ts';
import type { TurnRecord } from './types.ts';

/** Rolls and changes listed per turn; the rest is counted ("… 3 more"). */
export const MAX_OUTCOME_ITEMS = 24;
/** Characters of one value as shown (a long text or list is cut). */
export const MAX_OUTCOME_VALUE_CHARS = 80;

export interface PublicRoll {
  /** `1d20`, or null when the dice come from a private field. */
  readonly dice: string | null;
  /** Each face, or null with the dice hidden. */
  readonly faces: readonly number[] | null;
  readonly total: number;
}

export type PublicChange =
  | {
      readonly kind: 'number';
      readonly path: readonly string[];
      readonly before: number;
      readonly after: number;
    }
  | {
      readonly kind: 'list';
      readonly path: readonly string[];
      readonly added: readonly string[];
      readonly removed: readonly string[];
    }
  | {
      readonly kind: 'value';
      readonly path: readonly string[];
      readonly before: string | null;
      readonly after: string | null;
    };

export interface PublicOutcome {
  readonly rolls: readonly PublicRoll[];
  readonly changes: readonly PublicChange[];
  /** Game time the turn took (seconds), with the clock before and after; null when it took none. */
  readonly time: { readonly before: string; readonly after: string; readonly seconds: number } | null;
  /** Rolls and changes left out past MAX_OUTCOME_ITEMS. */
  readonly more: number;
}

type RecordPart = Pick<TurnRecord, 'rolls' | 'delta' | 'time'>;

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : formatValue(value as never);
  return text.length > MAX_OUTCOME_VALUE_CHARS ? `${text.slice(0, MAX_OUTCOME_VALUE_CHARS - 1)}…` : text;
}

function rollIsPrivate(rules: CompiledRules, expr: string): boolean {
  try {
    return readsPrivate(rules, parseExpression(expr).ast);
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
    const hidden = rollIsPrivate(rules, roll.expr);
    rolls.push({
      dice: hidden ? null : roll.dice,
      faces: hidden ? null : [...roll.faces],
      total: roll.total,
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

/** "2 h", "1 h 30 min", "15 min", "1 d 2 h" */
export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts = [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : ''].filter((p) => p !== '');
  return parts.length === 0 ? `${seconds} s` : parts.join(' ');
}

/** `player hp`, `foe name`, `gold` (a field at the top level): the group says whose it is. */
function label(path: readonly string[]): string {
  return path.slice(-2).join(' ').replaceAll('_', ' ');
}

/** One short line per roll and change, for the terminal and the web client. */
export function describeOutcome(outcome: PublicOutcome): string[] {
  const lines: string[] = [];
  for (const roll of outcome.rolls) {
    lines.push(
      roll.dice === null || roll.faces === null
        ? `roll: ${roll.total}`
        : `roll ${roll.dice}: ${roll.faces.length > 1 ? `${roll.faces.join(' + ')} = ` : ''}${roll.total}`,
    );
  }
  for (const change of outcome.changes) {
    const name = label(change.path);
    switch (change.kind) {
      case 'number': {
        const diff = change.after - change.before;
        lines.push(`${name} ${change.before} → ${change.after} (${diff > 0 ? '+' : ''}${diff})`);
        break;
      }
      case 'list':
        for (const item of change.added) lines.push(`${name}: + ${item}`);
        for (const item of change.removed) lines.push(`${name}: − ${item}`);
        break;
      case 'value':
        lines.push(
          change.after === null
            ? `${name} removed`
            : change.before === null
              ? `${name}: ${change.after}`
              : `${name}: ${change.before} → ${change.after}`,
        );
        break;
      default: {
        const unreachable: never = change;
        lines.push(String(unreachable));
      }
    }
  }
  if (outcome.time !== null) {
    const clock = (iso: string) => iso.slice(11, 16);
    lines.push(
      `${formatDuration(outcome.time.seconds)} passed (${clock(outcome.time.before)} → ${clock(outcome.time.after)})`,
    );
  }
  if (outcome.more > 0) lines.push(`… ${outcome.more} more`);
  return lines;
}
