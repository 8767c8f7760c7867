// The language server driven as an editor drives it, over stdio JSON-RPC, on a copy of the shipped
// cartridge: diagnostics as the text changes (exact positions, cleared when fixed), completion of state
// paths, inputs, macros, functions, event names and step keys, hover, go-to-definition and rename.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../apps/cli/helpers.ts';
import { type Json, LspClient } from './lsp-client.ts';

describe('mnesos lsp --stdio', () => {
  let dir: string;
  let client: LspClient;
  let yarePath: string;
  let yareUri: string;
  let text: string;
  let version = 1;

  const positionOf = (probe: string, shift = 0) => {
    const at = text.indexOf(probe);
    if (at === -1) throw new Error(`not in the text: ${probe}`);
    const before = text.slice(0, at + shift);
    const line = before.split('\n').length - 1;
    return { line, character: before.length - before.lastIndexOf('\n') - 1 };
  };
  const diagnosticsFor = (uri: string, test: (d: Json[]) => boolean) =>
    client.waitFor(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && test(n.params.diagnostics),
    );
  const change = (next: string) => {
    text = next;
    client.notify('textDocument/didChange', {
      textDocument: { uri: yareUri, version: ++version },
      contentChanges: [{ text }],
    });
  };
  const labels = (items: Json) => (Array.isArray(items) ? items : items.items).map((i: Json) => i.label);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-lsp-'));
    cpSync(join(ROOT, 'cartridges', 'lanternmere'), join(dir, 'lanternmere'), { recursive: true });
    cpSync(join(ROOT, 'templates', 'minimal', 'tests'), join(dir, 'lanternmere', 'tests'), {
      recursive: true,
    });
    yarePath = join(dir, 'lanternmere', 'yare.yaml');
    yareUri = pathToFileURL(yarePath).href;
    text = readFileSync(yarePath, 'utf8');
    client = new LspClient(dir);
    const init = await client.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      capabilities: {},
    });
    expect(init.capabilities.completionProvider).toBeDefined();
    expect(init.capabilities.renameProvider).toBeTruthy();
    client.notify('initialized', {});
    client.notify('textDocument/didOpen', {
      textDocument: { uri: yareUri, languageId: 'yaml', version, text },
    });
  }, 120_000);
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes diagnostics as the author types, at the exact place, and clears them when fixed', async () => {
    const original = text;
    const first = await diagnosticsFor(yareUri, () => true);
    expect(first.params.diagnostics.filter((d: Json) => d.severity === 1)).toEqual([]);
    const typo = original.replace(
      'value: "@ macros.player_attack_roll"',
      'value: "@ macros.player_atack_roll"',
    );
    change(typo);
    const broken = await diagnosticsFor(yareUri, (ds) => ds.some((d) => d.code === 'YARE_UNKNOWN_MACRO'));
    const d = broken.params.diagnostics.find((x: Json) => x.code === 'YARE_UNKNOWN_MACRO');
    const at = positionOf('macros.player_atack_roll');
    expect(d.range.start).toEqual(at);
    expect(d.range.end).toEqual({
      line: at.line,
      character: at.character + 'macros.player_atack_roll'.length,
    });
    expect(d.message).toContain('Did you mean `macros.player_attack_roll`?');
    change(original);
    await diagnosticsFor(yareUri, (ds) => ds.every((x) => x.severity !== 1));
  });

  it('completes state paths, inputs, macros, functions, event names and step keys', async () => {
    const complete = async (probe: string, shift: number) =>
      labels(
        await client.request('textDocument/completion', {
          textDocument: { uri: yareUri },
          position: positionOf(probe, shift),
        }),
      );
    expect(await complete("state.player.location != 'brine market'", 'state.player.'.length)).toEqual(
      expect.arrayContaining(['hp', 'gold', 'inventory', 'attack_bonus']),
    );
    expect(await complete('state.player.location', 'state.'.length)).toEqual(
      expect.arrayContaining(['player', 'foe', 'world']),
    );
    expect(await complete('inputs.spell ==', 'inputs.'.length)).toEqual(['spell']);
    expect(await complete('macros.spell_cost', 'macros.'.length)).toEqual(
      expect.arrayContaining(['player_attack_roll', 'spell_cost']),
    );
    expect(await complete('event: spawn_foe', 'event: '.length)).toEqual(
      expect.arrayContaining(['spawn_foe', 'foe_turn', 'travel']),
    );
    expect(await complete('max(1, state.market', 0)).toEqual(
      expect.arrayContaining(['max', 'roll', 'len', 'state']),
    );
    // A step key: a new line under `- action: mutate` offers the fields mutate has and the step lacks.
    const mutate = '      - action: mutate\n        var: state.foe.hp\n        op: sub\n';
    const at = text.indexOf(
      '              - action: mutate\n                var: state.foe.hp\n                op: sub\n',
    );
    expect(at).toBeGreaterThan(-1);
    void mutate;
    const opLine = positionOf('                var: state.foe.hp\n                op: sub\n');
    const items = labels(
      await client.request('textDocument/completion', {
        textDocument: { uri: yareUri },
        position: { line: opLine.line + 2, character: 16 },
      }),
    );
    expect(items).toEqual(expect.arrayContaining(['value']));
    expect(items).not.toContain('var');
    // Values of an enum key: the actions after `action:`.
    const actionAt = positionOf('- action: mutate', '- action: '.length);
    const actions = labels(
      await client.request('textDocument/completion', { textDocument: { uri: yareUri }, position: actionAt }),
    );
    expect(actions).toEqual(expect.arrayContaining(['set', 'mutate', 'branch', 'table_roll', 'foreach']));
  });

  it('hovers a field (type, range, visibility) and a function (signature)', async () => {
    const hover = async (probe: string, shift: number) =>
      (
        await client.request('textDocument/hover', {
          textDocument: { uri: yareUri },
          position: positionOf(probe, shift),
        })
      )?.contents.value;
    const field = await hover('state.player.hp', 'state.player.'.length + 1);
    expect(field).toContain('**state.player.hp**');
    expect(field).toContain('type `int`');
    expect(field).toContain('range 0..24');
    expect(field).toContain('public');
    const armor = await hover('state.player.armor', 'state.player.'.length + 1);
    expect(armor).toContain('private');
    const fn = await hover('max(1, state.market', 1);
    expect(fn).toContain('max(a, b, ...) or max(list)');
  });

  it('goes to the definition of a macro, a call target and a state field', async () => {
    const define = async (probe: string, shift: number) =>
      client.request('textDocument/definition', {
        textDocument: { uri: yareUri },
        position: positionOf(probe, shift),
      });
    const macro = await define('macros.player_attack_roll', 'macros.'.length + 2);
    expect(macro.uri).toBe(yareUri);
    expect(macro.range.start).toEqual(positionOf('player_attack_roll: "@'));
    const call = await define('event: spawn_foe', 'event: '.length + 1);
    expect(call.range.start).toEqual(positionOf('spawn_foe:\n'));
    const field = await define('state.world.chapel_sealed"', 'state.world.'.length + 2);
    expect(field.range.start).toEqual(positionOf('chapel_sealed: {', 0));
  });

  it('renames an event across yare.yaml and the scenario files, and a macro everywhere it is used', async () => {
    const scenario = join(dir, 'lanternmere', 'tests', 'basics.yaml');
    const result = await client.request('textDocument/rename', {
      textDocument: { uri: yareUri },
      position: positionOf('event: foe_turn', 'event: '.length + 1),
      newName: 'creature_turn',
    });
    const edits = result.changes[yareUri];
    // The declaration and the three calls.
    expect(edits).toHaveLength(1 + (text.match(/event: foe_turn/g) ?? []).length);
    expect(edits.every((e: Json) => e.newText === 'creature_turn')).toBe(true);
    expect(edits.map((e: Json) => e.range.start)).toContainEqual(positionOf('  foe_turn:\n', 2));
    expect(result.changes[pathToFileURL(scenario).href]).toBeUndefined();

    const macro = await client.request('textDocument/rename', {
      textDocument: { uri: yareUri },
      position: positionOf('inn_price: "@', 1),
      newName: 'bed_price',
    });
    expect(macro.changes[yareUri]).toHaveLength((text.match(/inn_price/g) ?? []).length);
    await expect(
      client.request('textDocument/rename', {
        textDocument: { uri: yareUri },
        position: positionOf('inn_price: "@', 1),
        newName: 'pack_limit',
      }),
    ).rejects.toThrow("already a macro named 'pack_limit'");
  });

  it('checks scenario files too, and renames events in them', async () => {
    const scenario = join(dir, 'lanternmere', 'tests', 'mine.yaml');
    const uri = pathToFileURL(scenario).href;
    const content =
      'scenarios:\n  - name: walk\n    steps:\n      - event: travel\n        inputs: { destination: reedmaze }\n        expect:\n          - { path: state.player.location, equal: reedmaze }\n';
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: content },
    });
    const got = await diagnosticsFor(uri, (ds) => ds.length > 0);
    expect(got.params.diagnostics[0].message).toContain("unknown key 'equal'");
    expect(got.params.diagnostics[0].message).toContain('Did you mean `equals`?');
    expect(got.params.diagnostics[0].range.start).toEqual({ line: 6, character: 43 });
    const renamed = await client.request('textDocument/rename', {
      textDocument: { uri },
      position: { line: 3, character: 17 },
      newName: 'walk_to',
    });
    expect(renamed.changes[uri]).toEqual([
      { range: { start: { line: 3, character: 15 }, end: { line: 3, character: 21 } }, newText: 'walk_to' },
    ]);
    expect(renamed.changes[yareUri].length).toBeGreaterThanOrEqual(1);
  });
});
