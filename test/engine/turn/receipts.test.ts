// Receipts for every line of context: each prompt section's pieces (lore, World Info, facts, threads, the
// scene, messages) carry why they are there and their token cost, and what the budget cut and why — in the
// turn record, and printed by `mnesos turn --explain`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { explainPrompts } from '../../../src/apps/cli/play/explain.ts';
import { runTurnCommand } from '../../../src/apps/cli/play/turn-command.ts';
import { applyBatch, summarizeWorld } from '../../../src/core/ledger/index.ts';
import { assemblePrompt, initialWorld } from '../../../src/engine/turn/index.ts';
import { MAX_SECTION_RECEIPTS } from '../../../src/engine/turn/prompts.ts';
import type { TurnRecord } from '../../../src/engine/turn/types.ts';
import { collect, initialState, type Loose, plain, scripted } from './helpers.ts';
import { conditionsCartridge, conditionsFiles } from './lore-conditions-fixture.ts';

function section(record: TurnRecord, role: string, id: string) {
  return record.prompts.find((p) => p.role === role)!.sections.find((s) => s.id === id)!;
}

const WORLD_AT_PLAY = () =>
  applyBatch(
    initialWorld(conditionsCartridge()),
    [
      { type: 'set_scene', location: 'market', present: ['player', 'mara'] },
      { type: 'add_fact', fact_id: 'mara_owes', subject: 'mara', predicate: 'owes the baker' },
      { type: 'add_fact', fact_id: 'far_away', predicate: 'the tide is late' },
      { type: 'open_story_thread', thread: 'debt', title: 'The baker wants his money' },
    ],
    { turn: 1 },
  );

async function play(limits: Record<string, number> = {}, telling = 'The fishwife grins.') {
  const cartridge = conditionsCartridge();
  const s = plain(initialState(cartridge)) as Loose;
  s.world.night = true;
  const world = WORLD_AT_PLAY();
  const models = scripted({ director: [{ text: 'Go on.' }], narrator: [{ text: 'Fish and bells.' }] });
  const { record } = await collect({
    cartridge,
    state: s,
    world,
    messages: [
      { role: 'assistant', content: 'The market opens.' },
      { role: 'user', content: 'I buy fish.' },
      { role: 'assistant', content: telling },
    ],
    input: 'I look at the fish and the lantern',
    seed: 1,
    models,
    ledgerMode: 'off',
    limits,
  });
  return record;
}

