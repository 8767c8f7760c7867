// The table view's pure parts: the reply a player gets when their action joins a round (the turn route's
// 202) and what each live event does to the table view (web/table/use-table.ts).

import { describe, expect, it } from 'vitest';
import { roundKeptText } from '../../../src/apps/web/table/round-kept.ts';
import { afterLive, type TableState } from '../../../src/apps/web/table/use-table.ts';

describe('a round’s action kept', () => {
  it('says the round and whom it still waits for', () => {
    expect(roundKeptText({ round: 3, submitted: ['bob'], waiting: ['alice'] })).toBe(
      'Your action is in for round 3; it plays when alice has acted, or the round is closed.',
    );
    expect(roundKeptText({ round: 1, submitted: ['bob'], waiting: ['alice', 'mara'] })).toBe(
      'Your action is in for round 1; it plays when alice, mara have acted, or the round is closed.',
    );
    expect(roundKeptText({ round: 2, submitted: ['bob', 'alice'], waiting: [] })).toBe(
      'Your action is in for round 2; it plays when the round is closed.',
    );
  });
});

describe('live events on the table view', () => {
  const idle: TableState = { snapshot: null, playing: null, error: null };

  it('follows a turn as it plays: started, its prose in pieces, then the committed turn reloads the story', () => {
    const started = afterLive({ event: 'turn_started', data: { turnId: 't1', by: 'bob' } });
    let state = started.update!(idle);
    expect(state.playing).toEqual({ turnId: 't1', by: 'bob', text: '' });
    for (const text of ['The ', 'door ', 'opens.'])
      state = afterLive({ event: 'narration', data: { turnId: 't1', text } }).update!(state);
    expect(state.playing?.text).toBe('The door opens.');
    // Prose of another turn is not this one's.
    state = afterLive({ event: 'narration', data: { turnId: 't0', text: 'stale' } }).update!(state);
    expect(state.playing?.text).toBe('The door opens.');
    const committed = afterLive({ event: 'turn', data: { turnId: 't1', gone: true } });
    expect(committed).toMatchObject({ story: true, refresh: true });
    expect(committed.update!(state).playing).toBeNull();
  });

  it('a change of the table reloads the table, not the story', () => {
    expect(afterLive({ event: 'member_left', data: { character: 'bob' } })).toEqual({ refresh: true });
    expect(afterLive({ event: 'queue', data: { queue: [] } })).toEqual({ refresh: true });
  });
});
