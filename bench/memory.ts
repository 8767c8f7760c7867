// Memory a player can trust (docs/cartridges.md "Lore that follows the state", docs/turn.md "Receipts"):
// - `memory.lore_conditions_2000`: every `when:` condition of a cartridge with 2,000 conditional lore sections
//   (state comparisons, entity locations, open threads, facts; a world of 200 characters, 50 threads and
//   100 facts), evaluated once per turn on a changing state (a new random hour, weather and flags every
//   turn) and a world that changes as play changes it: a few records a turn (one character moves, one
//   thread opens or closes). A condition whose inputs did not change keeps its verdict
//   (src/core/cartridge/lore-conditions.ts); `avg_evaluated` says how many ran a turn, and
//   `world_rebuilt_*` is a turn whose world was read anew from JSON (no ledger record shared with the last).
//   Target: CPU p50 and p99 under 1 ms a turn.
// `npx tsx bench/memory.ts` prints one JSON object per line; `npm run bench memory` runs it from bench/run.ts.

import { pathToFileURL } from 'node:url';
import type { Cartridge } from '../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../src/adapters/files/index.ts';
import {
  applyBatch,
  factCount,
  factValidAt,
  getFact,
  type LedgerEvent,
  LedgerIndex,
  type World,
  worldFromJson,
} from '../src/core/ledger/index.ts';
import { createScriptedModels } from '../src/adapters/llm/index.ts';
import {
  type GameState,
  initialWorld,
  loreOf,
  loreVerdicts,
  runTurnToRecord,
} from '../src/engine/turn/index.ts';
import {
  compileClosure,
  type Dict,
  type EvalContext,
  parseExpression,
  toValue,
} from '../src/core/yare/index.ts';
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

/** A world event of play: one character moves, or a thread opens or closes (a few records a turn). */
function playEvent(turn: number, random: () => number): LedgerEvent {
  const thread = `thread_${turn % THREADS}`;
  if (turn % 3 === 0)
    return random() < 0.5
      ? { type: 'resolve_story_thread', thread }
      : { type: 'open_story_thread', thread, title: `Thread ${turn % THREADS}` };
  return {
    type: 'set_current_location',
    entity: `npc_${Math.floor(random() * NPCS)}`,
    location: `place_${Math.floor(random() * PLACES)}`,
  };
}

function conditionsRow(): Row {
  const cartridge = conditionsCartridge();
  const compileStart = performance.now();
  const lore = loreOf(cartridge);
  const compileMs = performance.now() - compileStart;
  const random = lcg(27);
  const states: Dict[] = Array.from(
    { length: TURNS },
    () =>
      toValue({
        world: { hour: Math.floor(random() * 24), weather: random() < 0.5 ? 'rain' : 'clear' },
        secret: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`flag_${i}`, random() < 0.1])),
      }) as Dict,
  );
  // The world of each turn: the last one with one event of play applied (an invalid one is skipped).
  const worlds: World[] = [];
  let world = initialWorld(cartridge);
  for (let turn = 0; turn < TURNS; turn++) {
    try {
      world = applyBatch(world, [playEvent(turn, random)], { turn: turn + 1 });
    } catch {
      // reopening an open thread or closing a closed one: the world stays as it was this turn
    }
    worlds.push(world);
  }
  // Warm up with one pass over the turns: the code is compiled, and what setting up allocated (the worlds,
  // the states) is collected or promoted before the measured pass instead of during it.
  for (let i = 0; i < TURNS; i++) loreVerdicts(cartridge, states[i]!, worlds[i]!);
  // Counted by key (no iterator made per turn: the harness's own garbage would land in the next turns).
  const ids = [...lore.conditions.sections.keys()];
  const cpu: number[] = [];
  const wall: number[] = [];
  let held = 0;
  let evaluated = 0;
  for (let i = 0; i < TURNS; i++) {
    const start = performance.now();
    const before = process.cpuUsage();
    const verdicts = loreVerdicts(cartridge, states[i]!, worlds[i]!);
    const used = process.cpuUsage(before);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
    evaluated += verdicts.evaluated;
    for (const id of ids) if (verdicts.sections.get(id)?.held) held++;
  }
  // The world read anew from its JSON each turn: no ledger record is shared with the last turn.
  const json = JSON.parse(JSON.stringify(worlds.at(-1)));
  const allChanged: number[] = [];
  let allEvaluated = 0;
  for (let i = 0; i < 200; i++) {
    const rebuilt = worldFromJson(json);
    if (!rebuilt.ok) throw new Error(rebuilt.message);
    const before = process.cpuUsage();
    allEvaluated += loreVerdicts(cartridge, states[i]!, rebuilt.world).evaluated;
    const used = process.cpuUsage(before);
    allChanged.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  allChanged.sort((a, b) => a - b);
  const reference = referenceExpressionNs();
  const cpuP50 = percentile(cpu, 50);
  const cpuP99 = percentile(cpu, 99);
  return {
    bench: 'memory.lore_conditions_2000 (every when: condition of the cartridge, once per turn)',
    conditions: lore.conditions.sections.size,
    turns: TURNS,
    compile_ms: round(compileMs),
    avg_held: round(held / TURNS),
    avg_evaluated: round(evaluated / TURNS),
    p50_ms: round(percentile(wall, 50)),
    p99_ms: round(percentile(wall, 99)),
    cpu_p50_ms: round(cpuP50),
    cpu_p99_ms: round(cpuP99),
    world_rebuilt_avg_evaluated: round(allEvaluated / allChanged.length),
    world_rebuilt_cpu_p50_ms: round(percentile(allChanged, 50)),
    world_rebuilt_cpu_p99_ms: round(percentile(allChanged, 99)),
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
    step: () => {},
  };
  const runs = 200_000;
  for (let i = 0; i < runs; i++) closure(ctx);
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) closure(ctx);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / runs;
}

