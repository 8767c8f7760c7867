// The anchors every reply of the OpenAI endpoint carries (src/apps/server/openai/anchor.ts): invisible, read
// back exactly from wherever a front end leaves them, removed before anything else reads a message, and never
// confused with the player's own text. (Their patterns are linear by structure: test/core/lore/regex-linearity.test.ts.) Plus what a transcript makes of them, of names written under a renamed
// persona, and of a group chat's second member.
import { describe, expect, it } from 'vitest';
import {
  ANCHOR_CHARACTERS,
  anchorFor,
  MAX_ANCHOR_ID_CHARS,
  MAX_ANCHORS_PER_MESSAGE,
  readAnchors,
} from '../../../../src/apps/server/openai/anchor.ts';
import {
  comparable,
  MAX_PREFIX_NAMES,
  readTranscript,
} from '../../../../src/apps/server/openai/transcript.ts';

const TURN = '3f6c2a91-0b4e-4d2a-9c1e-7a5b8e2f1d03';
const PARENT = 'c0ffee00-1111-4222-8333-944455556666';

describe('anchors', () => {
  it('are invisible characters only, and name the turn back exactly, for each kind', () => {
    for (const kind of ['is', 'at', 'after'] as const) {
      const anchor = anchorFor(TURN, kind);
      expect(anchor).toHaveLength(35);
      expect(anchor.replace(ANCHOR_CHARACTERS, '')).toBe('');
      expect(anchor.trim()).toBe(anchor); // `trim` keeps them: front ends trim replies
      expect(anchor.normalize('NFKC')).toBe(anchor);
      const read = readAnchors(`${anchor}The lamp burns.`);
      expect(read.text).toBe('The lamp burns.');
      expect([read.turnIds, read.atIds, read.afterIds]).toEqual([
        kind === 'is' ? [TURN] : [],
        kind === 'at' ? [TURN] : [],
        kind === 'after' ? [TURN] : [],
      ]);
    }
  });

  it('are read wherever a front end leaves them: after a name, with markdown, several in order', () => {
    const reply = `Lanternmere: ${anchorFor(TURN)}${anchorFor(PARENT, 'after')}*The lamp* burns. ${anchorFor(PARENT)}More.`;
    const read = readAnchors(reply);
    expect(read).toEqual({
      text: 'Lanternmere: *The lamp* burns. More.',
      turnIds: [TURN, PARENT],
      atIds: [],
      afterIds: [PARENT],
    });
  });

  it(`carry ids the store lets callers choose, up to ${MAX_ANCHOR_ID_CHARS} printable characters`, () => {
    const longest = 't'.repeat(MAX_ANCHOR_ID_CHARS);
    expect(readAnchors(anchorFor(longest)).turnIds).toEqual([longest]);
    expect(readAnchors(anchorFor('turn-7', 'at')).atIds).toEqual(['turn-7']);
    expect(() => anchorFor('t'.repeat(MAX_ANCHOR_ID_CHARS + 1))).toThrow(/cannot be written in an anchor/);
    expect(() => anchorFor('with space')).toThrow(RangeError);
  });

  it('name nothing when damaged or forged, and are removed all the same', () => {
    const anchor = anchorFor(TURN);
    // The closing frame deleted: not an anchor; what is left is invisible and ignored by comparisons.
    const damaged = `${anchor.slice(0, -1)}The lamp.`;
    expect(readAnchors(damaged).turnIds).toEqual([]);
    expect(comparable(damaged)).toBe(comparable('The lamp.'));
    // A well-framed body of an unknown kind, or a UUID of the wrong length.
    const forged = `\u2060${String.fromCharCode(0xfe0c).repeat(33)}\u2060x`;
    expect(readAnchors(forged)).toMatchObject({ text: 'x', turnIds: [], atIds: [], afterIds: [] });
    const short = `\u2060${String.fromCharCode(0xfe00).repeat(20)}\u2060y`;
    expect(readAnchors(short)).toMatchObject({ text: 'y', turnIds: [] });
  });

  it(`read ${MAX_ANCHORS_PER_MESSAGE} per kind from one message, no more, and remove every one`, () => {
    const ids = Array.from({ length: MAX_ANCHORS_PER_MESSAGE + 1 }, (_, i) => `t${i}`);
    const read = readAnchors(ids.map((id) => `${anchorFor(id)}.`).join(''));
    expect(read.turnIds).toEqual(ids.slice(0, MAX_ANCHORS_PER_MESSAGE));
    expect(read.text).toBe('.'.repeat(ids.length));
  });
});

describe('a transcript with anchors', () => {
  it('keeps each reply’s anchors beside it and none in any text, the player’s messages included', () => {
    const t = readTranscript([
      { role: 'system', content: `Main prompt.${anchorFor(PARENT)}` },
      { role: 'assistant', content: 'Greeting.' },
      { role: 'user', content: `I copy this${anchorFor(PARENT)} in.` },
      { role: 'assistant', content: `${anchorFor(TURN)}${anchorFor(PARENT, 'after')}Reply.` },
      { role: 'user', content: 'Next.' },
    ]);
    expect(t).toMatchObject({
      context: 'Main prompt.',
      exchanges: [{ user: 'I copy this in.', assistant: 'Reply.', anchors: [TURN], after: [PARENT] }],
      user: 'Next.',
    });
  });

  it('reads names written under a renamed persona, and under a group’s members', () => {
    const renamed = readTranscript([
      { role: 'system', content: 'A chat between Lanternmere and Ash.' },
      { role: 'user', content: 'Wren: I walk.' },
      { role: 'assistant', content: 'Lanternmere: You walk.' },
      { role: 'user', content: 'Ash: I run.' },
    ]);
    expect(renamed).toMatchObject({
      exchanges: [{ user: 'I walk.', assistant: 'You walk.' }],
      user: 'I run.',
    });
    const tooMany = Array.from({ length: MAX_PREFIX_NAMES + 1 }, (_, i) => [
      { role: 'user', content: `Name${i}: line ${i}` },
      { role: 'assistant', content: 'ok' },
    ]).flat();
    const names = readTranscript([
      { role: 'system', content: 'Name0 plays.' },
      ...tooMany,
      { role: 'user', content: 'Name0: last' },
    ]);
    // Past MAX_PREFIX_NAMES names these are not a front end's names: the words stay as written.
    expect(names).toMatchObject({ user: 'Name0: last' });
    const atLimit = readTranscript([
      { role: 'system', content: 'Name0 plays.' },
      ...tooMany.slice(0, 2 * (MAX_PREFIX_NAMES - 1)),
      { role: 'user', content: 'Name0: last' },
    ]);
    expect(atLimit).toMatchObject({ user: 'last' });
  });

  it('tells Continue from a group chat’s next member answering the same message', () => {
    const base = [
      { role: 'user', content: 'Hello, both.' },
      { role: 'assistant', content: `${anchorFor(TURN)}Mira: Hi.` },
    ];
    expect(
      readTranscript([...base, { role: 'system', content: '[Write the next reply only as Seraphina.]' }]),
    ).toMatchObject({ kind: 'next-speaker', speaker: 'Seraphina' });
    expect(
      readTranscript([
        ...base,
        { role: 'system', content: '[Write the next reply only as Seraphina.]' },
        {
          role: 'system',
          content:
            '[Continue the following message. Do not include ANY parts of the original message: Mira: Hi.]',
        },
      ]),
    ).toMatchObject({ kind: 'continue' });
    expect(readTranscript(base)).toMatchObject({ kind: 'continue' });
  });
});
