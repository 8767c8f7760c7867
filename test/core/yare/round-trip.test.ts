// A state survives its own round trip (issue 38 item 7): the whole state a run prints, given back as the
// starting state, is that state — a key removed by `dict_delete`, an item by `list_remove`, a dict emptied
// by `set`, stays removed, wherever a state is read back: `run-event --state`, `eval --state`,
// `turn --state`, a scenario's `state:`, the builder's Try, explore's start and a model-eval case. A
// partial state still fills the rest from the defaults.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { startingState, toStateValue } from '../../../src/core/yare/index.ts';
import { tryState } from '../../../src/tools/authoring/builder/try-event.ts';
import { startState } from '../../../src/tools/authoring/explore/explore.ts';
import { runEvalCases } from '../../../src/tools/authoring/model-eval/run.ts';
import { runScenario } from '../../../src/tools/authoring/scenario/run.ts';
import { ROOT, runCliInProcess as runCli, workspaces } from '../../apps/cli/helpers.ts';

const CARTRIDGE = join(ROOT, 'test/fixtures/cartridges/round-trip');
const workspace = workspaces();

/** Each event takes something away in its own way; the name says from where. */
const DELETIONS = [
  ['eat_tea', 'a default key of a dict field (dict_delete)'],
  ['drop_fig', 'a key of a dict nested in a dict field'],
  ['drop_tins', 'a whole nested dict of a dict field'],
  ['use_oats', 'an item of a list field (list_remove)'],
  ['empty_shelf', 'every key of a dict field (set to {})'],
  ['peel_label', 'a key of a dict field inside a domain'],
  ['smash_jar', 'a record of a collection (dict_delete)'],
  ['new_jar', 'nothing, but a record created: its id counter is state too'],
] as const;

let cartridge: Cartridge;
beforeAll(async () => {
  const loaded = await loadCartridge(CARTRIDGE);
  if (!loaded.ok) throw new Error('the round-trip cartridge does not load');
  cartridge = loaded.cartridge;
});

async function printedStateAfter(event: string): Promise<Record<string, unknown>> {
  const ws = workspace();
  const ran = await runCli(['run-event', CARTRIDGE, event, '--json'], { cwd: ws.dir });
  expect(ran.stderr).toBe('');
  const out = JSON.parse(ran.stdout) as { ok: boolean; state: Record<string, unknown> };
  expect(out.ok).toBe(true);
  return out.state;
}

describe('a printed state reads back as itself', () => {
  it.each(DELETIONS)('after %s (%s): run-event, eval and turn with --state', async (event) => {
    const printed = await printedStateAfter(event);
    // The deletion really happened: the printed state differs from the defaults.
    expect(printed).not.toEqual(toStateValue(startingState(cartridge.rules, undefined)));
    const ws = workspace();
    const file = ws.file('state.json', JSON.stringify(printed));

    const again = await runCli(['run-event', CARTRIDGE, 'wait', '--state', file, '--json'], { cwd: ws.dir });
    expect(JSON.parse(again.stdout).state).toEqual(printed);

    const evaluated = await runCli(['eval', CARTRIDGE, 'state', '--state', file], { cwd: ws.dir });
    expect(evaluated.stderr).toBe('');
    expect(JSON.parse(evaluated.stdout)).toEqual(printed);

    const turned = await runCli(['turn', CARTRIDGE, '--input', 'wait', '--state', file, '--json'], {
      cwd: ws.dir,
    });
    expect(turned.stderr).toBe('');
    expect(JSON.parse(turned.stdout).state).toEqual(printed);
  });

  it.each(DELETIONS)(
    'after %s (%s): a scenario, the builder Try, explore and model-eval start from it',
    async (event) => {
      const printed = await printedStateAfter(event);
      const rules = cartridge.rules;
      expect(toStateValue(startingState(rules, printed))).toEqual(printed);
      expect(toStateValue(tryState(rules, printed))).toEqual(printed);
      expect(toStateValue(startState(cartridge, printed))).toEqual(printed);

      const place = { file: 'tests/t.yaml', line: 1, col: 1 };
      const scenario = await runScenario(
        { cartridge, readSave: () => ({ ok: false, message: 'no saves' }) },
        {
          name: 'from a printed state',
          place,
          seed: 1,
          start: { kind: 'state', state: printed },
          steps: [{ kind: 'event', event: 'wait', inputs: {}, seed: undefined, expect: [], place }],
          expect: [],
          transcript: false,
        },
      );
      expect(scenario.failures).toEqual([]);

      const [evalRun] = await runEvalCases({
        cartridge,
        cases: [{ id: 'c1', origin: 'suite', input: 'wait', state: printed, expect: { kind: 'none' } }],
        models: null,
        seed: 1,
      });
      expect(evalRun?.record?.stateAfter).toEqual(printed);
    },
  );

  it('a scenario that starts from a printed state sees the deleted key as gone', async () => {
    const printed = await printedStateAfter('eat_tea');
    const place = { file: 'tests/t.yaml', line: 1, col: 1 };
    const scenario = await runScenario(
      { cartridge, readSave: () => ({ ok: false, message: 'no saves' }) },
      {
        name: 'tea stays eaten',
        place,
        seed: 1,
        start: { kind: 'state', state: printed },
        steps: [
          {
            kind: 'event',
            event: 'wait',
            inputs: {},
            seed: undefined,
            place,
            expect: [
              { kind: 'check', expr: "@ 'tea' not in state.shelf", place },
              { kind: 'equals', path: 'state.shelf', value: { jam: 2, salt: 1 }, place },
            ],
          },
        ],
        expect: [],
        transcript: false,
      },
    );
    expect(scenario.failures).toEqual([]);
  });

  it('a partial state still takes every field it leaves out from the defaults', () => {
    const state = toStateValue(startingState(cartridge.rules, { cellar: { count: 7 }, sacks: [] }));
    expect(state).toEqual({
      shelf: { jam: 2, salt: 1, tea: 5 },
      nested: { jars: { plum: 1, fig: 2 }, tins: { bean: 3 } },
      sacks: [],
      jars: {
        j1: { id: 'j1', fruit: 'plum', full: true },
        j2: { id: 'j2', fruit: 'fig', full: true },
      },
      cellar: { labels: { cider: 'old', mead: 'new' }, count: 7 },
      _next_ids: { jars: 0 },
    });
    // A dict field given is the field's value, not keys to merge into its default.
    const given = toStateValue(startingState(cartridge.rules, { shelf: { salt: 9 } })) as { shelf: unknown };
    expect(given.shelf).toEqual({ salt: 9 });
  });

  it('a state that is not an object is refused, by each reader in its words', async () => {
    expect(() => startingState(cartridge.rules, [1, 2])).toThrow('a state must be a JSON object');
    expect(() => tryState(cartridge.rules, 'x')).toThrow('state: must be an object');
    const ws = workspace();
    const file = ws.file('state.json', '[1, 2]');
    const ran = await runCli(['run-event', CARTRIDGE, 'wait', '--state', file], { cwd: ws.dir });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('a state file must hold a JSON object');
  });
});
