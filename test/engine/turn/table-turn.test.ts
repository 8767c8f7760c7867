// A turn at a shared table, in the engine: the acting character's own copy of the per-character domain is
// bound while their events run (test/fixtures/cartridges/two-seats: `hero` per character, `camp` shared), the
// `actor` input is filled by the engine (free order) or held to a round's characters, the other characters'
// copies never reach a prompt, the Director and Narrator are told who acts and who is present, replay gives
// the stored state back, and a turn without a table plays the cartridge as one shared party, unchanged; the demo (Lanternmere) keeps each character's place, gold and pack apart.

import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/engine/session/canonical.ts';
import { publicOutcome } from '../../../src/engine/turn/public-outcome.ts';
import { replayTurnRules } from '../../../src/engine/turn/record.ts';
import type { GameState, TurnTable } from '../../../src/engine/turn/types.ts';
import { collect, fixture, initialState, lanternmere, type Loose, scripted } from './helpers.ts';

const ALICE = { character: 'alice', name: 'Alice' };
const BOB = { character: 'bob', name: 'Bob' };
const SECRET = 'VIOLET-7731';

const seat = (actor: typeof ALICE, whisper = false): TurnTable => ({
  actors: [actor],
  present: [ALICE, BOB],
  ...(whisper ? { whisper } : {}),
});

async function play(
  state: GameState,
  table: TurnTable | undefined,
  calls: { name: string; args: Record<string, unknown> }[],
  input = 'I act',
) {
  const cartridge = await fixture('two-seats');
  const models = scripted({
    director: [{ toolCalls: calls }, { text: 'Go on.' }],
    narrator: [{ text: 'The river runs on.' }],
  });
  const turn = await collect({
    cartridge,
    state,
    messages: [],
    input,
    seed: 5,
    models,
    ...(table === undefined ? {} : { table }),
  });
  return { ...turn, models, cartridge };
}

const sent = (models: { calls: readonly { request: unknown }[] }) =>
  models.calls.map((c) => JSON.stringify(c.request)).join('\n');

describe('free order: one actor', () => {
  it('binds the acting character’s own copy, fills `actor` whatever the model says, and stores every copy', async () => {
    const cartridge = await fixture('two-seats');
    const first = await play(initialState(cartridge), seat(ALICE), [
      { name: 'take_hit', args: { actor: 'bob', amount: 3 } },
    ]);
    const after = first.record.stateAfter as Loose;
    expect(after.players.alice).toEqual({ hp: 7, gold: 5, secret: 'none' });
    expect(after.players.bob).toBeUndefined();
    expect(first.record.ruleCalls[0]!.inputs).toMatchObject({ actor: 'alice', amount: 3 });
    expect(first.record.notes).toContain('alice takes 3 damage.');
    expect(first.record.input.table).toEqual({ actors: [ALICE] });
    // The Director is never asked for `actor`: the tool offered has no such input.
    const tools = JSON.stringify((first.models.calls[0]!.request as Loose).tools);
    expect(tools).toContain('take_hit');
    expect(tools).not.toContain('"actor"');
    // The public outcome is the acting character's: their hp 10 → 7.
    expect(first.record.delta).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: ['hero', 'hp'], before: 10, after: 7 })]),
    );

    const second = await play(first.record.stateAfter, seat(BOB), [
      { name: 'find_gold', args: { amount: 4 } },
    ]);
    const later = second.record.stateAfter as Loose;
    expect(later.players.bob).toEqual({ hp: 10, gold: 9, secret: 'none' });
    expect(later.players.alice).toEqual({ hp: 7, gold: 5, secret: 'none' });
  });

  it('one character’s private field never reaches another character’s prompts', async () => {
    const cartridge = await fixture('two-seats');
    const hidden = await play(initialState(cartridge), seat(ALICE), [
      { name: 'hide_secret', args: { word: SECRET } },
    ]);
    expect((hidden.record.stateAfter as Loose).players.alice.secret).toBe(SECRET);
    const bobs = await play(hidden.record.stateAfter, seat(BOB), [{ name: 'light_fire', args: {} }]);
    expect(sent(bobs.models)).not.toContain(SECRET);
    expect(JSON.stringify(bobs.record.prompts)).not.toContain(SECRET);
    expect(JSON.stringify(bobs.record.delta)).not.toContain(SECRET);
    // Alice's own next turn: her Director sees her private field (rules and the Director read private fields).
    const alices = await play(bobs.record.stateAfter, seat(ALICE), [{ name: 'light_fire', args: {} }]);
    const director = alices.models.calls.find((c) => c.role === 'director')!;
    expect(JSON.stringify(director.request)).toContain(SECRET);
    expect((alices.record.stateAfter as Loose).camp.fire).toBe(true);
  });

  it('the Director and the Narrator are told who acts and who else is at the table', async () => {
    const cartridge = await fixture('two-seats');
    const { models } = await play(initialState(cartridge), seat(BOB, true), [
      { name: 'light_fire', args: {} },
    ]);
    for (const call of models.calls) {
      const text = JSON.stringify(call.request);
      expect(text).toContain('Acting now: Bob (character `bob`)');
      expect(text).toContain('Also at the table: Alice (character `alice`)');
      expect(text).toContain('whisper');
    }
  });

  it('replay binds the same copies and gives the stored state back', async () => {
    const cartridge = await fixture('two-seats');
    const first = await play(initialState(cartridge), seat(ALICE), [
      { name: 'take_hit', args: { amount: 2 } },
    ]);
    const second = await play(first.record.stateAfter, seat(BOB), [
      { name: 'take_hit', args: { amount: 4 } },
    ]);
    const replayed = replayTurnRules(cartridge, first.record.stateAfter, second.record);
    expect(replayed.divergences).toEqual([]);
    expect(canonicalJson(replayed.state)).toBe(canonicalJson(second.record.stateAfter));
  });
});

