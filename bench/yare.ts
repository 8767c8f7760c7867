// YARE interpreter benchmarks: combat_strike runs per second on the benchmark's own cartridge
// (bench/fixtures/duel) and, when ../shared is beside the project, on the seed template and generic-rpg;
// the same events written by hand in TypeScript, the interpreter/hand-written ratio measured in the same
// run, and compile time per cartridge. One JSON object per line. Without ../shared the shared rows are
// replaced by one `skipped` row naming what is missing, and a line on stderr says so.

import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCartridge } from '../src/adapters/files/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { DiceRoller } from '../src/core/yare/dice.ts';
import { runEvent } from '../src/core/yare/interpreter.ts';
import type { CompiledRules } from '../src/core/yare/program.ts';
import { median } from './common.ts';

const ROOT = PROJECT_ROOT;
/** `../shared/cartridges`, or under MNESOS_TEST_SHARED_DIR as the tests read it (test/helpers/shared.ts). */
const SHARED = join(process.env.MNESOS_TEST_SHARED_DIR || resolve(ROOT, '../shared'), 'cartridges');
const DUEL = join(ROOT, 'bench', 'fixtures', 'duel');

type Row = Record<string, unknown>;

/** The most the interpreter may take over the same event written by hand (median of per-round ratios). */
const TARGET_RATIO_MAX = 2;

// ---- hand-written equivalents (same dice, same copy-on-write, same notes) -----------------------

type EldoriaState = {
  player: { hp: number; mana: number; gold: number; status: string };
  npc: { type: string; hp: number; attack_power: number };
};

function clamp(v: number, min?: number, max?: number): number {
  let n = v;
  if (min !== undefined && n < min) n = min;
  if (max !== undefined && n > max) n = max;
  return n;
}

function eldoriaStrikeByHand(
  state: EldoriaState,
  raw: Record<string, unknown>,
  dice: DiceRoller,
): { state: EldoriaState; notes: string[] } {
  // The event declares one untyped input: anything else is refused, as the interpreter does.
  for (const key in raw) if (key !== 'attacker') throw new Error(`no input ${key}`);
  const attacker = raw.attacker ?? null;
  const notes: string[] = [];
  if (attacker === 'player') {
    const hit = dice.roll(1, 20, 'roll(1d20)') + 5;
    if (hit >= 12) {
      const damage = dice.roll(1, 8, 'roll(1d8)') + 2;
      const npc = { ...state.npc, hp: clamp(state.npc.hp - damage, 0, 100) };
      notes.push(
        `Player attacks! Roll: ${hit}. HIT! Player deals ${damage} damage to the NPC. NPC HP is now ${npc.hp}.`,
      );
      return { state: { ...state, npc }, notes };
    }
    notes.push(`Player attacks! Roll: ${hit}. MISS! The attack fails to connect.`);
    return { state, notes };
  }
  const hit = dice.roll(1, 20, 'roll(1d20)') + state.npc.attack_power;
  if (hit >= 10) {
    const damage = dice.roll(1, 6, 'roll(1d6)') + 1;
    const player = { ...state.player, hp: clamp(state.player.hp - damage, 0, 100) };
    notes.push(
      `NPC attacks! Roll: ${hit}. HIT! Player takes ${damage} damage. Player HP is now ${player.hp}.`,
    );
    return { state: { ...state, player }, notes };
  }
  notes.push(`NPC attacks! Roll: ${hit}. MISS! The player dodges the attack.`);
  return { state, notes };
}

type GenericState = Record<string, Record<string, number | string>>;

const SIDES = new Map([
  ['player', 'player'],
  ['npc', 'npc'],
]);