// ------------------------------------------------------------------------------ the long campaign

const CAMPAIGN_TURNS = 500;
const SESSION_TURNS = 100;
const CAMPAIGN_NPCS = 30;
const CAMPAIGN_PLACES = 10;
const PROMPT_BUDGET = 8_000;
const TARGET_IN_PROMPT = 0.95;

type Kind = 'recorded_once' | 'across_sessions' | 'true_when' | 'later_changed' | 'never_recorded';

interface Question {
  readonly kind: Kind;
  /** The fact asked about. */
  readonly factId: string;
  /** The turn asked at (what was true then). */
  readonly at: number;
  /** The ground truth: the predicate that held then, or null (unknown / not asserted). */
  readonly truth: string | null;
  /** Who the fact is about (the player asks them), for a question a turn's prompt must answer. */
  readonly subject?: string;
}

/**
 * A generated 500-turn campaign (five sessions of 100 turns): every turn a scene (the player with two of 30
 * characters somewhere), a fact one of them mentions (`clue <t>`), every 10th turn a fact of 50 turns
 * earlier changed (withdrawn, a new one recorded), every 7th turn someone moves. Returned with its log.
 */
function campaign(): { index: LedgerIndex; changed: Map<string, { at: number; by: string }> } {
  const index = new LedgerIndex();
  const start: LedgerEvent[] = [{ type: 'create_entity', entity: 'player', name: 'Wren' }];
  for (let p = 0; p < CAMPAIGN_PLACES; p++)
    start.push({ type: 'create_entity', entity: `place_${p}`, name: `Place ${p}` });
  for (let n = 0; n < CAMPAIGN_NPCS; n++)
    start.push({ type: 'create_entity', entity: `npc_${n}`, name: `Person ${n}` });
  index.append({ turn: 0, events: start });
  const changed = new Map<string, { at: number; by: string }>();
  for (let t = 1; t <= CAMPAIGN_TURNS; t++) {
    const a = t % CAMPAIGN_NPCS;
    const b = (t * 7 + 3) % CAMPAIGN_NPCS === a ? (a + 1) % CAMPAIGN_NPCS : (t * 7 + 3) % CAMPAIGN_NPCS;
    const events: LedgerEvent[] = [
      {
        type: 'set_scene',
        location: `place_${t % CAMPAIGN_PLACES}`,
        present: ['player', `npc_${a}`, `npc_${b}`],
      },
      { type: 'add_fact', fact_id: `clue_${t}`, subject: `npc_${a}`, predicate: `mentioned clue ${t}` },
    ];
    if (t % 10 === 0 && t > 50) {
      const old = `clue_${t - 50}`;
      events.push({ type: 'invalidate_fact', fact_id: old, reason: 'it changed' });
      events.push({
        type: 'add_fact',
        fact_id: `${old}_now`,
        subject: `npc_${(t - 50) % CAMPAIGN_NPCS}`,
        predicate: `changed clue ${t - 50} at ${t}`,
      });
      changed.set(old, { at: t, by: `${old}_now` });
    }
    if (t % 7 === 0)
      events.push({ type: 'set_current_location', entity: `npc_${b}`, location: `place_${t % 3}` });
    index.append({ turn: t, events });
  }
  return { index, changed };
}

/** Twenty questions of each kind, with the truth the generator knows (never read from the ledger). */
function questions(changed: ReadonlyMap<string, { at: number; by: string }>): Question[] {
  const out: Question[] = [];
  const last = CAMPAIGN_TURNS;
  const npcOf = (t: number) => `npc_${t % CAMPAIGN_NPCS}`;
  for (let i = 0; i < 20; i++) {
    // The last session (turns 401..500), facts no one changed.
    const once = CAMPAIGN_TURNS - SESSION_TURNS + 1 + i * 5 + 1;
    out.push({
      kind: 'recorded_once',
      factId: `clue_${once}`,
      at: last,
      truth: `mentioned clue ${once}`,
      subject: npcOf(once),
    });
    // Earlier sessions (before the last one): facts recorded 100 to 500 turns before the question.
    const early = 1 + i * 17;
    const earlyId = `clue_${early}`;
    const earlyTruth = changed.has(earlyId) ? null : `mentioned clue ${early}`;
    out.push({
      kind: 'across_sessions',
      factId: earlyId,
      at: last,
      truth: earlyTruth,
      subject: npcOf(early),
    });
    // What was true when: a changed fact, asked just before and after its change.
    const old = 10 + i * 10; // changed at old + 50
    out.push({
      kind: 'true_when',
      factId: `clue_${old}`,
      at: i % 2 === 0 ? old + 49 : old + 50,
      truth: i % 2 === 0 ? `mentioned clue ${old}` : null,
    });
    // Later changed: the value now is the new fact.
    out.push({
      kind: 'later_changed',
      factId: `clue_${old}_now`,
      at: last,
      truth: `changed clue ${old} at ${old + 50}`,
      subject: npcOf(old),
    });
    out.push({ kind: 'never_recorded', factId: `clue_${1_000 + i}`, at: last, truth: null });
  }
  return out;
}

