// The compiler's passes: the shape pass reads YAML alone into the raw tree and reports nothing; the check
// pass reads only that tree and reports each shape problem when its walk reaches the node, so findings
// keep the order of the file.
import { isNode, LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { RawDocument } from '../../../src/core/yare/compile/raw-ast.ts';
import { shapeDocument } from '../../../src/core/yare/compile/shape.ts';
import { errorsOf } from '../../helpers/yare.ts';

const SCHEMA = `state_schema:
  player:
    hp: { type: int, default: 10 }
    bag: { type: list, default: [] }
`;

function shape(text: string): RawDocument {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  return shapeDocument({ src: { file: 'yare.yaml', lineCounter } }, doc);
}

/** Paths in `value` that hold a YAML node. */
function yamlNodesIn(value: unknown, path = '$', seen = new Set<unknown>()): string[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  if (isNode(value)) return [path];
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return entries.flatMap(([k, v]) => yamlNodesIn(v, `${path}.${String(k)}`, seen));
}

const EVERY_ACTION = `${SCHEMA}macros:
  bonus: "@ 2"
events:
  target: { inputs: { n: { type: int, default: 1 } }, steps: [] }
  all:
    inputs: [x]
    intents: [hit it]
    steps:
      - { action: set, var: state.player.hp, value: "@ macros.bonus" }
      - { action: set, var: state._pending_interaction, value: { resolver_event: target } }
      - { action: mutate, var: state.player.hp, op: add, value: 1 }
      - action: branch
        conditions:
          - { if: "@ state.player.hp > 1", steps: [{ action: note, message: "hi {state.player.hp}" }] }
          - { else: null, steps: [] }
      - { action: branch, if: "@ true", steps: [], else: [] }
      - { action: table_roll, roll: "@ 3", var: temp.t, table: { "1-5": a, "6+": b } }
      - { action: call, event: target, args: { n: 2 } }
      - { action: list_push, var: state.player.bag, item: x }
      - { action: list_remove, var: state.player.bag, index: 0 }
      - { action: dict_set, var: temp.d, key: k, value: 1 }
      - { action: dict_delete, var: temp.d, key: k }
      - { action: foreach, array: state.player.bag, item: it, steps: [{ action: note, message: "{it}" }] }
npc_templates:
  guard: { type: tag, description: a guard }
engine_settings: { max_batched_npcs: 2 }
`;

describe('the shape pass', () => {
  it('leaves no YAML node in the raw tree but the state_schema it hands to schema.ts', () => {
    const raw = shape(EVERY_ACTION);
    expect(raw.events.items.map((e) => e.name)).toEqual(['target', 'all']);
    const steps = raw.events.items[1]!.steps!.items;
    expect(steps.map((s) => s.kind)).toEqual([
      'set',
      'set',
      'mutate',
      'branch',
      'branch-if',
      'table_roll',
      'call',
      'list_push',
      'list_remove',
      'dict_set',
      'dict_delete',
      'foreach',
    ]);
    expect(isNode(raw.stateSchema)).toBe(true);
    expect(yamlNodesIn({ ...raw, stateSchema: null })).toEqual([]);
    expect(errorsOf(EVERY_ACTION)).toEqual([]);
  });

  it('keeps a problem on its node instead of reporting it', () => {
    const raw = shape(`events:
  e:
    steps:
      - { action: sett, var: temp.x, value: 1 }
      - { action: set, value: 1 }
`);
    const [bad, missing] = raw.events.items[0]!.steps!.items;
    expect(bad).toMatchObject({
      kind: 'invalid',
      problem: { code: 'YARE_BAD_STEP', place: { line: 4, col: 9 } },
    });
    expect(missing).toMatchObject({
      kind: 'set',
      target: {
        missing: { code: 'YARE_BAD_STEP', message: "events.e.steps[1]: 'set' needs a 'var' field." },
      },
    });
  });
});

describe('the check pass reports shape problems where its walk meets them', () => {
  it('a check finding before a shape problem stays before it, and after it stays after', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: set, var: state.player.hpp, value: 1 }
      - { action: set, value: 1 }
      - { action: note, message: "{state.nope}" }
`);
    expect(errors.map((e) => [e.code, e.place?.line])).toEqual([
      ['YARE_UNKNOWN_PATH', 8],
      ['YARE_BAD_STEP', 9],
      ['YARE_UNKNOWN_PATH', 10],
    ]);
  });

  it('within one step: the missing field, the target, then the value', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: dict_set, var: state.nope, value: "@ 1 +" }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_PATH', 'YARE_BAD_STEP', 'YARE_SYNTAX']);
    expect(errors[1]!.message).toContain("needs a 'key' field");
  });

  it('a problem inside a part the check skips is not reported: the arguments of a call to an unknown event', () => {
    const errors = errorsOf(`events:
  e:
    steps:
      - { action: call, event: nowhere, args: { a: "@ 1 +" } }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_EVENT']);
  });
});