describe('a round: several actors', () => {
  const round: TurnTable = { actors: [ALICE, BOB], present: [ALICE, BOB] };

  it('each event acts for the character the Director names; replay agrees', async () => {
    const cartridge = await fixture('two-seats');
    const { record, models } = await play(
      initialState(cartridge),
      round,
      [
        { name: 'take_hit', args: { actor: 'Bob', amount: 2 } },
        { name: 'find_gold', args: {} },
        { name: 'take_hit', args: { actor: 'alice', amount: 1 } },
      ],
      'Alice: I duck.\nBob: I charge.',
    );
    const after = record.stateAfter as Loose;
    expect(after.players.bob).toEqual({ hp: 8, gold: 7, secret: 'none' });
    expect(after.players.alice).toEqual({ hp: 9, gold: 5, secret: 'none' });
    const tools = JSON.stringify((models.calls[0]!.request as Loose).tools);
    expect(tools).toContain('"enum":["alice","bob"]');
    const replayed = replayTurnRules(cartridge, initialState(cartridge), record);
    expect(canonicalJson(replayed.state)).toBe(canonicalJson(record.stateAfter));
  });

  it('its changes are each character’s own, from their own copy (not the first one’s before and the last one’s after)', async () => {
    const cartridge = await fixture('two-seats');
    const { record } = await play(initialState(cartridge), round, [
      { name: 'take_hit', args: { actor: 'alice', amount: 1 } },
      { name: 'find_gold', args: { amount: 2 } },
      { name: 'take_hit', args: { actor: 'bob', amount: 2 } },
      { name: 'hide_secret', args: { word: SECRET } },
      { name: 'light_fire', args: {} },
    ]);
    const after = record.stateAfter as Loose;
    expect(after.players.alice).toEqual({ hp: 9, gold: 7, secret: 'none' });
    expect(after.players.bob).toEqual({ hp: 8, gold: 5, secret: SECRET });
    const changes = record.delta.map((c) => [c.path.join('.'), c.before, c.op === 'set' ? c.after : null]);
    expect(changes).toEqual([
      ['camp.fire', false, true],
      ['hero.hp', 10, 9],
      ['hero.gold', 5, 7],
      ['hero.hp', 10, 8],
      ['hero.secret', 'none', SECRET],
    ]);
    // What every member is shown: the public changes; bob's secret is not among them.
    const shown = publicOutcome(cartridge.rules, record);
    expect(shown.changes.map((c) => c.path.join('.'))).toEqual([
      'camp.fire',
      'hero.hp',
      'hero.gold',
      'hero.hp',
    ]);
    expect(JSON.stringify(shown)).not.toContain(SECRET);
  });

  it('an actor who is not in the round is refused and changes nothing', async () => {
    const cartridge = await fixture('two-seats');
    const { record } = await play(initialState(cartridge), round, [
      { name: 'take_hit', args: { actor: 'carol', amount: 2 } },
    ]);
    expect(record.tools[0]).toMatchObject({ ok: false });
    expect(record.tools[0]!.content).toContain('one of alice, bob');
    expect((record.stateAfter as Loose).players.alice).toEqual({ hp: 10, gold: 5, secret: 'none' });
  });
});

describe('without a table', () => {
  it('the per-character domain is one shared party, as in a one-player cartridge', async () => {
    const cartridge = await fixture('two-seats');
    const { record } = await play(initialState(cartridge), undefined, [
      { name: 'take_hit', args: { actor: 'anyone', amount: 3 } },
    ]);
    const after = record.stateAfter as Loose;
    expect(after.hero.hp).toBe(7);
    expect(after.players).toBeUndefined();
    expect(record.input.table).toBeUndefined();
  });
});

describe('the demo at a table (cartridges/lanternmere: `player` per character)', () => {
  async function turn(
    state: GameState,
    actor: typeof ALICE,
    calls: { name: string; args: Record<string, unknown> }[],
  ) {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [{ toolCalls: calls }, { text: 'Go on.' }],
      narrator: [{ text: 'The lamps gutter.' }],
    });
    return (
      await collect({ cartridge, state, messages: [], input: 'I go', seed: 3, models, table: seat(actor) })
    ).record;
  }

  it('each character walks and spends on their own: Alice’s market and gold are not Bob’s', async () => {
    const cartridge = await lanternmere();
    const walked = await turn(initialState(cartridge), ALICE, [
      { name: 'travel', args: { destination: 'brine market' } },
    ]);
    const bought = await turn(walked.stateAfter, ALICE, [
      { name: 'buy_item', args: { item: 'brine tonic' } },
    ]);
    const alice = (bought.stateAfter as Loose).players.alice;
    expect(alice.location).toBe('brine market');
    expect(alice.gold).toBe(12);
    expect(alice.inventory).toContain('brine tonic');
    // Bob, at the inn where every character starts, cannot buy: there is no trader there.
    const bobs = await turn(bought.stateAfter, BOB, [{ name: 'buy_item', args: { item: 'brine tonic' } }]);
    const after = bobs.stateAfter as Loose;
    expect(after.players.bob).toMatchObject({ location: 'tallow rest', gold: 20 });
    expect(after.players.bob.inventory).not.toContain('brine tonic');
    expect(bobs.notes.join('\n')).toContain('no one to buy from here');
    expect(after.players.alice).toEqual(alice);
  });
});