/** The ledger's answer: the predicate of the fact that held at the turn, or null ("unknown"). */
function answer(index: LedgerIndex, q: Question): string | null {
  const fact = getFact(index.stateAt(q.at), q.factId);
  return fact !== undefined && factValidAt(fact, q.at) ? fact.predicate : null;
}

async function longCampaignRows(): Promise<Row[]> {
  const started = performance.now();
  const { index, changed } = campaign();
  const all = questions(changed);
  const byKind = new Map<Kind, { asked: number; right: number; needed: number; inPrompt: number }>();
  const cartridge = memoryCartridge();
  const world = index.current;
  for (const q of all) {
    const k = byKind.get(q.kind) ?? { asked: 0, right: 0, needed: 0, inPrompt: 0 };
    byKind.set(q.kind, k);
    k.asked++;
    if (answer(index, q) === q.truth) k.right++;
    // A turn that needs the fact: the player is with the one it is about and asks them (an 8,000-token budget).
    if (q.subject === undefined || q.truth === null) continue;
    k.needed++;
    const scene = applyBatch(
      world,
      [{ type: 'set_scene', location: 'place_0', present: ['player', q.subject] }],
      {
        turn: CAMPAIGN_TURNS + 1,
      },
    );
    const models = createScriptedModels({
      director: [{ text: 'Go on.' }],
      narrator: [{ text: 'They answer.' }],
    });
    const { record } = await runTurnToRecord({
      cartridge,
      state: JSON.parse(JSON.stringify(cartridge.rules.initialState)) as GameState,
      messages: [],
      input: `I ask ${q.subject} about what they told me long ago`,
      seed: 1,
      models,
      world: scene,
      ledgerTurn: CAMPAIGN_TURNS + 2,
      ledgerMode: 'off',
      limits: { directorPromptTokens: PROMPT_BUDGET, narratorPromptTokens: PROMPT_BUDGET },
    });
    const narrator = models.narrator.requests[0]!;
    const text = [narrator.system, ...narrator.messages.map((m) => m.content)].join('\n');
    const budgetKept = record.prompts.every((p) => p.tokens <= PROMPT_BUDGET);
    if (budgetKept && text.includes(`[${q.factId}]`) && text.includes(q.truth)) k.inPrompt++;
  }
  const rows: Row[] = [];
  let asked = 0;
  let right = 0;
  let needed = 0;
  let inPrompt = 0;
  for (const [kind, k] of byKind) {
    asked += k.asked;
    right += k.right;
    needed += k.needed;
    inPrompt += k.inPrompt;
    rows.push({
      bench: `memory.long_campaign_500.${kind}`,
      questions: k.asked,
      answered_from_ledger: round(k.right / k.asked),
      turns_needing_the_fact: k.needed,
      ...(k.needed === 0 ? {} : { in_narrator_prompt: round(k.inPrompt / k.needed) }),
    });
  }
  rows.push({
    bench:
      'memory.long_campaign_500 (a generated 500-turn campaign; questions answered by the ledger query API; the Narrator prompt of a turn that needs the fact, 8,000-token budget)',
    turns: CAMPAIGN_TURNS,
    facts: factCount(world),
    questions: asked,
    answered_from_ledger: round(right / asked),
    turns_needing_a_fact: needed,
    fact_in_prompt: round(inPrompt / needed),
    seconds: round((performance.now() - started) / 1000),
    target: `answered 100 %; the needed fact in the prompt in >= ${TARGET_IN_PROMPT * 100} % of turns`,
    pass: right === asked && inPrompt / needed >= TARGET_IN_PROMPT,
  });
  return rows;
}

/** A minimal cartridge for the campaign's turns (the ledger's player is `player`). */
function memoryCartridge(): Cartridge {
  const loaded = loadCartridgeFromFiles(
    new Map([
      [
        'yare.yaml',
        'version: "1.0"\nbot_name: "Campaign"\nstate_schema:\n  world:\n    visibility: public\n    day: { type: int, default: 1 }\n',
      ],
      ['bot_lore.md', '# The coast\nA grey coast of small towns.\n'],
    ]),
    'campaign',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}

export async function benchMemory(): Promise<Row[]> {
  return [conditionsRow(), ...(await longCampaignRows())];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchMemory()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
