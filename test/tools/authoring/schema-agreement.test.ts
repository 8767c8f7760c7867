// The editor JSON Schema is generated from the yare.yaml grammar the compiler's shape passes read
// (src/core/yare/grammar.ts). This runs both over one corpus of files — the shipped cartridge and
// templates, every key of every step, each required key left out, each enum given a wrong value, the
// one-of groups, the bounds, unknown keys in every section — and asserts that the generated schema (as a
// JSON Schema validator reads it) accepts exactly the files the compiler accepts without a finding.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { STEP_SHAPES } from '../../../src/core/yare/index.ts';
import { checkShape, jsonSchemaOf } from '../../../src/tools/authoring/schema/index.ts';
import { YARE_FILE } from '../../../src/tools/authoring/schema/yare-shape.ts';
import { ROOT } from '../../apps/cli/helpers.ts';

const LORE = '# Lore\n\nA place.\n';
const validate = new Ajv({ strict: false, allErrors: true }).compile(jsonSchemaOf('yare'));

function compile(yare: string) {
  const result = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', yare],
      ['bot_lore.md', LORE],
    ]),
    't',
  );
  return { errors: result.ok ? [] : result.errors, warnings: result.warnings };
}

/** The compiler's verdict: clean (no error, no warning) or not, with what it said. */
function compilerClean(yare: string): { clean: boolean; said: string } {
  const { errors, warnings } = compile(yare);
  return {
    clean: errors.length + warnings.length === 0,
    said: [...errors, ...warnings].map((d) => d.message).join('\n'),
  };
}

/** The generated JSON Schema's verdict on the same file, read as JSON. */
function schemaValid(yare: string): { valid: boolean; said: string } {
  const valid = validate(parseDocument(yare).toJS()) as boolean;
  return { valid, said: JSON.stringify(validate.errors ?? []) };
}

function shapeFindings(yare: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yare, { lineCounter });
  return checkShape(doc.contents, YARE_FILE, { file: 'yare.yaml', lineCounter });
}

function cartridgeWithStep(step: string): string {
  return `state_schema:
  a: { type: int, default: 0 }
  l: { type: list, default: [1, 2] }
  d: { type: dict, default: {} }
  c: { type: collection, record: { n: { type: int } } }
events:
  other:
    steps:
      - { action: note, message: hi }
  ev:
    inputs:
      x: { type: int, default: 0 }
    steps:
      - ${step}
`;
}

const VALUES: Record<string, string> = {
  var: 'state.a',
  value: '1',
  op: 'add',
  conditions: '[{ if: "@ true", steps: [{ action: note, message: hi }] }]',
  if: '"@ true"',
  steps: '[{ action: note, message: hi }]',
  else: '[{ action: note, message: hi }]',
  roll: '"@ roll(1d6)"',
  table: '{ "1-6": 1 }',
  event: 'other',
  args: '{}',
  message: 'hi',
  item: '1',
  index: '0',
  key: '"\'k\'"',
  array: '"@ state.l"',
  in: 'state.c',
  record: '{ n: 1 }',
};

type Action = keyof typeof STEP_SHAPES;
const ACTIONS = Object.keys(STEP_SHAPES) as Action[];

/** The keys a step needs besides `key` so that it compiles: required ones and the compiler's pairings. */
function companions(action: Action, key: string): string[] {
  if (action === 'branch') return key === 'conditions' ? [] : ['if', 'steps'];
  if (action === 'list_remove') return key === 'var' ? ['var', 'index'] : ['var'];
  if (action === 'list_push') return key === 'value' ? ['var'] : ['var', 'item'];
  const shape: { readonly required?: readonly string[] } = STEP_SHAPES[action];
  return [...(shape.required ?? [])];
}

function stepText(action: string, keys: readonly string[], extra = ''): string {
  const varValue = action.startsWith('list_')
    ? 'state.l'
    : action.startsWith('dict_')
      ? 'state.d'
      : action === 'create'
        ? 'temp.id'
        : 'state.a';
  const value = (k: string) =>
    k === 'var'
      ? varValue
      : action === 'foreach' && (k === 'item' || k === 'index')
        ? `loop_${k}`
        : VALUES[k];
  const parts = [`action: ${action}`, ...[...new Set(keys)].map((k) => `${k}: ${value(k)}`)];
  return `{ ${parts.join(', ')}${extra} }`;
}

