// The speech plan: narration split from quoted dialogue, each line's speaker and voice, and the limits
// (characters per request, requests per turn) at the limit and just past it.

import { describe, expect, it } from 'vitest';
import { chunkText, planSpeech, speechPieces, splitDialogue } from '../../../src/core/media/index.ts';

const VOICES = { narrator: 'nar', player: 'pc', npcs: new Map([['Mother Hesk', 'hesk']]) };

describe('splitDialogue', () => {
  it('splits straight and curly quotes from narration, in order; an unclosed quote stays narration', () => {
    expect(
      splitDialogue('Hesk looks up. "Room\'s a crown," she says. \u201cPay first.\u201d Then "oops'),
    ).toEqual([
      { kind: 'narration', text: 'Hesk looks up.' },
      { kind: 'dialogue', text: "Room's a crown," },
      { kind: 'narration', text: 'she says.' },
      { kind: 'dialogue', text: 'Pay first.' },
      { kind: 'narration', text: 'Then "oops' },
    ]);
  });
});

describe('splitDialogue on hostile quotes', () => {
  it('many unclosed quotes stay narration, and a later pair of another kind still splits', () => {
    const text = `Bram waits ${'\u201c'.repeat(5_000)} "Hi," says Bram. \u201cStill open`;
    const parts = splitDialogue(text);
    expect(parts.map((p) => p.kind)).toEqual(['narration', 'dialogue', 'narration']);
    expect(parts[0]?.text).toBe(`Bram waits ${'\u201c'.repeat(5_000)}`);
    expect(parts[1]?.text).toBe('Hi,');
    expect(parts[2]?.text).toBe('says Bram. \u201cStill open');
  });
});

describe('speakers and voices', () => {
  it('gives a quoted line to the NPC named before it or after it, to the player for "you say", else the narrator', () => {
    const pieces = speechPieces(
      'Mother Hesk wipes the bar. "Sit." "Thanks," you say. "Mind the eels," mutters Mother Hesk. A dog barks. "Woof."',
      ['Mother Hesk', 'Bram'],
    );
    expect(pieces.map((p) => [p.speaker.kind === 'npc' ? p.speaker.name : p.speaker.kind, p.text])).toEqual([
      ['narrator', 'Mother Hesk wipes the bar.'],
      ['Mother Hesk', 'Sit.'],
      ['player', 'Thanks,'],
      ['narrator', 'you say.'],
      ['Mother Hesk', 'Mind the eels,'],
      ['narrator', 'mutters Mother Hesk. A dog barks.'],
      ['narrator', 'Woof.'],
    ]);
    const plan = planSpeech('Mother Hesk nods. "Sit." "Yes," you say.', VOICES, undefined, ['Mother Hesk']);
    expect(plan.requests.map((r) => r.voice)).toEqual(['nar', 'hesk', 'pc', 'nar']);
  });
});

describe('limits', () => {
  it('a piece of exactly maxCharsPerRequest characters is one request; one more character makes two', () => {
    const limits = { maxCharsPerRequest: 20, maxRequestsPerTurn: 10 };
    const at = 'abcd efgh ijkl mnop.';
    expect(at).toHaveLength(20);
    expect(planSpeech(at, VOICES, limits).requests.map((r) => r.text)).toEqual([at]);
    const past = `${at}q`;
    const two = planSpeech(past, VOICES, limits).requests.map((r) => r.text);
    expect(two).toHaveLength(2);
    for (const text of two) expect(text.length).toBeLessThanOrEqual(20);
    expect(two.join(' ')).toBe(past);
  });

  it('chunks cut at a sentence end when one is in reach, else a space, else anywhere', () => {
    expect(chunkText('One two. Three four five', 12)).toEqual(['One two.', 'Three four', 'five']);
    expect(chunkText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('maxRequestsPerTurn requests are planned; past it the rest is counted as unspoken', () => {
    const limits = { maxCharsPerRequest: 10, maxRequestsPerTurn: 3 };
    const at = planSpeech('aaaa. bbbb. cccc.', VOICES, limits);
    expect(at.requests).toHaveLength(3);
    expect(at.unspokenChars).toBe(0);
    const past = planSpeech('aaaa. bbbb. cccc. dddd.', VOICES, limits);
    expect(past.requests).toHaveLength(3);
    expect(past.unspokenChars).toBe('dddd.'.length);
  });

  it('a narration far over the planning bound is planned from its start only', () => {
    const huge = `"${'a '.repeat(200_000)}`;
    const plan = planSpeech(huge, VOICES, { maxCharsPerRequest: 100, maxRequestsPerTurn: 2 });
    expect(plan.requests).toHaveLength(2);
    expect(plan.unspokenChars).toBeGreaterThan(380_000);
  });
});
