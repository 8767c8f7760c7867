// The `turn` command's inputs (messages, world, interaction) and the play session name: each limit at the
// limit and just past it, and errors that name the file and the place.

import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseInteractionArg } from '../../../src/apps/cli/play/interaction-arg.ts';
import {
  MAX_INTERACTION_ARG_CHARS,
  MAX_MESSAGES_FILE_BYTES,
  MAX_PLAY_NAME_CHARS,
  MAX_STORY_MESSAGES,
  MAX_WORLD_FILE_BYTES,
} from '../../../src/apps/cli/play/limits.ts';
import { checkSessionName } from '../../../src/apps/cli/play/open-session.ts';
import { parseMessages, readMessagesFile } from '../../../src/apps/cli/play/story-file.ts';
import { ledgerTurnOf, readWorldFile } from '../../../src/apps/cli/play/world-file.ts';
import { UserError } from '../../../src/apps/cli/user-error.ts';
import { workspaces } from './helpers.ts';

const workspace = workspaces();

/** JSON text of exactly `bytes` bytes: an array of one message padded with spaces. */
function paddedMessages(bytes: number): string {
  const text = JSON.stringify([{ role: 'user', content: 'hi' }]);
  return text + ' '.repeat(bytes - text.length);
}

describe('messages file', () => {
  it('reads the story as {role, content} messages', () => {
    expect(
      parseMessages('[{"role":"assistant","content":"Hello."},{"role":"user","content":"Hi"}]', 'm.json'),
    ).toEqual([
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('names the file and the message that is wrong', () => {
    expect(() => parseMessages('{', 'm.json')).toThrow(/m\.json: not valid JSON/);
    expect(() => parseMessages('{}', 'm.json')).toThrow(/m\.json: expected a JSON array/);
    expect(() => parseMessages('[{"role":"system","content":"x"}]', 'm.json')).toThrow(
      'm.json: [0].role: must be "user" or "assistant", got "system".',
    );
    expect(() => parseMessages('[{"role":"user","content":"a"},{"role":"user"}]', 'm.json')).toThrow(
      'm.json: [1].content: must be a string.',
    );
    expect(() => parseMessages('[{"role":"user","content":"a","name":"x"}]', 'm.json')).toThrow(
      /unknown key 'name'/,
    );
    expect(() => readMessagesFile('/no/such/messages.json')).toThrow(UserError);
  });

  it(`accepts ${MAX_STORY_MESSAGES} messages and refuses one more (MAX_STORY_MESSAGES)`, () => {
    const many = (n: number) =>
      JSON.stringify(Array.from({ length: n }, () => ({ role: 'user', content: '.' })));
    expect(parseMessages(many(MAX_STORY_MESSAGES), 'm.json')).toHaveLength(MAX_STORY_MESSAGES);
    expect(() => parseMessages(many(MAX_STORY_MESSAGES + 1), 'm.json')).toThrow(/MAX_STORY_MESSAGES/);
  });

  it(`reads a file of ${MAX_MESSAGES_FILE_BYTES} bytes and refuses one byte more (MAX_MESSAGES_FILE_BYTES)`, () => {
    const { file } = workspace();
    expect(readMessagesFile(file('at.json', paddedMessages(MAX_MESSAGES_FILE_BYTES)))).toHaveLength(1);
    const past = file('past.json', paddedMessages(MAX_MESSAGES_FILE_BYTES + 1));
    expect(() => readMessagesFile(past)).toThrow(
      /past\.json: messages file is \d+ bytes, over .*MAX_MESSAGES_FILE_BYTES/,
    );
  });

  it('gives the ledger turn as one more than the player turns so far', () => {
    expect(ledgerTurnOf([])).toBe(1);
    expect(
      ledgerTurnOf([
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
      ]),
    ).toBe(2);
  });
});

describe('world file', () => {
  const world = JSON.stringify({
    version: 1,
    entities: {},
    facts: {},
    relationships: {},
    threads: {},
    scene: null,
  });

  it('reads a world ledger and refuses what is not one', () => {
    const { file } = workspace();
    expect(readWorldFile(file('w.json', world)).version).toBe(1);
    expect(() => readWorldFile(file('v.json', '{"version": 99}'))).toThrow(/v\.json: not a world ledger/);
    expect(() => readWorldFile(file('j.json', 'nope'))).toThrow(/j\.json: not valid JSON/);
  });

  it(`reads a file of ${MAX_WORLD_FILE_BYTES} bytes and refuses one byte more (MAX_WORLD_FILE_BYTES)`, () => {
    const { file } = workspace();
    const padded = (bytes: number) => world + ' '.repeat(bytes - world.length);
    expect(readWorldFile(file('at.json', padded(MAX_WORLD_FILE_BYTES))).version).toBe(1);
    expect(() => readWorldFile(file('past.json', padded(MAX_WORLD_FILE_BYTES + 1)))).toThrow(
      /MAX_WORLD_FILE_BYTES/,
    );
  });
});

describe('--interaction', () => {
  it('parses a JSON object and refuses anything else as a usage error', () => {
    expect(parseInteractionArg('{"minigame_id":"g","status":"failed"}')).toEqual({
      minigame_id: 'g',
      status: 'failed',
    });
    expect(() => parseInteractionArg('[1]')).toThrow(InvalidArgumentError);
    expect(() => parseInteractionArg('{')).toThrow(/not valid JSON/);
  });

  it(`accepts ${MAX_INTERACTION_ARG_CHARS} characters and refuses one more (MAX_INTERACTION_ARG_CHARS)`, () => {
    const head = '{"minigame_id":"g","status":"failed","data":{"pad":"';
    const tail = '"}}';
    const of = (n: number) => head + 'x'.repeat(n - head.length - tail.length) + tail;
    expect(parseInteractionArg(of(MAX_INTERACTION_ARG_CHARS)).minigame_id).toBe('g');
    expect(() => parseInteractionArg(of(MAX_INTERACTION_ARG_CHARS + 1))).toThrow(/MAX_INTERACTION_ARG_CHARS/);
  });
});

describe('--session name', () => {
  it(`accepts ${MAX_PLAY_NAME_CHARS} characters and refuses one more or an empty name, as usage errors`, () => {
    expect(checkSessionName(` ${'s'.repeat(MAX_PLAY_NAME_CHARS)} `)).toBe('s'.repeat(MAX_PLAY_NAME_CHARS));
    const past = (() => {
      try {
        checkSessionName('s'.repeat(MAX_PLAY_NAME_CHARS + 1));
      } catch (error) {
        return error;
      }
    })();
    expect(past).toBeInstanceOf(UserError);
    expect((past as UserError).exitCode).toBe(2);
    expect((past as UserError).message).toContain('MAX_PLAY_NAME_CHARS');
    expect(() => checkSessionName('  ')).toThrow(/empty/);
  });
});