type Verdict = 'accepted' | 'refused';
const corpus: Array<[name: string, text: string, expected: Verdict]> = [];

for (const dir of ['cartridges/lanternmere', 'templates/minimal', 'templates/combat'])
  corpus.push([dir, readFileSync(join(ROOT, dir, 'yare.yaml'), 'utf8'), 'accepted']);

for (const action of ACTIONS) {
  const keys = Object.keys(STEP_SHAPES[action].props);
  for (const key of keys)
    corpus.push([
      `${action} with ${key}`,
      cartridgeWithStep(stepText(action, [...companions(action, key), key])),
      'accepted',
    ]);
  corpus.push([
    `${action} with an unknown key`,
    cartridgeWithStep(stepText(action, [...companions(action, keys[0]!), keys[0]!], ', bogus_key: 1')),
    'refused',
  ]);
  const required: readonly string[] =
    (STEP_SHAPES[action] as { required?: readonly string[] }).required ?? [];
  for (const key of required)
    corpus.push([
      `${action} without its required ${key}`,
      cartridgeWithStep(
        stepText(
          action,
          companions(action, key).filter((k) => k !== key),
        ),
      ),
      'refused',
    ]);
}

const top = (body: string) =>
  `state_schema:\n  a: { type: int, default: 0 }\nevents:\n  e:\n    steps: []\n${body}`;
