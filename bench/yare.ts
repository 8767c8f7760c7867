// YARE interpreter benchmarks: combat_strike runs per second on the seed template and generic-rpg,
// the same two events written by hand in TypeScript, the interpreter/hand-written ratio measured in the
// same run, and compile time per cartridge. One JSON object per line.

import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCartridge } from '../src/cartridge/index.ts';
import { PROJECT_ROOT } from '../src/project-root.ts';
import { DiceRoller } from '../src/yare/dice.ts';
import { runEvent } from '../src/yare/interpreter.ts';
import type { CompiledRules } from '../src/yare/program.ts';

const ROOT = PROJECT_ROOT;
const SHARED = resolve(ROOT, '../shared/cartridges');

type Row = Record<string, unknown>;

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

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
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
      target_ratio_max: 10,
      target_runs_per_sec_min: 200_000,
      meets_targets: ratio <= 10 && interpPerSec >= 200_000,
    },
  ];
}

export async function benchYare(): Promise<Row[]> {
  const rows: Row[] = [];
  if (!existsSync(SHARED)) {
    rows.push({ bench: 'yare', skipped: `no shared cartridges at ${SHARED}` });
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
