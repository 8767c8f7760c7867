// Lore that follows the state: a `when:` section is in play exactly while its condition holds (on the state,
// private fields included, and the ledger), with no keyword needed, and never while it is false whatever the
// words; World Info entries the same through `extensions.mnesos.when`. Tested by what the prompts contain and
// by the receipts the record keeps.
import { describe, expect, it } from 'vitest';
import { applyBatch, type World } from '../../../src/core/ledger/index.ts';
import { initialWorld } from '../../../src/engine/turn/index.ts';
import type { GameState, TurnRecord } from '../../../src/engine/turn/types.ts';
import { collect, initialState, type Loose, plain, promptText, scripted } from './helpers.ts';
import { conditionsCartridge } from './lore-conditions-fixture.ts';

const BELLS = 'bells ring thirteen times';
const MARA = 'Mara kneels by the altar';
const CULT = 'The cult gathers in the crypt';
const GREEN = 'Lanterns here burn green';

function state(patch: (s: Loose) => void = () => {}): GameState {
  const s = plain(initialState(conditionsCartridge())) as Loose;
  patch(s);
  return s as GameState;
}

function items(record: TurnRecord, role: 'director' | 'narrator', section: string) {
  const prompt = record.prompts.find((p) => p.role === role)!;
  return prompt.sections.find((s) => s.id === section)?.items ?? [];
}

async function turn(options: {
  state?: GameState;
  world?: World;
  input: string;
  director?: Parameters<typeof scripted>[0]['director'];
}) {
  const cartridge = conditionsCartridge();
  const models = scripted({
    director: options.director ?? [{ text: '### 1. Outcomes\nNothing.' }],
    narrator: [{ text: 'The square is quiet.' }],
  });
  const { record } = await collect({
    cartridge,
    state: options.state ?? state(),
    messages: [],
    input: options.input,
    seed: 1,
    models,
    ledgerMode: 'off',
    ...(options.world === undefined ? {} : { world: options.world }),
  });
  return {
    record,
    models,
    director: promptText(models.director.requests[0]!),
    narrator: promptText(models.narrator.requests[0]!),
  };
}

describe('lore sections with a when: condition', () => {
  it('never shows a section whose condition is false, even when the words match it', async () => {
    const { record, director, narrator } = await turn({
      input: 'I listen for the chapel bells ringing thirteen times',
    });
    expect(director).not.toContain(BELLS);
    expect(narrator).not.toContain(BELLS);
    // The market section (no condition) matches the words and is shown.
    expect(director).toContain('Stalls of fish');
    const receipts = items(record, 'director', 'lore');
    expect(receipts).toContainEqual(
      expect.objectContaining({
        id: 'lore:L1',
        status: 'excluded',
        why: expect.stringContaining('when false: @ state.world.night'),
      }),
    );
    expect(receipts).toContainEqual(
      expect.objectContaining({ id: 'lore:L9', status: 'included', why: expect.stringContaining('matched') }),
    );
  });

  it('shows a section whose condition holds without any keyword, to the Director and the Narrator', async () => {
    const { record, director, narrator } = await turn({
      state: state((s) => (s.world.night = true)),
      input: 'I wait',
    });
    expect(director).toContain(BELLS);
    expect(narrator).toContain(BELLS);
    expect(narrator).not.toContain('when:'); // the condition itself never reaches a model
    expect(items(record, 'narrator', 'lore')).toContainEqual(
      expect.objectContaining({
        id: 'lore:L1',
        status: 'included',
        why: expect.stringContaining('when held'),
      }),
    );
  });

  it('follows the ledger: entity locations and open threads', async () => {
    const cartridge = conditionsCartridge();
    const start = initialWorld(cartridge);
    const atChapel = applyBatch(
      start,
      [{ type: 'set_current_location', entity: 'mara', location: 'chapel' }],
      {
        turn: 1,
      },
    );
    const away = await turn({ input: 'I wait' });
    expect(away.director).not.toContain(MARA);
    const there = await turn({ world: atChapel, input: 'I wait' });
    expect(there.director).toContain(MARA);
    expect(there.narrator).toContain(MARA);

    // The cult needs a private state flag and an open thread; neither alone is enough.
    const awake = state((s) => (s.secret.cult_awake = true));
    expect((await turn({ state: awake, input: 'I wait' })).director).not.toContain(CULT);
    const opened = applyBatch(start, [{ type: 'open_story_thread', thread: 'cult', title: 'The cult' }], {
      turn: 1,
    });
    expect((await turn({ world: opened, input: 'I wait' })).director).not.toContain(CULT);
    expect((await turn({ state: awake, world: opened, input: 'I wait' })).director).toContain(CULT);
    const resolved = applyBatch(opened, [{ type: 'resolve_story_thread', thread: 'cult' }], { turn: 2 });
    expect((await turn({ state: awake, world: resolved, input: 'the cult' })).director).not.toContain(CULT);
  });

  it('keeps a false section out of lore_lookup results, and lets a held one in', async () => {
    const lookup = [
      { toolCalls: [{ name: 'lore_lookup', args: { queries: ['chapel bells'] } }] },
      { text: 'ok' },
    ];
    const dark = await turn({ input: 'hello', director: lookup });
    expect(dark.record.tools[0]!.content).not.toContain(BELLS);
    const night = await turn({
      state: state((s) => (s.world.night = true)),
      input: 'hello',
      director: lookup,
    });
    expect(night.record.tools[0]!.content).toContain(BELLS);
  });

  it('lets the Narrator see a section the turn itself made true', async () => {
    const { director, narrator, record } = await turn({
      input: 'I wait for night',
      director: [{ text: 'Night.', toolCalls: [{ name: 'fall_night', args: {} }] }],
    });
    expect(record.ruleCalls.map((c) => [c.event, c.ok])).toEqual([['fall_night', true]]);
    expect(director).not.toContain(BELLS);
    expect(narrator).toContain(BELLS);
  });
});

describe('World Info entries with extensions.mnesos.when', () => {
  it('activates a held entry without its key and never a false one, with the condition as the reason', async () => {
    const dark = await turn({ input: 'I look at the lantern' });
    expect(dark.narrator).not.toContain(GREEN);
    expect(dark.record.worldInfo!.activated.map((a) => a.uid)).not.toContain(0);
    const night = await turn({ state: state((s) => (s.world.night = true)), input: 'I wait' });
    expect(night.narrator).toContain(GREEN);
    expect(night.record.worldInfo!.activated).toContainEqual({
      uid: 0,
      reason: 'when held: @ state.world.night',
    });
    // The entry without a condition still needs its key.
    expect(night.narrator).not.toContain('drowned river');
    expect((await turn({ input: 'fish please' })).narrator).toContain('drowned river');
  });
});
