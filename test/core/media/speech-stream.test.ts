// The parts of a narration read aloud as it streams (src/core/media/speech-stream.ts): part 0 is the first
// sentence alone, later parts join a piece's sentences up to a doubling share, a dialogue line waits for the
// sentence that names its speaker, and — the property everything rests on — the parts of any narration so far
// are the first parts of the finished narration, whatever the cut.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  castVoices,
  MAX_SPEECH_INPUT_CHARS,
  SECOND_PART_CHARS,
  settledLength,
  streamedSpeech,
} from '../../../src/core/media/index.ts';

const VOICES = { narrator: 'nar', player: 'pc', npcs: new Map([['Mother Hesk', 'hesk']]) };
const NAMES = ['Mother Hesk', 'Bram'];
const texts = (
  narration: string,
  final: boolean,
  limits = { maxCharsPerRequest: 600, maxRequestsPerTurn: 12 },
) => streamedSpeech(narration, final, VOICES, limits, NAMES).parts.map((p) => [p.voice, p.text]);

describe('settledLength', () => {
  it('ends after the last stop followed by a space, outside quotes; an unclosed quote stops it', () => {
    expect(settledLength('One. Two')).toBe(4);
    expect(settledLength('One. Two.')).toBe(4);
    expect(settledLength('One. "Two. Three')).toBe(4);
    expect(settledLength('One. "Two. Three." Four. ')).toBe(24);
    expect(settledLength('No stop yet')).toBe(0);
  });
});

describe('streamedSpeech', () => {
  it('gives the first sentence as soon as the next one starts, and holds the last one while it may grow', () => {
    expect(texts('The fog lifts', false)).toEqual([]);
    expect(texts('The fog lifts. A bell', false)).toEqual([['nar', 'The fog lifts.']]);
    expect(texts('The fog lifts. A bell rings. A dog', false)).toEqual([['nar', 'The fog lifts.']]);
    expect(texts('The fog lifts. A bell rings. A dog barks.', true)).toEqual([
      ['nar', 'The fog lifts.'],
      ['nar', 'A bell rings. A dog barks.'],
    ]);
  });

  it('gives a quoted line only once the sentence after it is there, in its speaker’s voice', () => {
    expect(texts('The door creaks. "Sit," says', false)).toEqual([['nar', 'The door creaks.']]);
    expect(texts('The door creaks. "Sit," says Mother Hesk. She', false)).toEqual([
      ['nar', 'The door creaks.'],
      ['hesk', 'Sit,'],
    ]);
    // Named by the sentence before it: held while it is the last thing read.
    expect(texts('Mother Hesk looks up. "Sit." ', false)).toEqual([['nar', 'Mother Hesk looks up.']]);
    expect(texts('Mother Hesk looks up. "Sit." "Thanks," you say. ', false)).toEqual([
      ['nar', 'Mother Hesk looks up.'],
      ['hesk', 'Sit.'],
      ['pc', 'Thanks,'],
    ]);
  });

  it('joins sentences up to 300 characters in part 1, 600 in part 2, never past the request limit', () => {
    const sentence = `${'word '.repeat(19)}end.`; // 99 characters
    const narration = Array.from({ length: 12 }, () => sentence).join(' ');
    const parts = streamedSpeech(narration, true, VOICES).parts.map((p) => p.text.length);
    expect(parts[0]).toBe(99);
    expect(parts[1]).toBe(99 * 3 + 2);
    expect(parts[1]).toBeLessThanOrEqual(SECOND_PART_CHARS);
    expect(parts[2]).toBe(99 * 6 + 5);
    const small = streamedSpeech(narration, true, VOICES, {
      maxCharsPerRequest: 200,
      maxRequestsPerTurn: 40,
    });
    expect(small.parts.every((p) => p.text.length <= 200)).toBe(true);
  });

  it('gives at most maxRequestsPerTurn parts: at the limit all is spoken, one past it the rest is counted', () => {
    const limits = { maxCharsPerRequest: 10, maxRequestsPerTurn: 3 };
    const at = streamedSpeech('Aaaa. Bbbb. Cccc.', true, VOICES, limits);
    expect(at.parts.map((p) => p.text)).toEqual(['Aaaa.', 'Bbbb.', 'Cccc.']);
    expect(at.unspokenChars).toBe(0);
    const past = streamedSpeech('Aaaa. Bbbb. Cccc. Dddd.', true, VOICES, limits);
    expect(past.parts).toHaveLength(3);
    expect(past.unspokenChars).toBe(5);
    // While streaming, the limit met means no more parts will come.
    expect(streamedSpeech('Aaaa. Bbbb. Cccc. Dddd. E', false, VOICES, limits).complete).toBe(true);
    expect(streamedSpeech('Aaaa. Bbbb. Cccc', false, VOICES, limits).complete).toBe(false);
  });

  it('reads at most the planning budget: a narration that long counts as finished', () => {
    const long = 'Aaaa bbbb. '.repeat(Math.ceil(MAX_SPEECH_INPUT_CHARS / 11) + 5);
    const streamed = streamedSpeech(long, false, VOICES);
    expect(streamed.complete).toBe(true);
    expect(streamed.unspokenChars).toBeGreaterThan(long.length - MAX_SPEECH_INPUT_CHARS - 1);
  });

  it('the parts of any narration so far are the first parts of the finished one', () => {
    const word = fc.constantFrom(
      'Mother Hesk',
      'Bram',
      'you say',
      'the',
      'lamp',
      'says',
      '"',
      '\u201c',
      '\u201d',
      '.',
      '!',
      '?',
      ',',
      '\n',
      'x'.repeat(70),
    );
    const narration = fc.array(word, { maxLength: 80 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(narration, fc.integer({ min: 0, max: 5 }), (full, seedCut) => {
        const limits = { maxCharsPerRequest: 120, maxRequestsPerTurn: 50 };
        const finished = streamedSpeech(full, true, VOICES, limits, NAMES).parts;
        for (let cut = seedCut; cut <= full.length; cut += 3) {
          const sofar = streamedSpeech(full.slice(0, cut), false, VOICES, limits, NAMES).parts;
          expect(finished.slice(0, sofar.length)).toEqual(sofar);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('castVoices', () => {
  it('gives a voice set for one name of an entity to all its names; a name set itself keeps its own', () => {
    const voices = castVoices(
      [['Mother Hesk', 'Hesk', 'the innkeeper'], ['Tobin Quell', 'Tobin'], ['Bram']],
      new Map([
        ['Hesk', 'nova'],
        ['Tobin Quell', 'onyx'],
        ['Tobin', 'echo'],
      ]),
    );
    expect(Object.fromEntries(voices)).toEqual({
      'Mother Hesk': 'nova',
      Hesk: 'nova',
      'the innkeeper': 'nova',
      'Tobin Quell': 'onyx',
      Tobin: 'echo',
    });
  });
});
