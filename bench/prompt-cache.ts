// Prompt caching and calls per turn, measured on a 30-turn game of the demo cartridge with
// scripted models (what the engine sends does not depend on the model). For each role, the share of a
// turn's request that is byte-identical to the previous turn's request from the start (system prompt,
// tool definitions, then the messages, in the order providers read them): what a prefix cache can reuse.
// Measured with short narrations (~330 characters a turn, the history stays under the roles' 2,000-token
// caps) and long ones (~1,600 characters, five fill the cap, so the token fit trims the history): each turn
// adds the new story messages and a new final message, neither of which a cache can hold, so the share
// falls as narrations grow (an upper bound of 1 − (new messages + final message) / request). A third game
// has the Narrator record a new entity and a fact every turn: the world summary, part of the final message,
// then grows and changes every turn.
// Calls per ordinary turn are counted for a Director that writes directives beside its rule calls and for
// one that sends the calls alone. Standalone: `npx tsx bench/prompt-cache.ts`.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCartridge } from '../src/adapters/files/index.ts';
import type { World } from '../src/core/ledger/index.ts';
import { createScriptedModels } from '../src/adapters/llm/scripted.ts';
import type { ModelRequest } from '../src/adapters/llm/types.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { runTurn } from '../src/engine/turn/run-turn.ts';
import type { GameState, StoryMessage, TurnRecord } from '../src/engine/turn/types.ts';

const TURNS = 30;
const DIRECTIVES = '### 1. Outcomes\nThe player checks the pack.\n### 3. Scene\nFog over the water.';

/**
 * What a provider reads, in order: the system prompt, the tools, the messages. The engine's
 * `cacheBreakpoint` flag is left out: it is not content (Anthropic gets a cache marker, others nothing).
 */
function wire(request: ModelRequest): string {
  const messages = request.messages.map((message) => {
    if (!('cacheBreakpoint' in message)) return message;
    const { cacheBreakpoint: _marker, ...content } = message;
    return content;
  });
  return JSON.stringify({ system: request.system, tools: request.tools ?? [], messages });
}

type Narration = 'short' | 'long';

const strangerArrives = (t: number) => [
  {
    event_type: 'create_entity',
    entity: `stranger_${t}`,
    name: `Stranger number ${t}`,
    entity_type: 'person',
  },
  { event_type: 'add_fact', subject: `stranger_${t}`, predicate: `arrived on turn ${t}` },
];
const NARRATION: Record<Narration, (turn: number) => string> = {
  short: (t) => `Turn ${t}. You open the pack by lamplight; the fog presses at the shutters. `.repeat(4),
  long: (t) =>
    `Turn ${t}. You open the pack by lamplight; the fog presses at the shutters, and somewhere below the plank-ways an eel turns over in the black water. `.repeat(
      11,
    ),
};

function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

async function game(habit: 'text' | 'calls-only', narration: Narration = 'short', growWorld = false) {
  const loaded = await loadCartridge(join(PROJECT_ROOT, 'cartridges', 'lanternmere'));
  if (!loaded.ok) throw new Error('the demo cartridge does not load');
  const cartridge = loaded.cartridge;
  let state = JSON.parse(JSON.stringify(cartridge.rules.initialState)) as GameState;
  let world: World | undefined;
  const messages: StoryMessage[] = cartridge.firstMessage
    ? [{ role: 'assistant', content: cartridge.firstMessage }]
    : [];
  const director: string[] = [];
  const narrator: string[] = [];
  const calls: number[] = [];
  for (let t = 1; t <= TURNS; t++) {
    const call = { name: 'check_pack', args: {} };
    const models = createScriptedModels({
      director: [habit === 'text' ? { text: DIRECTIVES, toolCalls: [call] } : { toolCalls: [call] }],
      narrator: [
        {
          text: NARRATION[narration](t),
          // The Narrator records a new entity and a fact (inline ledger): the world summary in the final
          // message grows and changes every turn.
          ...(growWorld
            ? { toolCalls: [{ name: 'record_world_changes', args: { events: strangerArrives(t) } }] }
            : {}),
        },
      ],
      npc: [],
    });
    let record: TurnRecord | undefined;
    for await (const event of runTurn({
      cartridge,
      state,
      messages,
      input: `I check my pack again (${t})`,
      seed: t,
      models,
      ...(world === undefined ? {} : { world }),
      ledgerTurn: t,
    })) {
      if (event.type === 'done') record = event.record;
    }
    if (record === undefined) throw new Error(`turn ${t} gave no record`);
    calls.push(models.calls.length);
    director.push(wire(models.director.requests[0]!));
    narrator.push(wire(models.narrator.requests[0]!));
    state = record.stateAfter;
    world = record.ledger.worldAfter;
    messages.push(...record.messages);
  }
  const share = (requests: string[]): number => {
    let shared = 0;
    let total = 0;
    for (let i = 1; i < requests.length; i++) {
      shared += sharedPrefix(requests[i - 1]!, requests[i]!);
      total += requests[i]!.length;
    }
    return shared / total;
  };
  return { director: share(director), narrator: share(narrator), calls };
}

export async function benchPromptCache(): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const text = await game('text');
  const long = await game('text', 'long');
  const growing = await game('text', 'short', true);
  for (const [narration, result] of [
    ['short narrations, ~330 chars a turn', text],
    ['long narrations, ~1,600 chars a turn', long],
    ['short narrations, world +1 entity +1 fact a turn', growing],
  ] as const) {
    for (const role of ['director', 'narrator'] as const) {
      rows.push({
        name: `cacheable prefix, ${role}, ${narration} (bytes shared with the previous turn's request / request bytes, turns 2–${TURNS})`,
        share: Number(result[role].toFixed(3)),
        target: '≥ 0.85',
        pass: result[role] >= 0.85,
      });
    }
  }
  const alone = await game('calls-only');
  for (const [habit, result] of [
    ['directives beside the calls', text],
    ['calls without text', alone],
  ] as const) {
    const max = Math.max(...result.calls);
    rows.push({
      name: `model calls per ordinary turn (Director habit: ${habit})`,
      calls: max,
      target: '= 2',
      pass: result.calls.every((n) => n === 2),
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchPromptCache()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
