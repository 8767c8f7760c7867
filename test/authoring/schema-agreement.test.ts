// The editor schema and the rules compiler are two readers of one language; this proves they agree.
// Every key the yare.yaml shape allows compiles, and an unknown key in each section is reported by both
// (the compiler refuses it, or warns that it is ignored, where the schema marks it a warning).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkShape, jsonSchemaOf } from '../../src/tools/authoring/schema/index.ts';
import { STEP_SHAPES, YARE_FILE } from '../../src/tools/authoring/schema/yare-shape.ts';
import { loadCartridgeFromFiles } from '../../src/core/cartridge/index.ts';
import { ROOT } from '../cli/helpers.ts';

const LORE = '# Lore\n\nA place.\n';

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
};

/** The keys a step needs besides `key` so that it compiles: required ones and the compiler's pairings. */
function companions(action: string, key: string): string[] {
  if (action === 'branch') return key === 'conditions' ? [] : ['if', 'steps'];
  if (action === 'list_remove') return key === 'var' ? ['var', 'index'] : ['var'];
  if (action === 'list_push') return ['var', 'item'];
  return [...(STEP_SHAPES[action]!.required ?? [])];
}

function stepText(action: string, keys: string[]): string {
  const varValue = action.startsWith('list_')
    ? 'state.l'
    : action.startsWith('dict_')
      ? 'state.d'
      : 'state.a';
  const value = (k: string) =>
    k === 'var'
      ? varValue
      : action === 'foreach' && (k === 'item' || k === 'index')
        ? `loop_${k}`
        : VALUES[k];
  const parts = [`action: ${action}`, ...[...new Set(keys)].map((k) => `${k}: ${value(k)}`)];
  return `{ ${parts.join(', ')} }`;
}

describe('the yare.yaml schema agrees with the compiler', () => {
  it('the shipped cartridge and both templates pass the shape check with nothing to report', () => {
    for (const dir of ['cartridges/lanternmere', 'templates/minimal', 'templates/combat']) {
      expect(shapeFindings(readFileSync(join(ROOT, dir, 'yare.yaml'), 'utf8'))).toEqual([]);
    }
  });

  for (const [action, shape] of Object.entries(STEP_SHAPES)) {
    it(`every key the schema allows on a '${action}' step compiles`, () => {
      for (const key of Object.keys(shape.props)) {
        const text = cartridgeWithStep(stepText(action, [...companions(action, key), key]));
        expect(compile(text).errors, `${action}.${key}`).toEqual([]);
        expect(shapeFindings(text), `${action}.${key}`).toEqual([]);
      }
    });

    it(`an unknown key on a '${action}' step is refused by both`, () => {
      const keys = companions(action, Object.keys(shape.props)[0]!);
      const text = cartridgeWithStep(
        `${stepText(action, [...keys, Object.keys(shape.props)[0]!]).slice(0, -2)}, bogus_key: 1 }`,
      );
      expect(
        compile(text)
          .errors.map((e) => e.message)
          .join('\n'),
      ).toContain("no field 'bogus_key'");
      expect(
        shapeFindings(text)
          .map((f) => f.message)
          .join('\n'),
      ).toContain("unknown key 'bogus_key'");
    });
  }

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
    it(`an unknown key in ${section === 'top level' ? 'the top level' : `an ${section}`} is reported by both (${severity})`, () => {
      const compiled = compile(text);
      const reported = severity === 'error' ? compiled.errors : compiled.warnings;
      expect(reported.map((d) => d.message).join('\n')).toContain('bogus_key');
      const shape = shapeFindings(text).filter((f) => f.message.includes("unknown key 'bogus_key'"));
      expect(shape.map((f) => f.severity)).toEqual([severity]);
      const line = text.split('\n').findIndex((l) => l.includes('bogus_key')) + 1;
      expect(shape[0]!.place?.line).toBe(line);
    });
  }

  it('the JSON Schema is generated from the same description: one closed variant per action', () => {
    const schema = jsonSchemaOf('yare') as {
      definitions: {
        step: { allOf: Array<{ if: unknown; then: { properties: object; additionalProperties: boolean } }> };
      };
    };
    const variants = schema.definitions.step.allOf;
    expect(variants).toHaveLength(Object.keys(STEP_SHAPES).length);
    for (const [i, [action, shape]] of Object.entries(STEP_SHAPES).entries()) {
      expect(variants[i]!.if).toEqual({ properties: { action: { const: action } }, required: ['action'] });
      expect(Object.keys(variants[i]!.then.properties).sort()).toEqual(
        ['action', ...Object.keys(shape.props)].sort(),
      );
      expect(variants[i]!.then.additionalProperties).toBe(false);
    }
  });
});
