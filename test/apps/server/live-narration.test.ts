// The narrations streaming on a server process (src/apps/server/live-narration.ts): text kept up to the speech
// plan's budget and not a character past it, readers woken when a sentence may have ended or the turn ends (not
// on every delta), a reader that gives up answered at once, and an entry dropped when its turn ends.

import { describe, expect, it } from 'vitest';
import { LiveNarrations } from '../../../src/apps/server/live-narration.ts';
import { MAX_SPEECH_INPUT_CHARS } from '../../../src/core/media/index.ts';

describe('LiveNarrations', () => {
  it(`keeps ${MAX_SPEECH_INPUT_CHARS} characters of a narration and no more`, () => {
    const narrations = new LiveNarrations();
    const live = narrations.begin('p', 's', 't', 'parent');
    live.append('a'.repeat(MAX_SPEECH_INPUT_CHARS - 1));
    live.append('bc');
    expect(live.text).toHaveLength(MAX_SPEECH_INPUT_CHARS);
    expect(live.text.endsWith('ab')).toBe(true);
    live.append('more');
    expect(live.text).toHaveLength(MAX_SPEECH_INPUT_CHARS);
  });

  it('wakes a reader on a sentence end or the end of the turn, not on every word; drops the turn when it ends', async () => {
    const narrations = new LiveNarrations();
    const live = narrations.begin('p', 's', 't', 'parent');
    expect(narrations.get('s', 't')).toBe(live);
    const never = new AbortController().signal;
    let woken = 0;
    const wait = () => live.changed(never).then(() => woken++);
    const first = wait();
    live.append('The fog ');
    await Promise.resolve();
    expect(woken).toBe(0);
    live.append('lifts. ');
    await first;
    expect(woken).toBe(1);
    const second = wait();
    narrations.finish('s', 't', live);
    await second;
    expect(woken).toBe(2);
    expect(live.ended).toBe(true);
    expect(narrations.get('s', 't')).toBeUndefined();
    expect(narrations.size).toBe(0);
    // A reader of an ended turn is answered at once.
    await live.changed(never);
  });

  it('a reader that gives up is answered at once (its wait does not hang)', async () => {
    const live = new LiveNarrations().begin('p', 's', 't', 'parent');
    const controller = new AbortController();
    const waiting = live.changed(controller.signal);
    controller.abort();
    await waiting;
    live.append('Done. ');
  });
});
