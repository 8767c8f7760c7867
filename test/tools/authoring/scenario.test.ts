// Scenario files: parse errors at file:line:col, every step kind and expectation, failures at the
// expectation's place, properties over seed ranges (reporting the first failing seed), saves, limits.

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROPERTY_SEEDS, MAX_SCENARIO_STEPS } from '../../../src/tools/authoring/scenario/limits.ts';
import { parseScenarioFile } from '../../../src/tools/authoring/scenario/parse.ts';
import { type RunContext, runProperty, runScenario } from '../../../src/tools/authoring/scenario/run.ts';
import { runSuite } from '../../../src/tools/authoring/suite.ts';
import { scaffoldCartridge } from '../../../src/tools/authoring/scaffold.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';

let dir: string;
let cartridge: Cartridge;
let ctx: RunContext;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-scenario-'));
  expect(scaffoldCartridge(join(dir, 'gull'), 'minimal').ok).toBe(true);
  const loaded = await loadCartridge(join(dir, 'gull'));
  if (!loaded.ok) throw new Error('template does not load');
  cartridge = loaded.cartridge;
  ctx = { cartridge, readSave: () => ({ ok: false, message: 'no saves here' }) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function parse(text: string) {
  const parsed = parseScenarioFile(text, 'tests/t.yaml');
  if (!parsed.ok)
    throw new Error(parsed.errors.map((e) => `${e.place?.line}:${e.place?.col} ${e.message}`).join('\n'));
  return parsed.file;
}
function parseErrors(text: string): string[] {
  const parsed = parseScenarioFile(text, 'tests/t.yaml');
  if (parsed.ok) throw new Error('expected errors');
  return parsed.errors.map((e) => `${e.place?.file}:${e.place?.line}:${e.place?.col}: ${e.message}`);
}

describe('parsing scenario files', () => {
  it('an unknown key, with did-you-mean, at its place', () => {
    expect(parseErrors('scenarios:\n  - name: a\n    stepz: []\n')).toEqual([
      expect.stringMatching(
        /^tests\/t\.yaml:3:5: file\.scenarios\[0\]: unknown key 'stepz'.*Did you mean `steps`\?/,
      ),
      expect.stringMatching(/^tests\/t\.yaml:2:5: file\.scenarios\[0\] needs 'steps'/),
    ]);
  });

  it('a step needs exactly one of event, turn or minigame; an expectation exactly one kind', () => {
    expect(parseErrors('scenarios:\n  - name: a\n    steps:\n      - { event: x, turn: hi }\n')[0]).toMatch(
      /^tests\/t\.yaml:4:9: A step has exactly one of event, turn or minigame; this one has event and turn\./,
    );
    expect(
      parseErrors(
        'scenarios:\n  - name: a\n    steps:\n      - event: x\n        expect:\n          - { note: a, narration: b }\n',
      )[0],
    ).toMatch(/^tests\/t\.yaml:6:13: An expectation has exactly one of/);
    expect(
      parseErrors(
        'scenarios:\n  - name: a\n    steps:\n      - event: x\n        expect:\n          - { equals: 3 }\n',
      )[0],
    ).toContain("'equals' needs a path:");
  });

  it('names are unique in a file; seeds are [first, last] within the limit', () => {
    expect(
      parseErrors(
        'scenarios:\n  - { name: a, steps: [{ event: x }] }\n  - { name: a, steps: [{ event: x }] }\n',
      )[0],
    ).toContain("Two scenarios are named 'a'");
    const property = (first: number, last: number) =>
      `properties:\n  - { name: p, seeds: [${first}, ${last}], steps: [{ event: light_lamp }], always: [{ check: "@ true" }] }\n`;
    expect(parse(property(1, MAX_PROPERTY_SEEDS)).properties).toHaveLength(1);
    expect(parseErrors(property(1, MAX_PROPERTY_SEEDS + 1))[0]).toContain(
      `the limit is ${MAX_PROPERTY_SEEDS}`,
    );
    expect(parseErrors(property(5, 4))[0]).toContain('first <= last');
  });

  it(`at most ${MAX_SCENARIO_STEPS} steps`, () => {
    const steps = (n: number) =>
      `scenarios:\n  - name: a\n    steps:\n${'      - event: light_lamp\n'.repeat(n)}`;
    expect(parse(steps(MAX_SCENARIO_STEPS)).scenarios[0]!.steps).toHaveLength(MAX_SCENARIO_STEPS);
    expect(parseErrors(steps(MAX_SCENARIO_STEPS + 1))[0]).toContain('MAX_SCENARIO_STEPS');
  });

  it('YAML errors of the file itself come with their place', () => {
    expect(parseErrors('scenarios:\n  - name: a\n   steps: []\n')[0]).toMatch(
      /^tests\/t\.yaml:3:1: Wrong indentation/,
    );
  });
});

describe('running scenarios', () => {
  it('a failing expectation names its own place, the expected and the observed value', async () => {
    const file = parse(
      'scenarios:\n  - name: a\n    steps:\n      - event: light_lamp\n        expect:\n          - { path: state.keeper.oil, equals: 3 }\n          - { path: state.keeper.oil, between: [0, 1] }\n          - note: "no such words"\n          - no_note: "lights the lamp"\n          - check: "@ state.lamp.lit == false"\n',
    );
    const result = await runScenario(ctx, file.scenarios[0]!);
    expect(result.failures.map((f) => `${f.place.line}:${f.place.col} ${f.message.split('\n')[0]}`)).toEqual([
      '6:13 state.keeper.oil: expected 3, got 2',
      '7:13 state.keeper.oil: 2 is outside [0, 1]',
      '8:13 no note contains "no such words"; the notes were:',
      '9:13 a note contains "lights the lamp": "[SYSTEM LOG: The keeper lights the lamp; 2 measures of oil are left. Describe the beam.]"',
      '10:13 check "@ state.lamp.lit == false" is false',
    ]);
  });

  it('a refused event fails the step unless it expects the refusal; a refusal expected but not made fails', async () => {
    const file = parse(
      'scenarios:\n  - name: a\n    steps:\n      - event: buy_oil\n        inputs: { measures: 9 }\n  - name: b\n    steps:\n      - event: buy_oil\n        inputs: { measures: 1 }\n        expect: [{ refused: YARE_BAD_INPUT }]\n  - name: c\n    steps:\n      - event: no_such_event\n',
    );
    const [a, b, c] = await Promise.all(file.scenarios.map((s) => runScenario(ctx, s)));
    expect(a!.failures[0]!.message).toMatch(/^event 'buy_oil' was refused: .*\[YARE_BAD_INPUT\]$/);
    expect(a!.failures[0]!.place.line).toBe(4);
    expect(b!.failures[0]!.message).toBe('expected a refusal with YARE_BAD_INPUT, but nothing was refused');
    expect(c!.failures[0]!.message).toContain("there is no event 'no_such_event'");
  });

  it('a scripted turn whose script is not used up fails, saying so', async () => {
    const file = parse(
      'scenarios:\n  - name: a\n    steps:\n      - turn: "light it"\n        director:\n          - toolCalls: [{ name: light_lamp, args: {} }]\n          - text: "spare"\n        narrator: [{ text: "Lit." }]\n',
    );
    const result = await runScenario(ctx, file.scenarios[0]!);
    expect(result.failures.map((f) => f.message)).toEqual([
      '1 scripted director response was never used: the turn went differently than the script expects',
    ]);
  });

  it('the world ledger: an entity recorded by the Narrator in a scripted turn', async () => {
    const file = parse(`scenarios:
  - name: a
    steps:
      - turn: "I look around"
        director: [{ text: "" }]
        narrator:
          - text: "A gull watches you."
            toolCalls:
              - name: record_world_changes
                args: { events: [{ event_type: create_entity, entity: gull, name: "The gull", entity_type: creature }] }
        expect:
          - entity: gull
          - narration: "gull watches"
          - entity: seal
`);
    const result = await runScenario(ctx, file.scenarios[0]!);
    expect(result.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the world ledger has no entity 'seal'; it has: .*gull/),
    ]);
  });

  it('a property reports the first seed and step that break it', async () => {
    const file = parse(`properties:
  - name: oil stays low
    seeds: [1, 30]
    steps:
      - event: buy_oil
        inputs: { measures: 1 }
      - event: buy_oil
        inputs: { measures: 1 }
    always:
      - { path: state.keeper.oil, between: [0, 4] }
`);
    const result = await runProperty(ctx, file.properties[0]!);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]!.message).toBe(
      'with seed 1, after step 2: state.keeper.oil: 5 is outside [0, 4]',
    );
    expect(result.failures[0]!.place.line).toBe(10);
  });

  it('a named save is the starting state; a missing save fails at the save: line', async () => {
    const folder = join(dir, 'gull');
    mkdirSync(join(folder, 'tests', 'saves'), { recursive: true });
    writeFileSync(join(folder, 'tests', 'saves', 'dry.json'), JSON.stringify({ keeper: { oil: 0 } }));
    writeFileSync(
      join(folder, 'tests', 'saves.yaml'),
      'scenarios:\n  - name: dry store\n    save: dry\n    steps:\n      - event: light_lamp\n        expect: [{ note: "oil store is empty" }]\n  - name: missing\n    save: nope\n    steps:\n      - event: light_lamp\n',
    );
    const result = await runSuite(folder, cartridge, { filter: 'saves.yaml' });
    const byName = new Map(result.cases.map((c) => [c.name, c]));
    expect(byName.get('dry store')!.failures).toEqual([]);
    expect(byName.get('missing')!.failures[0]!.message).toContain("no save 'nope'");
    expect(byName.get('missing')!.failures[0]!.place.line).toBe(8);
  });
});
