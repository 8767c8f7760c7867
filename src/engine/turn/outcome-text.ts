// The public outcome of a turn (public-outcome.ts) as short lines: what the terminal prints and the web
// client shows under each turn's prose. Pure, with no rules code, so the web client bundles it alone.

import type { RollLabel } from '../../core/yare/index.ts';

/**
 * A recorded roll's label in full, for its author (the trace, the event console, `run-event`):
 * `attack · macros.attack_roll → temp.to_hit = 13 · >= 12 (state.foe.armor) passed`; '' without one.
 */
export function describeRollLabel(label: RollLabel | undefined): string {
  if (label === undefined) return '';
  const parts: string[] = [];
  if (label.event !== undefined) parts.push(label.event);
  const made = [
    label.macro === undefined ? '' : `macros.${label.macro}`,
    label.writes === undefined ? '' : `→ ${label.writes}`,
    label.value === undefined ? '' : `= ${label.value}`,
    label.entry === undefined ? '' : `→ ${label.entry}`,
  ].filter((p) => p !== '');
  if (made.length > 0) parts.push(made.join(' '));
  const check = label.check;
  if (check !== undefined)
    parts.push(`${check.op} ${check.against} (${check.of}) ${check.passed ? 'passed' : 'failed'}`);
  return parts.join(' · ');
}

/** Rolls and changes listed per turn; the rest is counted ("… 3 more"). */
export const MAX_OUTCOME_ITEMS = 24;

export interface PublicRoll {
  /** `1d20`, or null when the dice come from a private field. */
  readonly dice: string | null;
  /** Each face, or null with the dice hidden. */
  readonly faces: readonly number[] | null;
  readonly total: number;
  /**
   * What the roll was for, in words (`player attack roll`, `damage`, `loot`): the macro it was rolled in,
   * else the variable the step writes, else the event; null for a record without labels.
   */
  readonly purpose: string | null;
  /** The number the rules made of the dice (`roll(1d20) + 4` → total + 4); null when unknown or private. */
  readonly value: number | null;
  /** Whether the rules add something to the dice (shown as "+ modifier" when its value is private). */
  readonly modified: boolean;
  /** A table roll's entry. */
  readonly entry: string | null;
  /** The test the rolled value was put to: `against` null when it is private. */
  readonly check: {
    readonly op: '>=' | '>' | '<=' | '<' | '==' | '!=';
    readonly against: number | null;
    readonly passed: boolean;
  } | null;
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

const CHECK_SIGN: Readonly<Record<NonNullable<PublicRoll['check']>['op'], string>> = {
  '>=': '',
  '>': '> ',
  '<=': '≤ ',
  '<': '< ',
  '==': '= ',
  '!=': '≠ ',
};

/** "hit"/"miss" for an attack, "success"/"failure" for any other check. */
function checkOutcome(purpose: string | null, passed: boolean): string {
  const attack = purpose !== null && /\b(attack|hit|strike|to hit)\b/.test(purpose);
  if (attack) return passed ? 'hit' : 'miss';
  return passed ? 'success' : 'failure';
}

/**
 * One roll as a line: `player attack roll 1d20+4: 7 + 4 = 11 vs 13 — miss`, `loot 1d6: 4 → 5`; a roll whose
 * dice are private shows its total only (`foe damage: 3`), a private modifier is named, not valued.
 */
export function describeRoll(roll: PublicRoll): string {
  const name = roll.purpose ?? 'roll';
  const mod = roll.value === null ? 0 : roll.value - roll.total;
  let text: string;
  if (roll.dice === null || roll.faces === null) {
    text = `${name}: ${roll.value ?? roll.total}`;
  } else {
    const sign = mod > 0 ? `+${mod}` : mod < 0 ? `${mod}` : '';
    const dice = roll.modified && roll.value === null ? `${roll.dice} + modifier` : `${roll.dice}${sign}`;
    const sum =
      mod !== 0
        ? `${roll.faces.join(' + ')} ${mod > 0 ? '+' : '−'} ${Math.abs(mod)} = ${roll.value}`
        : roll.faces.length > 1
          ? `${roll.faces.join(' + ')} = ${roll.total}`
          : `${roll.total}`;
    text = `${name} ${dice}: ${sum}`;
  }
  if (roll.entry !== null) text += ` → ${roll.entry}`;
  if (roll.check !== null) {
    if (roll.check.against !== null) text += ` vs ${CHECK_SIGN[roll.check.op]}${roll.check.against}`;
    text += ` — ${checkOutcome(roll.purpose, roll.check.passed)}`;
  }
  return text;
}

/** One short line per roll and change, for the terminal and the web client. */
export function describeOutcome(outcome: PublicOutcome): string[] {
  const lines: string[] = [];
  for (const roll of outcome.rolls) lines.push(describeRoll(roll));
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
    const before = clock(outcome.time.before);
    const after = clock(outcome.time.after);
    // A game whose clock starts with this turn (an imported card) has no time before it to show.
    const span = before === '' ? (after === '' ? '' : ` (now ${after})`) : ` (${before} → ${after})`;
    lines.push(`${formatDuration(outcome.time.seconds)} passed${span}`);
  }
  if (outcome.more > 0) lines.push(`… ${outcome.more} more`);
  return lines;
}
