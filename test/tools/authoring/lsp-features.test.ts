// The language server's completion and hover, called in-process on texts an author is typing (the stdio
// protocol itself is covered by lsp.test.ts).

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { complete, hover } from '../../../src/tools/authoring/lsp/features.ts';
import { keysOf, TOP_LEVEL_SHAPE, YARE_GRAMMAR } from '../../../src/core/yare/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import { ROOT } from '../../apps/cli/helpers.ts';

let cartridge: Cartridge;
beforeAll(async () => {
  const loaded = await loadCartridge(join(ROOT, 'cartridges', 'lanternmere'));
  if (!loaded.ok) throw new Error('lanternmere does not load');
  cartridge = loaded.cartridge;
});

const labels = (text: string, role: 'yare' | 'scenario' | 'directives', at = text.length) =>
  complete(text, at, role, cartridge.rules).map((i) => i.label);

describe('completion', () => {
  it("a scenario step's inputs are the event's inputs; a call's args the callee's", () => {
    expect(
      labels(
        'scenarios:\n  - name: a\n    steps:\n      - event: buy_item\n        inputs:\n          ',
        'scenario',
      ),
    ).toEqual(['item']);
    expect(
      labels(
        'events:\n  e:\n    steps:\n      - action: call\n        event: spawn_foe\n        args:\n          ',
        'yare',
      ),
    ).toEqual(['kind']);
  });

  it('scenario keys: step keys under steps, expectation keys under expect', () => {
    expect(labels('scenarios:\n  - name: a\n    steps:\n      - ', 'scenario')).toEqual(
      expect.arrayContaining(['event', 'turn', 'minigame', 'expect']),
    );
    expect(
      labels(
        'scenarios:\n  - name: a\n    steps:\n      - event: attack\n        expect:\n          - ',
        'scenario',
      ),
    ).toEqual(expect.arrayContaining(['path', 'note', 'refused', 'entity']));
  });

  it('the keys of prompt_directives.yaml not yet written', () => {
    expect(labels('director: |\n  Be brief.\n', 'directives')).toEqual([
      'npc',
      'narrator',
      'picture_style',
      'npc_brain',
    ]);
  });

  it('top-level and step keys are the grammar’s, invariants included', () => {
    expect(labels('version: "1.0"\n', 'yare').sort()).toEqual(
      keysOf(TOP_LEVEL_SHAPE)
        .filter((key) => key !== 'version')
        .sort(),
    );
    expect(labels('events:\n  e:\n    steps:\n      - action: mutate\n        ', 'yare').sort()).toEqual(
      [...keysOf(YARE_GRAMMAR.definitions.step.variants.mutate)].sort(),
    );
  });

  it('nothing is offered after an unknown path root', () => {
    expect(labels('x: "@ nothing.', 'yare')).toEqual([]);
  });
});

describe('hover', () => {
  it('an event named in a scenario shows its description and inputs', () => {
    const text = 'scenarios:\n  - name: a\n    steps:\n      - event: buy_item\n';
    const shown = hover(text, text.indexOf('buy_item') + 2, 'scenario', cartridge.rules);
    expect(JSON.stringify(shown)).toContain('event buy_item');
    expect(JSON.stringify(shown)).toContain('`item`: string (required)');
  });

  it('a key shows its meaning from the schema', () => {
    const text = 'events:\n  e:\n    trigger_on: cycle_tick\n';
    const shown = hover(text, text.indexOf('trigger_on') + 3, 'yare', cartridge.rules);
    expect(JSON.stringify(shown)).toContain('runs once per turn');
  });

  it('invariants: shows the grammar’s text', () => {
    const text = 'invariants:\n  alive: "@ state.player.hp >= 0"\n';
    const shown = hover(text, 3, 'yare', cartridge.rules);
    expect(shown?.contents).toEqual({
      kind: 'markdown',
      value: `**invariants** (mapping): ${TOP_LEVEL_SHAPE.props.invariants.doc}`,
    });
  });
});

describe('collections and macros with parameters (issue 38)', () => {
  let dishwasher: Cartridge;
  beforeAll(async () => {
    const loaded = await loadCartridge(join(ROOT, 'test', 'cartridges', 'bytesized', 'dishwasher'));
    if (!loaded.ok) throw new Error('the dishwasher port does not load');
    dishwasher = loaded.cartridge;
  });

  it('completes the properties of a record and the macros with their parameters', () => {
    const at = (text: string) => complete(text, text.length, 'yare', dishwasher.rules).map((i) => i.label);
    expect(at('events:\n  e:\n    steps:\n      - { action: note, message: "{state.objs.cup.')).toEqual(
      expect.arrayContaining(['id', 'name', 'loc', 'dirty', 'stage']),
    );
    expect(at('events:\n  e:\n    steps:\n      - { action: note, message: "{macros.')).toEqual(
      expect.arrayContaining(['dirty_dishes', 'describe(o)', 'the(id)']),
    );
  });

  it('shows a macro with parameters, its dispatch and cases, on hover', () => {
    const text =
      'events:\n  e:\n    steps:\n      - { action: note, message: "{macros.describe(state.objs.cup)}" }';
    const shown = hover(text, text.indexOf('describe') + 2, 'yare', dishwasher.rules);
    const value = (shown?.contents as { value: string } | undefined)?.value;
    expect(value).toContain('**macros.describe(o)**');
    expect(value).toContain('by: @ o.kind');
    expect(value).toContain('dishwasher: @');
  });
});
