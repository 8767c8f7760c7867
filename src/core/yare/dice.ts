// Seeded, serialisable dice. Every roll of a turn comes from one generator whose seed (or state) is
// recorded with the turn, so replaying the turn replays the dice exactly, on any platform: the
// generator (xoroshiro128+) and the uniform-integer distribution use 32-bit integer arithmetic only.

import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { type xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { YareError } from './errors.ts';
import { MAX_DICE_COUNT, MAX_DICE_SIDES } from './limits.ts';

type Generator = ReturnType<typeof xoroshiro128plus>;

/** One `roll(...)` as recorded in the turn: which expression, which dice, each face, the sum. */
export interface RollRecord {
  readonly expr: string;
  readonly dice: string;
  readonly faces: readonly number[];
  readonly total: number;
  /** The dice were computed from a private value: players see the total only (src/core/yare/run/privacy.ts). */
  readonly private?: true;
  /**
   * What the roll was for, as the rules say it (run/roll-labels.ts). Absent from records written before
   * rolls were labelled, and for a roll outside any event; the dice themselves never depend on it.
   */
  readonly label?: RollLabel;
}

/** An ordering or equality test a rolled number was put to. */
export type CheckOp = '>=' | '>' | '<=' | '<' | '==' | '!=';

/** The purpose of a roll, from the step and expression it was rolled in. Every field is optional. */
export interface RollLabel {
  /** The event whose step rolled. */
  readonly event?: string;
  /** The macro the roll was made in (`player_attack_roll`), the innermost when macros nest. */
  readonly macro?: string;
  /** The path the step writes with the rolled value (`temp.damage`, `state.player.hp`). */
  readonly writes?: string;
  /** The number the expression made of this one roll (`roll(1d20) + 4` → total + 4). */
  readonly value?: number;
  /** Source text of that expression: whether its modifier shows a private field is judged from it. */
  readonly of?: string;
  /** A table roll: the entry the number picked, as text. */
  readonly entry?: string;
  /** The last test the rolled value was put to: `value op against`, and whether it held. */
  readonly check?: {
    readonly op: CheckOp;
    readonly against: number;
    /** Source text of the other side (`state.foe.armor`). */
    readonly of: string;
    readonly passed: boolean;
  };
}

/** The roll as records written before labels carried it (session verify compares old records so). */
export function unlabelled(roll: RollRecord): RollRecord {
  if (roll.label === undefined) return roll;
  const { label: _label, ...rest } = roll;
  return rest;
}

/** The generator's four 32-bit words; JSON-serialisable. */
export type RngState = readonly number[];

const TWO_POW_32 = 0x1_0000_0000;

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

export class DiceRoller {
  readonly rolls: RollRecord[] = [];

  private constructor(private readonly rng: Generator) {}

  /**
   * A roller seeded with a non-negative safe integer. The seed is hashed into the four state words
   * (murmur3's 32-bit finaliser), so neighbouring seeds — turn 7, turn 8 — start unrelated sequences
   * (fed raw, xoroshiro128+'s first outputs for seeds n and n+1 differ by one).
   */
  static fromSeed(seed: number): DiceRoller {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new YareError(
        'YARE_BAD_VALUE',
        `dice seed must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${seed}`,
      );
    }
    const low = seed | 0;
    const high = Math.floor(seed / TWO_POW_32) | 0;
    const words = [1, 2, 3, 4].map((i) =>
      fmix32((low + Math.imul(i, 0x9e3779b9)) ^ fmix32(high + Math.imul(i, 0x7f4a7c15))),
    );
    if (words.every((w) => w === 0)) return DiceRoller.fromState([1, 0, 0, 0]);
    return new DiceRoller(xoroshiro128plusFromState(words));
  }

  /** A roller that continues exactly where the roller whose `state()` this was stopped. */
  static fromState(state: RngState): DiceRoller {
    if (
      !Array.isArray(state) ||
      state.length !== 4 ||
      !state.every((w) => Number.isInteger(w) && w === (w | 0))
    ) {
      throw new YareError('YARE_BAD_VALUE', 'dice state must be an array of four 32-bit signed integers');
    }
    if (state.every((w) => w === 0)) {
      throw new YareError('YARE_BAD_VALUE', 'dice state of all zeros is not a valid xoroshiro128+ state');
    }
    return new DiceRoller(xoroshiro128plusFromState(state));
  }

  /** Roll `count` dice of `sides` sides, record the roll, return the total. */
  roll(count: number, sides: number, expr: string): number {
    if (!Number.isSafeInteger(count) || count < 0 || count > MAX_DICE_COUNT) {
      throw new YareError(
        'YARE_DICE_LIMIT',
        `dice count ${count} is outside 0..${MAX_DICE_COUNT} (MAX_DICE_COUNT)`,
      );
    }
    if (!Number.isSafeInteger(sides) || sides < 1 || sides > MAX_DICE_SIDES) {
      throw new YareError(
        'YARE_DICE_LIMIT',
        `dice sides ${sides} is outside 1..${MAX_DICE_SIDES} (MAX_DICE_SIDES)`,
      );
    }
    const faces = new Array<number>(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const face = uniformInt(this.rng, 1, sides);
      faces[i] = face;
      total += face;
    }
    this.rolls.push({ expr, dice: `${count}d${sides}`, faces, total });
    return total;
  }

  /**
   * A whole number from `low` to `high` drawn from the generator and not recorded: a choice made with
   * the seed (the explorer's), not a roll of the rules.
   */
  draw(low: number, high: number): number {
    return uniformInt(this.rng, low, high);
  }

  /** The generator state now; `DiceRoller.fromState(state)` continues the identical sequence. */
  state(): RngState {
    return [...this.rng.getState()];
  }
}