describe('the receipts of a turn', () => {
  it('says why each piece of each section is there, and what it cost', async () => {
    const record = await play();
    const lore = section(record, 'director', 'lore').items!;
    expect(lore).toContainEqual({
      id: 'lore:L1',
      why: 'L1 "Chapel bells": when held: @ state.world.night',
      tokens: expect.any(Number),
      status: 'included',
    });
    expect(lore).toContainEqual(
      expect.objectContaining({
        id: 'lore:L5',
        status: 'excluded',
        why: expect.stringContaining('when false'),
      }),
    );
    expect(lore).toContainEqual(
      expect.objectContaining({ id: 'lore:L9', status: 'included', why: expect.stringContaining('matched') }),
    );
    for (const item of lore) expect(item.tokens).toBeGreaterThan(0);

    // The world summary's lines carry their receipts in the summary (summarizeWorld's pieces).
    const world = summarizeWorld(WORLD_AT_PLAY(), { viewer: 'player' }).pieces;
    expect(world.map((i) => [i.id, i.included])).toEqual([
      ['scene', true],
      ['entity:player', true],
      ['entity:mara', true],
      ['thread:debt', true],
      ['fact:mara_owes', true],
      ['fact:far_away', true],
    ]);
    expect(world.find((i) => i.id === 'thread:debt')!.why).toBe('an open thread (opened at turn 1)');
    expect(world.find((i) => i.id === 'fact:mara_owes')!.why).toMatch(
      /about someone or somewhere in the scene/,
    );
    expect(world.find((i) => i.id === 'fact:far_away')!.why).toMatch(/newest first/);

    const wi = section(record, 'narrator', 'world_info_before').items!;
    expect(wi).toContainEqual(
      expect.objectContaining({
        id: 'wi:0',
        status: 'included',
        why: 'World Info green lanterns: when held: @ state.world.night',
      }),
    );
    expect(section(record, 'narrator', 'history').reason).toMatch(/^the last 3 story message\(s\)/);
  });

  it('gives each line of the world summary its receipt in the record, as the one the prompt is for knows it', async () => {
    const record = await play();
    for (const role of ['director', 'narrator']) {
      const world = section(record, role, 'world').items!;
      expect(world.map((i) => [i.id, i.status])).toEqual([
        ['scene', 'included'],
        ['entity:player', 'included'],
        ['entity:mara', 'included'],
        ['thread:debt', 'included'],
        ['fact:mara_owes', 'included'],
        ['fact:far_away', 'included'],
      ]);
      expect(world.find((i) => i.id === 'thread:debt')!.why).toBe('an open thread (opened at turn 1)');
      expect(world.find((i) => i.id === 'entity:mara')!.why).toBe('present in the scene');
      expect(world.find((i) => i.id === 'fact:mara_owes')!.why).toMatch(
        /about someone or somewhere in the scene/,
      );
      expect(world.find((i) => i.id === 'fact:far_away')!.why).toMatch(/newest first/);
      for (const item of world) expect(item.tokens).toBeGreaterThan(0);
    }
    // What the summary's budget cut: the first line it could not fit, and why.
    const tight = await play({ worldSummaryTokens: 40 });
    const cut = section(tight, 'narrator', 'world').items!;
    expect(cut.filter((i) => i.status === 'included').map((i) => i.id)).toEqual([
      'scene',
      'entity:player',
      'entity:mara',
      'thread:debt',
    ]);
    expect(cut.at(-1)).toEqual({
      id: 'fact:mara_owes',
      why: "a fact that holds about someone or somewhere in the scene (recorded at turn 1); left out with what ranks after it: the world summary's budget of 40 tokens was used up",
      tokens: expect.any(Number),
      status: 'over_budget',
    });
  });

  it('gives each story message of the history its receipt, and says what the window left out', async () => {
    const record = await play({ historyMessages: 2 });
    for (const role of ['director', 'narrator']) {
      const items = section(record, role, 'history').items!;
      expect(items.map((i) => [i.id, i.status])).toEqual([
        ['message:older', 'over_budget'],
        ['message:-2', 'included'],
        ['message:-1', 'included'],
      ]);
      expect(items[0]!.why).toMatch(
        /^1 older story message\(s\) left out: the history keeps the newest 2 messages within 2000 tokens$/,
      );
      expect(items[0]!.tokens).toBe(7); // "Narrator: The market opens." (27 characters)
      expect(items[2]!.why).toBe('recency: the newest story message (the Narrator)');
      expect(items[1]!.why).toBe('recency: the 2nd newest story message (the player)');
    }
    // The whole story fits: nothing is said to be left out.
    const all = section(await play(), 'narrator', 'history').items!;
    expect(all.map((i) => i.id)).toEqual(['message:-3', 'message:-2', 'message:-1']);
  });

  it(`keeps ${MAX_SECTION_RECEIPTS} receipts a section in the record, and counts the rest by status`, () => {
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `p${i}`,
        why: `piece ${i}`,
        text: `line ${i}.`,
        tokens: 2,
      }));
    const receiptsOf = (
      pieces: ReturnType<typeof items>,
      extra: { id: string; why: string; tokens: number; status: 'excluded' }[] = [],
    ) =>
      assemblePrompt(
        [
          {
            id: 's',
            kind: 'volatile',
            text: pieces.map((p) => p.text).join('\n'),
            required: true,
            why: 'pieces',
            items: [...pieces, ...extra],
          },
        ],
        100_000,
      ).sections[0]!.items!;
    const at = receiptsOf(items(MAX_SECTION_RECEIPTS));
    expect(at).toHaveLength(MAX_SECTION_RECEIPTS);
    expect(at.every((r) => r.id.startsWith('p'))).toBe(true);
    const past = receiptsOf(items(MAX_SECTION_RECEIPTS + 3), [
      { id: 'x1', why: 'left out', tokens: 5, status: 'excluded' },
      { id: 'x2', why: 'left out', tokens: 7, status: 'excluded' },
    ]);
    expect(past).toHaveLength(MAX_SECTION_RECEIPTS + 2);
    expect(past.slice(-2)).toEqual([
      {
        id: 'more:included',
        why: `3 more piece(s) included from p${MAX_SECTION_RECEIPTS} on (the record keeps ${MAX_SECTION_RECEIPTS} receipts a section)`,
        tokens: 6,
        status: 'included',
      },
      {
        id: 'more:excluded',
        why: `2 more piece(s) excluded from x1 on (the record keeps ${MAX_SECTION_RECEIPTS} receipts a section)`,
        tokens: 12,
        status: 'excluded',
      },
    ]);
  });

  it('says what the budget cut: pieces over their own budget, and pieces of a dropped section', async () => {
    // A world summary of 40 tokens holds the scene and the first present, not the rest.
    const tight = summarizeWorld(WORLD_AT_PLAY(), { tokenBudget: 40, viewer: 'player' }).pieces;
    expect(tight.filter((i) => !i.included)).toHaveLength(1);
    expect(tight.at(-1)!.included).toBe(false);
    // A prompt budget too small for the optional sections drops them; their pieces say so.
    const dropped = await play(
      { narratorPromptTokens: 500 },
      'a long, slow telling of the tide. '.repeat(40),
    );
    const history = section(dropped, 'narrator', 'history');
    expect(history.included).toBe(false);
    expect(history.reason).toMatch(/^dropped: the prompt was \d+ tokens, over its budget of 500/);
  });

  it('marks the pieces a section cap cut off', () => {
    const piece = (n: number) => ({
      id: `p${n}`,
      why: `piece ${n}`,
      text: `${'x'.repeat(38)}${n}`,
      tokens: 10,
    });
    const prompt = assemblePrompt(
      [
        {
          id: 's',
          kind: 'volatile',
          text: [1, 2, 3].map((n) => piece(n).text).join('\n'),
          required: true,
          maxTokens: 15,
          why: 'three pieces',
          items: [piece(1), piece(2), piece(3), { id: 'p4', why: 'left out', tokens: 9, status: 'excluded' }],
        },
      ],
      1_000,
    );
    expect(prompt.sections[0]!.items!.map((i) => i.status)).toEqual(['included', 'cut', 'cut', 'excluded']);
  });
});

