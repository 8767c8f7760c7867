// The play screen's state (src/apps/web/play/play-state.ts): a streamed turn's steps, what a failure shows
// (which words go back in the box, what can be retried), the story cut while an edited message replays.
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../../src/apps/web/lib/errors.ts';
import {
  initialPlay,
  type LiveTurn,
  liveStep,
  playErrorOf,
  playReducer,
  storyOf,
} from '../../../src/apps/web/play/play-state.ts';
import { buildTree } from '../../../src/apps/web/play/tree.ts';

const live: LiveTurn = {
  kind: 'turn',
  after: null,
  input: 'look',
  narration: '',
  phase: 'thinking',
  tool: null,
};

describe('a streamed turn', () => {
  it('shows the phase, the rule event run and the narration as it grows, then that it is saving', () => {
    const steps = [
      liveStep(live, { event: 'start', data: { turnId: 't2', parentId: 't1' } }),
      liveStep(live, { event: 'tool_call', data: { round: 1, name: 'search' } }),
      liveStep(
        { ...live, phase: 'rolling', tool: 'search' },
        { event: 'phase', data: { phase: 'narrator' } },
      ),
      liveStep(live, { event: 'phase', data: { phase: 'cycle_tick' } }),
      liveStep({ ...live, narration: 'The ' }, { event: 'narration', data: { text: 'fen.' } }),
    ];
    expect(steps.map((s) => [s.phase, s.tool, s.narration])).toEqual([
      ['thinking', null, ''],
      ['rolling', 'search', ''],
      ['narrating', null, ''],
      ['rolling', null, ''],
      ['narrating', null, 'The fen.'],
    ]);
  });
});

describe('a failed action', () => {
  const sent = { body: { input: 'what now?' }, shown: 'what now?' };
  const reply = (reason: string) =>
    new ApiFailure(422, 'no_turn', 'Try: look', [], { kind: 'reply', reason });

  it('puts back words the engine did not understand, not words it answered in full; a reply is no retry', () => {
    expect(playErrorOf(reply('unknown'), sent)).toEqual({
      kind: 'reply',
      message: 'Try: look',
      retry: null,
      input: 'what now?',
    });
    for (const reason of ['help', 'free', 'refused'])
      expect(playErrorOf(reply(reason), sent).input).toBeNull();
  });

  it('lets a model failure be retried as it was sent', () => {
    const error = playErrorOf(new ApiFailure(502, 'model_failed', 'the model did not answer'), sent);
    expect([error.kind, error.retry]).toEqual(['model', sent]);
  });

  it('says next to the first failure that the story could not be re-read', () => {
    const failed = playReducer(initialPlay, { type: 'failed', error: playErrorOf(new Error('lost'), null) });
    const reread = playReducer(failed, { type: 'reread-failed', message: 'offline' });
    expect(reread.error?.message).toBe('lost (The story could not be re-read: offline)');
    // Nothing shown: nothing to add to.
    expect(playReducer(initialPlay, { type: 'reread-failed', message: 'x' }).error).toBeNull();
  });
});

describe('the story shown', () => {
  const node = (id: string, parentId: string | null, depth: number) => ({
    id,
    parentId,
    depth,
    siblingIndex: 0,
    seq: depth,
    createdAt: depth,
  });
  const tree = buildTree([node('a', null, 0), node('b', 'a', 1), node('c', 'b', 2)]);
  const session = {
    id: 's',
    cartridgeVersionId: 'v',
    personaId: null,
    title: null,
    headTurnId: 'c',
    turnCount: 3,
    createdAt: 0,
    updatedAt: 0,
  };
  const turns = new Map(['a', 'b', 'c'].map((id) => [id, { id } as never]));

  it('is the head’s branch, cut after the turn an edited message replays from', () => {
    expect(storyOf(tree, session, turns, null).map((t: { id: string }) => t.id)).toEqual(['a', 'b', 'c']);
    expect(storyOf(tree, session, turns, 'a').map((t: { id: string }) => t.id)).toEqual(['a']);
    expect(storyOf(tree, null, turns, null)).toEqual([]);
  });

  it('is the newest turns read, back to the first one not read yet (older ones load on scrolling up)', () => {
    const newest = new Map(['b', 'c'].map((id) => [id, { id } as never]));
    expect(storyOf(tree, session, newest, null).map((t: { id: string }) => t.id)).toEqual(['b', 'c']);
    // A gap (b not read) hides what lies before it, so the story never skips a turn.
    const gap = new Map(['a', 'c'].map((id) => [id, { id } as never]));
    expect(storyOf(tree, session, gap, null).map((t: { id: string }) => t.id)).toEqual(['c']);
  });
});
