// The MCP tools, resources and prompts through the SDK's own client (in-process transport; the stdio and HTTP
// suites cover the transports): each tool answers what its CLI twin prints, refuses what it must, and shows
// only the player's view of a game.

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcp, startInProcessMcp, writeBrokenCartridge } from './helpers.ts';

const TOOLS = [
  'eval_expression',
  'explore_cartridge',
  'ledger_query',
  'list_cartridges',
  'lore_lookup',
  'new_session',
  'play_turn',
  'run_event',
  'session_state',
  'validate_cartridge',
];

let mcp: InProcessMcp;
beforeAll(async () => {
  mcp = await startInProcessMcp();
  writeBrokenCartridge(mcp.dir);
});
afterAll(() => mcp.close());

describe('tools', () => {
  it('lists the ten tools, each with a bounded JSON Schema for its arguments', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const validate = tools.find((t) => t.name === 'validate_cartridge')!;
    expect(validate.inputSchema.properties?.cartridge).toMatchObject({ type: 'string', maxLength: 1024 });
    const play = tools.find((t) => t.name === 'play_turn')!;
    expect(play.inputSchema.properties?.input).toMatchObject({ type: 'string', maxLength: 4000 });
    // The mini-game result is the session layer's own schema (admission.ts).
    expect(play.inputSchema.properties?.interaction).toMatchObject({
      type: 'object',
      properties: { status: { enum: ['completed', 'failed', 'aborted'] } },
    });
  });

  it('validate_cartridge: ok with warnings, or every problem at file:line:col with a did-you-mean', async () => {
    const good = await mcp.call('validate_cartridge', { cartridge: 'minimal' });
    expect(good.isError).toBe(false);
    expect(good.text).toMatch(/^ok: Gullrock Light \(3 events, 0 warnings\)/);
    const bad = await mcp.call('validate_cartridge', { cartridge: 'broken' });
    expect(bad.text).toMatch(/^invalid: 1 error/);
    expect(bad.text).toMatch(
      /broken\/yare\.yaml:10:14: .*state\.keeper\.oill.*did you mean.*state\.keeper\.oil/i,
    );
  });

  it('run_event: notes, rolls and the state diff; a failing event changes nothing', async () => {
    const run = await mcp.call('run_event', {
      cartridge: 'minimal',
      event: 'buy_oil',
      inputs: { measures: 2 },
    });
    expect(run.isError).toBe(false);
    expect(run.text).toContain('note: [SYSTEM LOG: The keeper buys 2 measures for 4 coins');
    expect(run.text).toContain('state.keeper.coins: 6 → 2');
    expect(run.text).toContain('state.keeper.oil: 3 → 5');
    const poor = await mcp.call('run_event', {
      cartridge: 'minimal',
      event: 'buy_oil',
      inputs: { measures: 3 },
      state: { keeper: { coins: 1 } },
      include_state: true,
    });
    expect(poor.text).toContain('3 measures cost 6 coins; the keeper has 1');
    expect(poor.text).toContain('state: unchanged');
    expect(poor.text).toContain('"coins": 1');
    const unknown = await mcp.call('run_event', { cartridge: 'minimal', event: 'fly' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toContain("there is no event 'fly'");
  });

  it('eval_expression: the value as JSON, or the error with its column', async () => {
    expect(
      await mcp.call('eval_expression', { cartridge: 'minimal', expression: '@ state.keeper.oil * 2' }),
    ).toEqual({ text: '6', isError: false });
    const wrong = await mcp.call('eval_expression', {
      cartridge: 'minimal',
      expression: 'state.keeper.oyl + 1',
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/<expression> \(column \d+\): .*oyl/);
  });

  it('explore_cartridge: the explorer report, bounded like the builder', async () => {
    const report = await mcp.call('explore_cartridge', { cartridge: 'minimal', runs: 5, depth: 5, seed: 3 });
    expect(report.isError).toBe(false);
    expect(report.text).toMatch(/^explored Gullrock Light: 5 runs of up to 5 steps, seed 3/);
    expect(report.text).toContain('coverage:');
  });

  it('lore_lookup: the sections the text finds and why', async () => {
    const lore = await mcp.call('lore_lookup', {
      cartridge: 'minimal',
      text: 'the chandler sells oil in the village',
    });
    expect(lore.isError).toBe(false);
    expect(lore.text).toContain('World Info: none');
    expect(lore.text).toMatch(/\+ line \d+: The village/);
  });

  it('list_cartridges: the shipped library by name and the working folder by path', async () => {
    const listed = await mcp.call('list_cartridges');
    expect(listed.text).toContain('lanternmere (shipped)');
    expect(listed.text).toContain('minimal (folder)');
    expect(listed.text).toContain('broken (folder)');
  });
});

describe('play', () => {
  it('new_session, play_turn, session_state and ledger_query play a stored game with public fields only', async () => {
    const started = await mcp.call('new_session', { cartridge: 'minimal', title: 'mcp game' });
    expect(started.isError).toBe(false);
    const session = /^session: (\S+)$/m.exec(started.text)?.[1];
    expect(session).toBeDefined();
    expect(started.text).toContain('cartridge: Gullrock Light');

    const turn = await mcp.call('play_turn', { session, input: '/light_lamp' });
    expect(turn.isError).toBe(false);
    expect(turn.text).toContain('dice and changes:');
    expect(turn.text).toMatch(/oil/i);
    expect(turn.text).toMatch(/^turn: \S+$/m);
    // The wick is private: it changes each night but never shows.
    expect(turn.text).not.toMatch(/wick/i);

    const state = await mcp.call('session_state', { session });
    expect(state.isError).toBe(false);
    const json = JSON.parse(state.text.slice(state.text.indexOf('{')));
    expect(json.keeper.oil).toBe(2);
    expect(json.lamp.lit).toBe(true);
    expect(json.lamp).not.toHaveProperty('wick');

    const world = await mcp.call('ledger_query', { session, tables: ['scene', 'threads'] });
    expect(world.isError).toBe(false);
    expect(world.text).toMatch(/^world of session /);
    expect(world.text).toMatch(/^Scene/m);
    expect(world.text).toMatch(/^Threads \(\d+\):/m);
    expect(world.text).not.toMatch(/^Entities/m);
  });

  it('an unknown session is an error naming it, not a crash', async () => {
    const missing = await mcp.call('session_state', { session: 'no-such-session' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^not-found: .*no-such-session/);
    const both = await mcp.call('play_turn', { session: 'x' });
    expect(both).toEqual({
      isError: true,
      text: 'give exactly one of input (the player text) and interaction (a mini-game result)',
    });
  });
});

describe('folders', () => {
  it('refuses a cartridge outside the allowed folders and the library, whatever the path says', async () => {
    for (const cartridge of ['/etc', '../..', `${mcp.dir}/../..`]) {
      const refused = await mcp.call('validate_cartridge', { cartridge });
      expect(refused.isError, cartridge).toBe(true);
      expect(refused.text, cartridge).toContain('is outside the folders this MCP server may read');
    }
  });

  it('refuses a symbolic link that leads out of the allowed folders', async () => {
    const outside = await startInProcessMcp();
    try {
      symlinkSync(join(outside.dir, 'minimal'), join(mcp.dir, 'escape'));
      const refused = await mcp.call('run_event', { cartridge: 'escape', event: 'light_lamp' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("cartridge 'escape' is outside the folders");
    } finally {
      await outside.close();
    }
  });

  it('takes a path inside the folders, absolute or relative, and a shipped name', async () => {
    mkdirSync(join(mcp.dir, 'nested'), { recursive: true });
    expect((await mcp.call('validate_cartridge', { cartridge: join(mcp.dir, 'minimal') })).text).toMatch(
      /^ok:/,
    );
    expect((await mcp.call('validate_cartridge', { cartridge: './nested/../minimal' })).text).toMatch(/^ok:/);
    expect((await mcp.call('validate_cartridge', { cartridge: 'lanternmere' })).text).toMatch(
      /^ok: Lanternmere/,
    );
    const nothing = await mcp.call('validate_cartridge', { cartridge: 'nested' });
    expect(nothing.text).toMatch(/^invalid: /);
  });
});

describe('resources and prompts', () => {
  it('lists the docs, the skill and the cartridge files, and reads them', async () => {
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('mnesos://docs/yare.md');
    expect(uris).toContain('mnesos://docs/cartridges.md');
    expect(uris).toContain('mnesos://docs/agents.md');
    expect(uris).toContain('mnesos://skill/SKILL.md');
    expect(uris).toContain('mnesos://cartridge/minimal/yare.yaml');
    const doc = await mcp.client.readResource({ uri: 'mnesos://docs/yare.md' });
    expect((doc.contents[0] as { text: string }).text).toMatch(/^# /);
    const rules = await mcp.client.readResource({ uri: 'mnesos://cartridge/minimal/bot_lore.md' });
    expect((rules.contents[0] as { text: string }).text).toContain('# Gullrock Light');
  });

  it('refuses a cartridge file that is not one, or a cartridge outside the folders', async () => {
    writeFileSync(join(mcp.dir, 'minimal', 'notes.txt'), 'private notes');
    await expect(mcp.client.readResource({ uri: 'mnesos://cartridge/minimal/notes.txt' })).rejects.toThrow(
      /is not a cartridge file/,
    );
    await expect(
      mcp.client.readResource({ uri: `mnesos://cartridge/${encodeURIComponent('/etc')}/yare.yaml` }),
    ).rejects.toThrow(/outside the folders/);
  });

  it('offers the two prompts; fix_cartridge carries the validation findings', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['fix_cartridge', 'write_cartridge']);
    const write = await mcp.client.getPrompt({
      name: 'write_cartridge',
      arguments: { idea: 'a haunted lighthouse' },
    });
    const writeText = (write.messages[0]!.content as { text: string }).text;
    expect(writeText).toContain('a haunted lighthouse');
    expect(writeText).toContain('validate_cartridge');
    const fix = await mcp.client.getPrompt({ name: 'fix_cartridge', arguments: { cartridge: 'broken' } });
    expect((fix.messages[0]!.content as { text: string }).text).toMatch(/yare\.yaml:10:14: .*oill/);
  });
});