describe('mnesos turn --explain', () => {
  let dir: string;
  let out = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-explain-'));
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints every section and piece with its status and why', async () => {
    const folder = join(dir, 'chapel');
    mkdirSync(folder);
    for (const [name, text] of conditionsFiles()) writeFileSync(join(folder, name), text);
    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ world: { night: true }, secret: { cult_awake: false } }));
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ director: [{ text: 'Go.' }], narrator: [{ text: 'Bells.' }] }));
    await runTurnCommand(folder, { input: 'I wait', state, llmScript: script, seed: 0, explain: true });
    expect(out).toContain('Bells.');
    expect(out).toMatch(/^director call 1: \d+\/\d+ tokens$/m);
    expect(out).toMatch(/^ {2}\+ lore \(\d+ tokens, system\): /m);
    expect(out).toMatch(
      /^ {6}\+ lore:L1 \(\d+ tokens\): L1 "Chapel bells": when held: @ state\.world\.night$/m,
    );
    expect(out).toMatch(/^ {6}x lore:L5 \(\d+ tokens\) \[excluded\]: L5 "Mara at prayer": when false/m);
    expect(out).toMatch(/^narrator call 1: /m);
  });

  it('prints the world summary’s lines and the history’s messages, each with its receipt', async () => {
    const lines = explainPrompts(await play({ historyMessages: 2 }));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}\+ world \(\d+ tokens, system\): the world ledger/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {6}\+ entity:mara \(\d+ tokens\): present in the scene$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {6}- message:older \(7 tokens\) \[over budget\]: 1 older story message\(s\) left out/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {6}\+ message:-1 \(\d+ tokens\): recency: the newest story message \(the Narrator\)$/,
      ),
    );
  });
});