corpus.push(
  ['a step with an unknown action', cartridgeWithStep('{ action: teleport }'), 'refused'],
  [
    'mutate with an unknown op',
    cartridgeWithStep('{ action: mutate, var: state.a, op: pow, value: 2 }'),
    'refused',
  ],
  [
    'list_remove with index and value',
    cartridgeWithStep('{ action: list_remove, var: state.l, index: 0, value: 1 }'),
    'refused',
  ],
  ['list_remove with neither', cartridgeWithStep('{ action: list_remove, var: state.l }'), 'refused'],
  [
    'list_push with neither item nor value',
    cartridgeWithStep('{ action: list_push, var: state.l }'),
    'refused',
  ],
  [
    'list_push with item and value',
    cartridgeWithStep('{ action: list_push, var: state.l, item: 1, value: 2 }'),
    'accepted',
  ],
  [
    'table_roll with negative and spaced keys',
    cartridgeWithStep(
      '{ action: table_roll, roll: "@ roll(1d6)", var: state.a, table: { "-3--1": 0, "0 - 2": 1, "3": 2, "4 +": 3 } }',
    ),
    'accepted',
  ],
  [
    'table_roll with a word for a key',
    cartridgeWithStep('{ action: table_roll, roll: "@ roll(1d6)", var: state.a, table: { many: 1 } }'),
    'refused',
  ],
  [
    'a field of an unknown type',
    'state_schema:\n  a: { type: integer, default: 0 }\nevents: {}\n',
    'refused',
  ],
  [
    'a field of every type',
    'state_schema:\n  i: { type: int, default: 0 }\n  f: { type: float, default: 0.5 }\n  b: { type: bool, default: false }\n  s: { type: string, default: "" }\n  l: { type: list, default: [] }\n  d: { type: dict, default: {} }\nevents: {}\n',
    'accepted',
  ],
  [
    'a collection with its record, parent, id_prefix and default',
    'state_schema:\n  c:\n    type: collection\n    parent: at\n    id_prefix: o\n    record:\n      at: { type: string, default: "" }\n      n: { type: int, default: 1, min: 0, visibility: private }\n    default:\n      box: { n: 2 }\nevents: {}\n',
    'accepted',
  ],
  [
    'a record property with an unknown key',
    'state_schema:\n  c: { type: collection, record: { n: { type: int, bogus: 1 } } }\nevents: {}\n',
    'refused',
  ],
  [
    'a record property that is a collection',
    'state_schema:\n  c: { type: collection, record: { n: { type: collection } } }\nevents: {}\n',
    'refused',
  ],
  [
    'a macro with parameters that dispatches',
    'state_schema: {}\nmacros:\n  m:\n    params: [x]\n    by: "@ x"\n    cases: { a: "@ 1", "b, c": "@ 2" }\n    value: "@ 0"\nevents: {}\n',
    'accepted',
  ],
  [
    'a macro with parameters and an unknown key',
    'state_schema: {}\nmacros:\n  m:\n    params: [x]\n    value: "@ 0"\n    bogus: 1\nevents: {}\n',
    'refused',
  ],
  [
    'an after_event hook',
    'state_schema: {}\nevents:\n  h:\n    trigger_on: after_event\n    inputs: { event: { type: string } }\n    steps: []\n',
    'accepted',
  ],
  [
    'a field with a wrong visibility',
    'state_schema:\n  a: { type: int, default: 0, visibility: secret }\nevents: {}\n',
    'refused',
  ],
  [
    'a domain with settings',
    'state_schema:\n  p:\n    visibility: public\n    npc_visibility: true\n    description: the player\n    hp: { type: int, default: 1 }\nevents: {}\n',
    'accepted',
  ],
  [
    'an input of an unknown type',
    top('').replace('    steps: []', '    inputs:\n      x: { type: number }\n    steps: []'),
    'refused',
  ],
  [
    'typed and listed inputs',
    'events:\n  e:\n    inputs:\n      x: { type: string, enum: [a, b], default: a, description: d }\n    steps: []\n  f:\n    inputs: [y, z]\n    steps: []\n',
    'accepted',
  ],
  ['trigger_on a wrong value', 'events:\n  e:\n    trigger_on: dawn\n    steps: []\n', 'refused'],
  [
    'trigger_on cycle_tick, internal, intents',
    'events:\n  e:\n    trigger_on: cycle_tick\n    internal: true\n    intents: [rest]\n    description: d\n    steps: []\n',
    'accepted',
  ],
  ['internal not a boolean', 'events:\n  e:\n    internal: maybe\n    steps: []\n', 'refused'],
  [
    'an npc template of a wrong type',
    top('npc_templates:\n  n: { type: crowd, description: d }\n'),
    'refused',
  ],
  ['an npc template without a description', top('npc_templates:\n  n: { type: name }\n'), 'refused'],
  [
    'an npc template with a fractional credit',
    top('npc_templates:\n  n: { type: tag, description: d, credit: 1.5 }\n'),
    'refused',
  ],
  [
    'an npc template with every key',
    top('npc_templates:\n  n: { type: tag, description: d, credit: 2 }\n'),
    'accepted',
  ],
  [
    'engine settings at their lower bounds',
    top('engine_settings:\n  npc_min_credit_threshold: 0\n  max_batched_npcs: 1\n'),
    'accepted',
  ],
  ['max_batched_npcs just below its bound', top('engine_settings:\n  max_batched_npcs: 0\n'), 'refused'],
  [
    'npc_min_credit_threshold just below its bound',
    top('engine_settings:\n  npc_min_credit_threshold: -1\n'),
    'refused',
  ],
  ['separate_npc not a boolean', top('separate_npc: sometimes\n'), 'refused'],
  [
    'the other top-level keys',
    top('version: "1.0"\nbot_name: Bot\nseparate_npc: false\nmacros:\n  m: "@ 1 + 1"\n'),
    'accepted',
  ],
  ['invariants by name', top('invariants:\n  sane: "@ state.a >= 0"\n'), 'accepted'],
  ['an unknown top-level key', top('bogus_key: 1\n'), 'refused'],
  ['an unknown event key', 'events:\n  e:\n    bogus_key: 1\n    steps: []\n', 'refused'],
  [
    'an unknown input key',
    'events:\n  e:\n    inputs:\n      x: { type: int, bogus_key: 1 }\n    steps: []\n',
    'refused',
  ],
  [
    'an unknown field key',
    'state_schema:\n  a: { type: int, default: 0, bogus_key: 1 }\nevents: {}\n',
    'refused',
  ],
  [
    'an unknown npc template key',
    top('npc_templates:\n  n: { type: name, description: d, bogus_key: 1 }\n'),
    'refused',
  ],
  ['an unknown engine setting', top('engine_settings:\n  bogus_key: 1\n'), 'refused'],
  [
    'an unknown key in a branch condition',
    'events:\n  e:\n    steps:\n      - action: branch\n        conditions:\n          - { if: "@ true", steps: [], bogus_key: 1 }\n',
    'refused',
  ],
  ['an event name that is not an identifier', 'events:\n  bad-name:\n    steps: []\n', 'refused'],
  ['a macro name that is not an identifier', top('macros:\n  bad-name: "@ 1"\n'), 'refused'],
);

