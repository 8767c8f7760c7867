// Dice notation `NdX`: one place that knows its limits, used for bare dice literals at parse time and
// for dice written as strings (`roll('3d6')`) at run time.

import { YareError } from '../errors.ts';
import { MAX_DICE_COUNT, MAX_DICE_SIDES } from '../limits.ts';
import type { Span } from './ast.ts';

export interface DiceSpec {
  readonly count: number;
  readonly sides: number;
}

/** Refuse dice beyond the limits; `0dX` is allowed (it rolls nothing and totals 0, as in the original). */
export function checkDice(count: number, sides: number, span?: Span): void {
  if (count > MAX_DICE_COUNT) {
    throw new YareError(
      'YARE_DICE_LIMIT',
      `${count} dice in one roll is more than the limit of ${MAX_DICE_COUNT} (MAX_DICE_COUNT)`,
      span,
    );
  }
  if (sides > MAX_DICE_SIDES) {
    throw new YareError(
      'YARE_DICE_LIMIT',
      `a die with ${sides} sides is more than the limit of ${MAX_DICE_SIDES} (MAX_DICE_SIDES)`,
      span,
    );
  }
  if (sides === 0)
    throw new YareError('YARE_BAD_DICE', 'a die needs at least 1 side (d0 is not a die)', span);
}

const DICE_TEXT = /^\s*(\d+)[dD](\d+)\s*$/;

/** Parse dice text like `3d6` or ` 1D20 ` (the original lower-cased and split on `d`). */
export function parseDiceText(text: string, span?: Span): DiceSpec {
  const m = DICE_TEXT.exec(text);
  if (!m) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    throw new YareError('YARE_BAD_DICE', `'${shown}' is not dice notation like 1d20 or 3d6`, span);
  }
  const count = Number(m[1]);
  const sides = Number(m[2]);
  checkDice(count, sides, span);
  return { count, sides };
}
