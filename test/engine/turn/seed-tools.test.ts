// The seed's tool names, still used by prompts written for the original (issue 38): the Director's
// `multi_lore_lookup(queries)` runs `lore_lookup`, and the Narrator's `end_of_narration(actions)` is read
// as the `record_world_changes` call it amounts to (a clock change, no world events). Neither is offered.

import { describe, expect, it } from 'vitest';
import { collect, initialState, lanternmere, scripted } from './helpers.ts';
import { DIRECTIVES, millTurn } from './ledger-fixture.ts';

function endOfNarration(text: string, actions: unknown): Record<string, unknown> {
  return { text, toolCalls: [{ name: 'end_of_narration', args: { actions } }] };
}

/** A turn on Lanternmere asking about the chapel, whose Director calls `multi_lore_lookup` with `args`. */
async function chapelTurn(args: Record<string, unknown>) {
  const cartridge = await lanternmere();
  const models = scripted({
    director: [{ toolCalls: [{ name: 'multi_lore_lookup', args }] }, { text: DIRECTIVES }],
    narrator: [{ text: 'The chapel.' }],
  });
  const { record } = await collect({
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input: 'tell me of the chapel',
    seed: 3,
    models,
  });
  return { record, models };
}

describe('multi_lore_lookup', () => {
  it('runs lore_lookup with the same queries, and is not among the tools offered', async () => {
    const { record, models } = await chapelTurn({ queries: ['drowned chapel'] });
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([['multi_lore_lookup', true]]);
    const result = JSON.parse(record.tools[0]!.content) as { ok: boolean; lore: string };
    expect(result.lore.toLowerCase()).toContain('chapel');
    const offered = (models.director.requests[0]!.tools ?? []).map((t) => t.name);
    expect(offered).toContain('lore_lookup');
    expect(offered).not.toContain('multi_lore_lookup');
  });

  it('its arguments are checked as lore_lookup checks them', async () => {
    const { record } = await chapelTurn({ query: 'chapel' });
    expect(record.tools[0]).toMatchObject({ name: 'multi_lore_lookup', ok: false });
  });
});

describe('end_of_narration', () => {
  it('advance_time moves the clock as time.advance does, with no world events', async () => {
    const { record } = await millTurn([
      endOfNarration('You wait.', [{ type: 'advance_time', duration: 'PT2H' }]),
    ]);
    expect(record.ledger).toMatchObject({ status: 'applied', time: { kind: 'advance', seconds: 7200 } });
    expect(record.stateAfter.game_time).toBe('1199-01-01T10:00:00');
    expect(record.ledgerEvents).toEqual([]);
  });

  it('set_game_time (any case of its type) sets the clock as time.set does', async () => {
    const { record } = await millTurn([
      endOfNarration('Night.', [{ type: 'SET_GAME_TIME', value: '1199-01-01T21:00:00' }]),
    ]);
    expect(record.stateAfter.game_time).toBe('1199-01-01T21:00:00');
  });

  it('no actions records nothing and moves nothing', async () => {
    const { record } = await millTurn([endOfNarration('Dusk.', [])]);
    // As record_world_changes with no events: nothing to record.
    expect(record.ledger.status).toBe('none');
    expect(record.ledger.attempts[0]!.errors).toEqual([]);
    expect(record.stateAfter.game_time).toBe('1199-01-01T08:00:00');
  });

  it('an unknown action or two actions is refused as a bad time, then repaired', async () => {
    for (const actions of [
      [{ type: 'summon_dragon' }],
      [
        { type: 'advance_time', duration: '1h' },
        { type: 'advance_time', duration: '1h' },
      ],
    ]) {
      const { record } = await millTurn([
        endOfNarration('Dusk.', actions),
        { toolCalls: [{ name: 'record_world_changes', args: { events: [] } }] },
      ]);
      const first = record.ledger.attempts[0]!;
      expect(first.errors.map((e) => e.code)).toEqual(['LEDGER_BAD_TIME']);
      expect(first.errors[0]!.message).toMatch(/^end_of_narration: /);
      expect(record.ledger.attempts).toHaveLength(2);
      expect(record.ledger.attempts[1]!.errors).toEqual([]);
    }
  });

  it('a bad duration is the same error time.advance gives', async () => {
    const { record } = await millTurn([
      endOfNarration('Dusk.', [{ type: 'advance_time', duration: 'soon' }]),
      { toolCalls: [{ name: 'record_world_changes', args: { events: [] } }] },
    ]);
    expect(record.ledger.attempts[0]!.errors[0]!.message).toContain('time.advance');
  });
});