describe('the generated yare.yaml JSON Schema accepts what the compiler accepts', () => {
  it('the corpus holds files of both kinds for every action', () => {
    expect(corpus.filter(([, , v]) => v === 'accepted').length).toBeGreaterThan(40);
    expect(corpus.filter(([, , v]) => v === 'refused').length).toBeGreaterThan(40);
  });

  for (const [name, text, expected] of corpus) {
    it(`${name}: ${expected} by both`, () => {
      const compiler = compilerClean(text);
      const schema = schemaValid(text);
      expect(compiler.clean, `compiler on ${name}:\n${compiler.said}`).toBe(expected === 'accepted');
      expect(schema.valid, `schema on ${name}: ${schema.said}`).toBe(expected === 'accepted');
    });
  }
});

describe('the shape checker the language server uses reads the same grammar', () => {
  it('the shipped cartridge and both templates pass with nothing to report', () => {
    for (const dir of ['cartridges/lanternmere', 'templates/minimal', 'templates/combat']) {
      expect(shapeFindings(readFileSync(join(ROOT, dir, 'yare.yaml'), 'utf8'))).toEqual([]);
    }
  });

  const sections: Array<[string, string, 'error' | 'warning']> = [
    ['top level', 'bogus_key: 1\nstate_schema: {}\nevents: {}\n', 'warning'],
    ['event', 'events:\n  e:\n    bogus_key: 1\n    steps: []\n', 'error'],
    ['input', 'events:\n  e:\n    inputs:\n      x: { type: int, bogus_key: 1 }\n    steps: []\n', 'error'],
    ['field', 'state_schema:\n  a: { type: int, default: 0, bogus_key: 1 }\nevents: {}\n', 'error'],
    [
      'npc template',
      'npc_templates:\n  n: { type: name, description: d, bogus_key: 1 }\nevents: {}\n',
      'warning',
    ],
    ['engine settings', 'engine_settings:\n  bogus_key: 1\nevents: {}\n', 'warning'],
    [
      'branch condition',
      'events:\n  e:\n    steps:\n      - action: branch\n        conditions:\n          - { if: "@ true", steps: [], bogus_key: 1 }\n',
      'error',
    ],
  ];
  for (const [section, text, severity] of sections) {
    it(`an unknown key in ${section === 'top level' ? 'the top level' : `an ${section}`} is reported by both (${severity}), on its line`, () => {
      const compiled = compile(text);
      const reported = severity === 'error' ? compiled.errors : compiled.warnings;
      expect(reported.map((d) => d.message).join('\n')).toContain('bogus_key');
      const shape = shapeFindings(text).filter((f) => f.message.includes("unknown key 'bogus_key'"));
      expect(shape.map((f) => f.severity)).toEqual([severity]);
      const line = text.split('\n').findIndex((l) => l.includes('bogus_key')) + 1;
      expect(shape[0]!.place?.line).toBe(line);
    });
  }

  it('list_remove with both index and value: the checker names the one-of group', () => {
    const text = cartridgeWithStep('{ action: list_remove, var: state.l, index: 0, value: 1 }');
    expect(shapeFindings(text).map((f) => f.message)).toEqual([
      "file.events.ev.steps[0] takes only one of 'index' or 'value'.",
    ]);
    const none = cartridgeWithStep('{ action: list_push, var: state.l }');
    expect(shapeFindings(none).map((f) => f.message)).toEqual([
      "file.events.ev.steps[0] needs 'item' or 'value'.",
    ]);
  });
});