/** The same input handling the rules declare: enum values matched case-insensitively, defaults, an int power. */
function genericInputs(raw: Record<string, unknown>): { attacker: string; defender: string; power: number } {
  const side = (v: unknown, fallback: string, name: string): string => {
    if (v === undefined || v === null) return fallback;
    const match = SIDES.get(String(v).toLowerCase());
    if (match === undefined) throw new Error(`${name} must be one of player, npc`);
    return match;
  };
  const power = raw.power ?? 0;
  if (typeof power !== 'number' || !Number.isInteger(power)) throw new Error('power must be int');
  for (const key of Object.keys(raw))
    if (key !== 'attacker' && key !== 'defender' && key !== 'power') throw new Error(`no input ${key}`);
  return {
    attacker: side(raw.attacker, 'player', 'attacker'),
    defender: side(raw.defender, 'npc', 'defender'),
    power,
  };
}

function genericStrikeByHand(
  state: GenericState,
  raw: Record<string, unknown>,
  dice: DiceRoller,
): { state: GenericState; notes: string[] } {
  const { attacker, defender, power } = genericInputs(raw);
  const roll = dice.roll(1, 20, 'roll(1d20)') + power;
  if (roll >= 10) {
    const target = { ...state[defender]!, hp: clamp((state[defender]!.hp as number) - 8, 0) };
    return {
      state: { ...state, [defender]: target },
      notes: [`${attacker} strikes ${defender} successfully for 8 damage! (Rolled ${roll})`],
    };
  }
  return { state, notes: [`${attacker} swung at ${defender} and missed! (Rolled ${roll})`] };
}

/** bench/fixtures/duel's combat_strike by hand: a hit on 11+, then 1d6+2 damage to the defender. */
function duelStrikeByHand(
  state: GenericState,
  raw: Record<string, unknown>,
  dice: DiceRoller,
): { state: GenericState; notes: string[] } {
  const { attacker, defender, power } = genericInputs(raw);
  const roll = dice.roll(1, 20, 'roll(1d20)') + power;
  if (roll >= 11) {
    const damage = dice.roll(1, 6, 'roll(1d6)') + 2;
    const target = { ...state[defender]!, hp: clamp((state[defender]!.hp as number) - damage, 0) };
    return {
      state: { ...state, [defender]: target },
      notes: [`${attacker} hits ${defender} for ${damage} (rolled ${roll})`],
    };
  }
  return { state, notes: [`${attacker} misses ${defender} (rolled ${roll})`] };
}

/** Refuses to time a hand-written event that does not do what the interpreter does (same seed, same notes). */
function checkSameOutcome(
  name: string,
  rules: CompiledRules,
  inputs: Record<string, unknown>,
  byHand: (dice: DiceRoller) => { notes: string[] },
): void {
  for (let seed = 1; seed <= 20; seed++) {
    const interpreted = runEvent(rules, rules.initialState, 'combat_strike', inputs, { seed });
    if (!interpreted.ok) throw new Error(`${name}: ${interpreted.error.message}`);
    const hand = byHand(DiceRoller.fromSeed(seed)).notes;
    if (JSON.stringify(hand) !== JSON.stringify(interpreted.notes))
      throw new Error(
        `${name}: the hand-written event differs at seed ${seed}: ${hand} vs ${interpreted.notes}`,
      );
  }
}

// ---- benchmarks --------------------------------------------------------------------------------

