// Numbers beside their own sentences (issue 32, item 3): a change a field's bound cut short is shown once,
// beside the statement about that field, never beside one about another field. Checked on small notes,
// and on every shipped cartridge and every cartridge of ../shared: each public event run from states that
// put each bounded number one step from its bound (so the bound cuts the change), with several seeds, and
// every change shown in the offline prose must sit in a statement that names its field.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import {
  DiceRoller,
  type Dict,
  type DomainSchema,
  diffStates,
  EventRunner,
  type EventDef,
  type FieldSchema,
  publicEvents,
  toStateValue,
} from '../../../src/core/yare/index.ts';
import { withPlayerAsActor } from '../../../src/engine/turn/offline/actor.ts';
import { narrateOffline } from '../../../src/engine/turn/offline/narration.ts';
import { withRecordNumbers } from '../../../src/engine/turn/offline/numbers.ts';
import { ENGINE_TOOL_NAMES } from '../../../src/engine/turn/tools.ts';
import { sharedAvailable, sharedPath } from '../../helpers/shared.ts';
import { cartridgeAt, ROOT, SHARED_CARTRIDGES } from './helpers.ts';

const hp = (group: string, before: number, after: number) => ({ path: [group, 'hp'], before, after });

describe('withRecordNumbers: each change once, beside the statement about its field', () => {
  const fields = new Set(['hp', 'mana', 'gold']);

  it('a heal cut short by max shows beside "Restored 20 HP", not beside the mana or the status line', () => {
    const note = 'Player casts Heal! Consumed 10 mana. Restored 20 HP. Player HP: 100 | Mana: 40.';
    expect(withRecordNumbers(note, [hp('player', 94, 100)], fields)).toBe(
      'Player casts Heal! Consumed 10 mana. Restored 20 HP (player hp 94 → 100). Player HP: 100 | Mana: 40.',
    );
  });

  it('an amount counted in another field is never pinned to this one, even in a statement naming both', () => {
    const note = 'You spend 10 mana and restore 20 HP.';
    expect(withRecordNumbers(note, [hp('player', 94, 100)], fields)).toBe(
      'You spend 10 mana and restore 20 HP (player hp 94 → 100).',
    );
  });

  it('a statement that does not name the field is left alone ("Gold remaining: 15" with mana clamped)', () => {
    const mana = { path: ['player', 'mana'], before: 40, after: 50 };
    const note = 'Player rents a room for 5 gold. Fully restored HP and Mana. Gold remaining: 15.';
    expect(withRecordNumbers(note, [mana], fields)).toBe(note);
  });

  it('shows a change once across the notes of a turn', () => {
    const change = hp('player', 6, 0);
    const shown = new Set<typeof change>();
    const first = withRecordNumbers('It hits for 7 damage, leaving 0 HP.', [change], fields, shown);
    const second = withRecordNumbers('Another 9 damage to your HP.', [change], fields, shown);
    expect(first).toBe('It hits for 7 damage (player hp 6 → 0), leaving 0 HP.');
    expect(second).toBe('Another 9 damage to your HP.');
  });
});

const SHIPPED = readdirSync(resolve(ROOT, 'cartridges'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => resolve(ROOT, 'cartridges', d.name));

/** Seeds each event is run with from each state. */
const SEEDS = [0, 1, 2, 3, 4, 5];
const SHOWN = /\(([a-z_ ]+) (-?\d+(?:\.\d+)?) → (-?\d+(?:\.\d+)?)\)/g;
const CLAUSE_END = /(?<=[.!?;|])\s+/;

function boundedNumbers(schema: DomainSchema): FieldSchema[] {
  const out: FieldSchema[] = [];
  const walk = (node: DomainSchema) => {
    for (const child of node.children.values())
      if (child.kind === 'domain') walk(child);
      else if (
        (child.type === 'int' || child.type === 'float') &&
        (child.min !== undefined || child.max !== undefined)
      )
        out.push(child);
  };
  walk(schema);
  return out;
}

function withValue(state: Dict, path: readonly string[], value: number): Dict {
  const copy = structuredClone(state) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return copy as Dict;
}

/** The initial state, and for each bounded number a state one step inside each of its bounds. */
function statesNearBounds(cartridge: Cartridge): Dict[] {
  const initial = cartridge.rules.initialState as Dict;
  const states = [initial];
  for (const field of boundedNumbers(cartridge.rules.schema)) {
    if (field.max !== undefined) states.push(withValue(initial, field.path, field.max - 1));
    if (field.min !== undefined) states.push(withValue(initial, field.path, field.min + 1));
  }
  return states;
}

/** Inputs for a run: the first enum value, the player for an actor input, else a default or a plain value. */
function inputsFor(cartridge: Cartridge, event: EventDef): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const spec of event.inputList) {
    if (spec.enum?.length) out[spec.name] = toStateValue(spec.enum[0]!);
    else if (!spec.hasDefault && spec.type !== undefined)
      out[spec.name] = spec.type === 'int' || spec.type === 'float' ? 1 : 'x';
  }
  return withPlayerAsActor(cartridge.rules, event.inputList, out);
}

/** Every change shown in the prose that sits in a statement not naming its field, or is shown twice. */
function misplaced(told: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const clause of told.split(CLAUSE_END)) {
    for (const match of clause.matchAll(SHOWN)) {
      const field = match[1]!.split(' ').at(-1)!;
      const rest = clause.replace(match[0], '');
      if (!new RegExp(`\\b${field}\\b`, 'i').test(rest)) problems.push(`"${clause}" shows ${match[0]}`);
      if (seen.has(match[0])) problems.push(`${match[0]} shown twice: ${told}`);
      seen.add(match[0]);
    }
  }
  return problems;
}

/** Cartridges whose notes report an amount a bound cuts short: the check must have seen some there. */
const REPORTS_CUT_AMOUNTS = new Set(['seed-eldoria']);

function checkNumbers(name: string, load: () => Promise<Cartridge>) {
  it('shows every change a bound cut short beside a statement about its field, once', async () => {
    const cartridge = await load();
    const { rules } = cartridge;
    const problems: string[] = [];
    let shownChanges = 0;
    for (const state of statesNearBounds(cartridge))
      for (const event of publicEvents(rules).filter((e) => !ENGINE_TOOL_NAMES.has(e.name)))
        for (const seed of SEEDS) {
          const result = new EventRunner(rules, state, DiceRoller.fromSeed(seed), 50_000).run(
            event.name,
            inputsFor(cartridge, event) as never,
          );
          if (!result.ok) continue;
          const changes = diffStates(state, result.state);
          const told = narrateOffline(rules, { notes: result.notes, changes, lore: cartridge.lore, seed });
          shownChanges += [...told.matchAll(SHOWN)].length;
          problems.push(...misplaced(told).map((p) => `${event.name} (seed ${seed}): ${p}`));
        }
    expect(problems).toEqual([]);
    if (REPORTS_CUT_AMOUNTS.has(name)) expect(shownChanges).toBeGreaterThan(0);
  });
}

describe.each(SHIPPED)('shipped cartridge %s', (dir) => {
  checkNumbers(dir.split('/').at(-1)!, () => cartridgeAt(dir));
});

describe.skipIf(!sharedAvailable('numbers beside their sentences on the shared cartridges', 'cartridges'))(
  'shared cartridges',
  () => {
    describe.each(SHARED_CARTRIDGES)('%s', (name) => {
      checkNumbers(name, () => cartridgeAt(sharedPath('cartridges', name)));
    });
  },
);
