// The pure parts of the OpenAI-compatible endpoint: reading a front end's transcript (system messages as
// context, greeting, exchanges, continue) and the details block (dice and PUBLIC changes only).
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../../src/adapters/store/repository.ts';
import { detailsBlock } from '../../../../src/apps/server/openai/details.ts';
import { MAX_PLAYER_CONTEXT_CHARS, readTranscript } from '../../../../src/apps/server/openai/transcript.ts';
import { lanternmere } from '../../../engine/turn/helpers.ts';

describe('readTranscript', () => {
  it('splits system context, greeting and exchanges, and sees a new message', () => {
    const t = readTranscript([
      { role: 'system', content: 'Main prompt.' },
      { role: 'assistant', content: 'Greeting.' },
      { role: 'system', content: '[Start a new Chat]' },
      { role: 'user', content: 'One.' },
      { role: 'assistant', content: 'Reply one.' },
      {
        role: 'user',
        content: [{ type: 'text', text: 'Two' }, { type: 'image_url' }, { type: 'text', text: 'parts' }],
      },
      { role: 'system', content: 'Main prompt.' },
    ]);
    expect(t).toEqual({
      kind: 'reply',
      context: 'Main prompt.\n\n[Start a new Chat]',
      greeting: 'Greeting.',
      greetingAnchors: [],
      greetingAt: [],
      greetingAfter: [],
      exchanges: [{ user: 'One.', assistant: 'Reply one.', anchors: [], at: [], after: [] }],
      user: 'Two\nparts',
    });
  });

  it('removes each merged message’s own name, under a persona renamed between them, and no other colon', () => {
    // A reload mid-stream: the first line's reply never came, the line is sent again after /persona Ash.
    const t = readTranscript([
      {
        role: 'system',
        content: "Write Lanternmere's next reply in a fictional chat between Lanternmere and Ash.",
      },
      { role: 'assistant', content: 'Lanternmere: Welcome.' },
      { role: 'user', content: 'Wren: I look.' },
      { role: 'assistant', content: 'Lanternmere: You see mist.' },
      { role: 'user', content: 'Ash: I walk to the pier.' },
      { role: 'user', content: 'Ash: I walk to the pier again.' },
      { role: 'user', content: 'Note: this colon is mine.' },
    ]);
    expect(t).toMatchObject({
      kind: 'reply',
      greeting: 'Welcome.',
      exchanges: [{ user: 'I look.', assistant: 'You see mist.' }],
      user: 'I walk to the pier.\nI walk to the pier again.\nNote: this colon is mine.',
    });
  });

  it('reads a transcript ending with the assistant as continue (prefill and nudge alike)', () => {
    const prefill = readTranscript([
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: 'It begins' },
    ]);
    expect(prefill).toMatchObject({ kind: 'continue', exchanges: [{ user: 'Go.', assistant: 'It begins' }] });
    const nudge = readTranscript([
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: 'It begins' },
      { role: 'system', content: '[Continue your last message without repeating its original content.]' },
    ]);
    expect(nudge).toMatchObject({ kind: 'continue' });
  });

  it('merges consecutive messages of one role and refuses a transcript with nothing to answer', () => {
    const merged = readTranscript([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
    expect(merged).toMatchObject({ kind: 'reply', user: 'a\nb' });
    expect(readTranscript([{ role: 'system', content: 'x' }])).toEqual({
      error: 'the messages hold no user message to answer',
    });
    expect(readTranscript([{ role: 'user', content: '   ' }])).toEqual({
      error: 'the last user message is empty',
    });
  });

  it('keeps MAX_PLAYER_CONTEXT_CHARS of system context, no more', () => {
    const at = readTranscript([
      { role: 'system', content: 'x'.repeat(MAX_PLAYER_CONTEXT_CHARS) },
      { role: 'user', content: 'hi' },
    ]);
    expect('context' in at && at.context.length).toBe(MAX_PLAYER_CONTEXT_CHARS);
    const over = readTranscript([
      { role: 'system', content: 'x'.repeat(MAX_PLAYER_CONTEXT_CHARS + 1) },
      { role: 'user', content: 'hi' },
    ]);
    expect('context' in over && over.context.length).toBe(MAX_PLAYER_CONTEXT_CHARS);
    expect('context' in over && over.context.endsWith('…')).toBe(true);
  });
});

describe('detailsBlock', () => {
  const turn = (record: unknown, state: unknown) => ({ record, state }) as unknown as Turn;

  it('lists dice and changes to public fields, never private ones', async () => {
    const cartridge = await lanternmere();
    const state = JSON.parse(JSON.stringify(cartridge.rules.initialState));
    state.player.hp = 17;
    const record = {
      kind: 'turn',
      rolls: [{ expr: 'roll(1d20) + @state.bestiary.secret', dice: '1d20', faces: [14], total: 14 }],
      delta: [
        { op: 'set', path: ['player', 'hp'], before: 24, after: 17 },
        { op: 'set', path: ['bestiary', 'eel', 'weakness'], before: 'x', after: 'fire' },
        { op: 'delete', path: ['player', 'inventory'], before: [] },
      ],
    };
    const block = detailsBlock(turn(record, state), cartridge);
    // The roll reads a private field, so only its total shows (as under each turn in the web client).
    expect(block).toBe('[MnesOS · roll: 14 · player hp 24 → 17 (-7) · player inventory removed]');
    expect(block).not.toContain('bestiary');
    expect(block).not.toContain('secret');
  });

  it('shows public dice with their faces, and keeps the block to one bracketed line', async () => {
    const cartridge = await lanternmere();
    const record = {
      kind: 'turn',
      rolls: [{ expr: 'roll(2d6)', dice: '2d6', faces: [3, 5], total: 8 }],
      delta: [{ op: 'set', path: ['player', 'location'], before: 'tallow rest', after: 'x]\ny' }],
    };
    const block = detailsBlock(turn(record, cartridge.rules.initialState), cartridge);
    expect(block).toBe('[MnesOS · roll 2d6: 3 + 5 = 8 · player location: tallow rest → x  y]');
  });

  it('is empty for a turn without dice or public changes, and for the first message', async () => {
    const cartridge = await lanternmere();
    expect(detailsBlock(turn({ kind: 'turn', rolls: [], delta: [] }, {}), cartridge)).toBe('');
    expect(detailsBlock(turn({ kind: 'genesis' }, {}), cartridge)).toBe('');
  });
});
