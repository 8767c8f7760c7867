// Memory a player can trust (docs/cartridges.md "Lore that follows the state", docs/turn.md "Receipts"):
// - `memory.lore_conditions_2000`: every `when:` condition of a cartridge with 2,000 conditional lore sections
//   (state comparisons, entity locations, open threads, facts; a world of 200 characters, 50 threads and
//   100 facts), evaluated once per turn on a changing state. Target: CPU p50 and p99 under 1 ms a turn.
// `npx tsx bench/memory.ts` prints one JSON object per line; `npm run bench memory` runs it from bench/run.ts.

import { pathToFileURL } from 'node:url';
import { type Cartridge, loadCartridgeFromFiles } from '../src/cartridge/index.ts';
import { initialWorld, loreOf, loreVerdicts } from '../src/turn/index.ts';
import { compileClosure, type Dict, type EvalContext, parseExpression, toValue } from '../src/yare/index.ts';
import { lcg, percentile, round3 as round } from './common.ts';

type Row = Record<string, unknown>;

const SECTIONS = 2_000;
const TURNS = 1_000;
const TARGET_MS = 1;
const NPCS = 200;
const PLACES = 20;
const THREADS = 50;
const FACTS = 100;

function conditionOf(i: number): string {
  switch (i % 4) {
    case 0:
      return `@ state.world.hour >= ${i % 24} and state.world.weather == 'rain'`;
    case 1:
      return `@ entity('npc_${i % NPCS}').location == 'place_${i % PLACES}'`;
    case 2:
      return `@ thread('thread_${i % THREADS}') != None and thread('thread_${i % THREADS}').open`;
    default:
      return `@ fact('fact_${i % FACTS}') != None or state.secret.flag_${i % 10}`;
  }
}

/** A cartridge of 2,000 conditional sections over a world of characters, places, threads and facts. */
export function conditionsCartridge(): Cartridge {
  const flags = Array.from({ length: 10 }, (_, i) => `    flag_${i}: { type: bool, default: false }`);
  const world: string[] = [];
  for (let p = 0; p < PLACES; p++)
    world.push(`    - { event_type: create_entity, entity: place_${p}, name: Place ${p} }`);
  for (let n = 0; n < NPCS; n++) {
    world.push(`    - { event_type: create_entity, entity: npc_${n}, name: Person ${n} }`);
    world.push(`    - { event_type: set_current_location, entity: npc_${n}, location: place_${n % PLACES} }`);
  }
  for (let t = 0; t < THREADS; t++)
    world.push(`    - { event_type: open_story_thread, thread: thread_${t}, title: Thread ${t} }`);
  for (let f = 0; f < FACTS; f += 2)
    world.push(`    - { event_type: add_fact, fact_id: fact_${f}, predicate: known ${f} }`);
  const yare = [
    'version: "1.0"',
    'bot_name: "Conditions bench"',
    'state_schema:',
    '  world:',
    '    visibility: public',
    '    hour: { type: int, default: 0 }',
    '    weather: { type: string, default: "clear" }',
    '  secret:',
    ...flags,
    'events:',
    '  wait:',
    '    steps:',
    '      - action: note',
    '        message: "Time passes."',
    'ledger:',
    '  world:',
    ...world,
    '',
  ].join('\n');
  const lore = Array.from(
    { length: SECTIONS },
    (_, i) => `# Section ${i}\nwhen: ${conditionOf(i)}\nLore text of section ${i}, a line or two long.\n`,
  ).join('\n');
  const loaded = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', yare],
      ['bot_lore.md', lore],
    ]),
    'conditions-bench',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}

function conditionsRow(): Row {
  const cartridge = conditionsCartridge();
  const compileStart = performance.now();
  const lore = loreOf(cartridge);
  const compileMs = performance.now() - compileStart;
  const world = initialWorld(cartridge);
  const random = lcg(27);
  const states: Dict[] = Array.from(
    { length: TURNS },
    () =>
      toValue({
        world: { hour: Math.floor(random() * 24), weather: random() < 0.5 ? 'rain' : 'clear' },
        secret: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`flag_${i}`, random() < 0.1])),
      }) as Dict,
  );
  for (const state of states.slice(0, 100)) loreVerdicts(cartridge, state, world); // warm up
  const cpu: number[] = [];
  const wall: number[] = [];
  let held = 0;
  for (const state of states) {
    const start = performance.now();
    const before = process.cpuUsage();
    const verdicts = loreVerdicts(cartridge, state, world);
    const used = process.cpuUsage(before);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
    for (const v of verdicts.sections.values()) if (v.held) held++;
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  const reference = referenceExpressionNs();
  const cpuP50 = percentile(cpu, 50);
  const cpuP99 = percentile(cpu, 99);
  return {
    bench: 'memory.lore_conditions_2000 (every when: condition of the cartridge, once per turn)',
    conditions: lore.conditions.sections.size,
    turns: TURNS,
    compile_ms: round(compileMs),
    avg_held: round(held / TURNS),
    p50_ms: round(percentile(wall, 50)),
    p99_ms: round(percentile(wall, 99)),
    cpu_p50_ms: round(cpuP50),
    cpu_p99_ms: round(cpuP99),
    // The machine's speed, measured in the same run: CPU nanoseconds of one plain rules expression (two
    // comparisons on the state), and a turn's conditions as a count of such expressions.
    reference_expression_cpu_ns: round(reference),
    turn_cost_in_reference_expressions: Math.round((cpuP50 * 1e6) / reference),
    target: `CPU p50 and p99 < ${TARGET_MS} ms a turn`,
    pass: cpuP50 < TARGET_MS && cpuP99 < TARGET_MS,
  };
}

/** CPU nanoseconds of one evaluation of `state.world.hour >= 3 and state.world.weather == 'rain'`. */
function referenceExpressionNs(): number {
  const state = toValue({ world: { hour: 5, weather: 'rain' } }) as Dict;
  const closure = compileClosure(parseExpression("state.world.hour >= 3 and state.world.weather == 'rain'"));
  const ctx: EvalContext = {
    lookup: (name) => (name === 'state' ? state : undefined),
    macro: () => null,
    roll: () => 0,
  };
  const runs = 200_000;
  for (let i = 0; i < runs; i++) closure(ctx);
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) closure(ctx);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / runs;
}

export async function benchMemory(): Promise<Row[]> {
  return [conditionsRow()];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchMemory()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
