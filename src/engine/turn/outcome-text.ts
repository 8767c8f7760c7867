// The public outcome of a turn (public-outcome.ts) as short lines: what the terminal prints and the web
// client shows under each turn's prose. Pure, with no rules code, so the web client bundles it alone.

/** Rolls and changes listed per turn; the rest is counted ("… 3 more"). */
export const MAX_OUTCOME_ITEMS = 24;

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