async function loadRules(dir: string): Promise<CompiledRules> {
  const result = await loadCartridge(dir);
  if (!result.ok) throw new Error(`${dir} does not load: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.cartridge.rules;
}

/** Runs `fn` for about `ms` milliseconds; returns runs per second. */
function rate(fn: () => void, ms: number): number {
  let runs = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 500; i++) fn();
    runs += 500;
    now = performance.now();
  }
  return (runs / (now - start)) * 1000;
}

/**
 * Interpreter and hand-written code measured in alternating rounds, so load from other processes hits
 * both alike; the ratio is the median of the per-round ratios.
 */
function interpreterVsHand(
  name: string,
  rules: CompiledRules,
  inputs: Record<string, unknown>,
  byHand: (dice: DiceRoller) => void,
): Row[] {
  const state = rules.initialState;
  const dice = DiceRoller.fromSeed(1);
  const interp = () => {
    dice.rolls.length = 0;
    const r = runEvent(rules, state, 'combat_strike', inputs, { dice });
    if (!r.ok) throw new Error(r.error.message);
  };
  const handDice = DiceRoller.fromSeed(1);
  const hand = () => {
    handDice.rolls.length = 0;
    byHand(handDice);
  };
  rate(interp, 300); // warm up both
  rate(hand, 300);
  const interpRates: number[] = [];
  const handRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < 9; round++) {
    const i = rate(interp, 120);
    const h = rate(hand, 120);
    interpRates.push(i);
    handRates.push(h);
    ratios.push(h / i);
  }
  const ratio = median(ratios);
  const interpPerSec = median(interpRates);
  return [
    {
      bench: 'yare.combat_strike',
      cartridge: name,
      runner: 'interpreter',
      runs_per_sec: Math.round(interpPerSec),
    },
    {
      bench: 'yare.combat_strike',
      cartridge: name,
      runner: 'hand-written',
      runs_per_sec: Math.round(median(handRates)),
    },
    {
      bench: 'yare.combat_strike.ratio',
      cartridge: name,
      interpreter_over_hand: Number(ratio.toFixed(2)),
      // Issue 34.4: the interpreter within 2× of the event written by hand.
      target_ratio_max: TARGET_RATIO_MAX,
      target_runs_per_sec_min: 200_000,
      meets_targets: ratio <= TARGET_RATIO_MAX && interpPerSec >= 200_000,
      load_average: loadavg().map((n) => Number(n.toFixed(2))),
    },
  ];
}

export async function benchYare(): Promise<Row[]> {
  const rows: Row[] = [];
  const duel = await loadRules(DUEL);
  const dState = JSON.parse(JSON.stringify(duel.initialState)) as GenericState;
  const duelInputs = { attacker: 'player', defender: 'npc', power: 2 };
  checkSameOutcome('duel', duel, duelInputs, (d) => duelStrikeByHand(dState, duelInputs, d));
  rows.push(...interpreterVsHand('duel', duel, duelInputs, (d) => duelStrikeByHand(dState, duelInputs, d)));
  if (!existsSync(SHARED)) {
    const reason = '../shared/cartridges is not beside this clone (compatibility content written elsewhere)';
    process.stderr.write(`bench yare: skipped seed-eldoria and generic-rpg: ${reason}\n`);
    rows.push({ bench: 'yare.combat_strike.ratio', cartridge: 'seed-eldoria, generic-rpg', skipped: reason });
  } else {
    const eldoria = await loadRules(join(SHARED, 'seed-eldoria'));
    const eState = JSON.parse(JSON.stringify(eldoria.initialState)) as EldoriaState;
    rows.push(
      ...interpreterVsHand('seed-eldoria', eldoria, { attacker: 'player' }, (d) =>
        eldoriaStrikeByHand(eState, { attacker: 'player' }, d),
      ),
    );
    const generic = await loadRules(join(SHARED, 'mnesos/generic-rpg'));
    const gState = JSON.parse(JSON.stringify(generic.initialState)) as GenericState;
    rows.push(
      ...interpreterVsHand('generic-rpg', generic, { attacker: 'player', defender: 'npc', power: 0 }, (d) =>
        genericStrikeByHand(gState, { attacker: 'player', defender: 'npc', power: 0 }, d),
      ),
    );
  }
  const dirs = [
    ...(existsSync(SHARED)
      ? ['seed-eldoria', ...readdirSync(join(SHARED, 'mnesos')).map((d) => `mnesos/${d}`)].map((d) =>
          join(SHARED, d),
        )
      : []),
    ...readdirSync(join(ROOT, 'cartridges')).map((d) => join(ROOT, 'cartridges', d)),
    DUEL,
  ];
  for (const dir of dirs) {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await loadCartridge(dir);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push({
      bench: 'yare.load_and_compile',
      cartridge: dir.replace(`${ROOT}/`, '').replace(`${SHARED}/`, 'shared/'),
      p50_ms: Number(times[15]!.toFixed(3)),
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchYare()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
