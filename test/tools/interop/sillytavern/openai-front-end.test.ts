// The pure parts that keep a chat front end and the game together: the comparison form, the name prefixes
// SillyTavern writes into messages, greetings that differ only in the player's name, the front end's own
// generations, the `!` command prefix, readable model ids, what the endpoint remembers, and the offline
// baseline of a card with no rules.
import { describe, expect, it } from 'vitest';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import { loadCartridgeFromFiles } from '../../../../src/adapters/files/index.ts';
import { baselineAction, baselineAnswer, baselineHelp } from '../../../../src/apps/server/openai/baseline.ts';
import { engineCommand, frontEndHints } from '../../../../src/apps/server/openai/commands.ts';
import { frontEndRequest } from '../../../../src/apps/server/openai/front-end.ts';
import { ConversationMemory, MAX_UNDELIVERED } from '../../../../src/apps/server/openai/memory.ts';
import {
  MAX_TITLE_IN_MODEL_CHARS,
  sessionIdOf,
  sessionModelId,
} from '../../../../src/apps/server/openai/models.ts';
import { isNoTurnReply, NO_TURN_MARK, noteBlock } from '../../../../src/apps/server/openai/notes.ts';
import { sameGreeting } from '../../../../src/apps/server/openai/greeting.ts';
import {
  comparable,
  MAX_NAME_PREFIX_CHARS,
  readTranscript,
} from '../../../../src/apps/server/openai/transcript.ts';
import type { Session } from '../../../../src/adapters/store/repository.ts';

describe('comparable', () => {
  it('ignores whitespace, markdown emphasis, curly quotes and case', () => {
    expect(comparable('*She  opens*\nthe “door”.')).toBe(comparable('She opens the "door".'));
    expect(comparable('_Hello_ `there`')).toBe('hello there');
    expect(comparable('I buy a tonic.')).not.toBe(comparable('I buy a cloak.'));
  });
});

describe('name prefixes written into messages', () => {
  it('removes the persona and character names SillyTavern writes with "Message Content"', () => {
    const t = readTranscript([
      { role: 'system', content: 'A chat between Lanternmere and Wren.' },
      { role: 'assistant', content: 'Lanternmere: The barge bumps.' },
      { role: 'user', content: 'Wren: I buy a tonic.' },
    ]);
    expect(t).toMatchObject({ greeting: 'The barge bumps.', user: 'I buy a tonic.' });
  });

  it('keeps a colon that is part of what the player wrote', () => {
    const alone = readTranscript([{ role: 'user', content: 'Note: the door is locked.' }]);
    expect(alone).toMatchObject({ user: 'Note: the door is locked.' });
    const mixed = readTranscript([
      { role: 'user', content: 'Wren: hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'I say: hello again' },
    ]);
    expect(mixed).toMatchObject({ exchanges: [{ user: 'Wren: hi' }], user: 'I say: hello again' });
  });

  it('removes a prefix shared by two or more messages of a role, or a known name', () => {
    const shared = readTranscript([
      { role: 'user', content: 'Wren: one' },
      { role: 'assistant', content: 'Mira: two' },
      { role: 'user', content: 'Wren: three' },
    ]);
    expect(shared).toMatchObject({ exchanges: [{ user: 'one', assistant: 'Mira: two' }], user: 'three' });
    const known = readTranscript(
      [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'Mira: two' },
        { role: 'user', content: 'three' },
      ],
      { names: ['Mira'] },
    );
    expect(known).toMatchObject({ exchanges: [{ assistant: 'two' }] });
  });

  it(`takes names of up to ${MAX_NAME_PREFIX_CHARS} characters and three words`, () => {
    const at = 'A'.repeat(MAX_NAME_PREFIX_CHARS);
    const over = 'A'.repeat(MAX_NAME_PREFIX_CHARS + 1);
    const two = (name: string) =>
      readTranscript([
        { role: 'user', content: `${name}: one` },
        { role: 'assistant', content: 'r' },
        { role: 'user', content: `${name}: two` },
      ]);
    expect(two(at)).toMatchObject({ user: 'two' });
    expect(two(over)).toMatchObject({ user: `${over}: two` });
    expect(two('Sir Wren the Bold')).toMatchObject({ user: 'Sir Wren the Bold: two' });
    expect(two('Wren the Bold')).toMatchObject({ user: 'two' });
  });

  it('turns !commands into the game’s /commands', () => {
    expect(readTranscript([{ role: 'user', content: '!check_pack' }])).toMatchObject({ user: '/check_pack' });
    expect(readTranscript([{ role: 'user', content: 'Wow!' }])).toMatchObject({ user: 'Wow!' });
  });
});

describe('the command prefix', () => {
  it('maps !name to /name and hints to !name', () => {
    expect(engineCommand('!help')).toBe('/help');
    expect(engineCommand('  !travel destination="brine market"')).toBe('/travel destination="brine market"');
    expect(engineCommand('! help')).toBe('! help');
    expect(engineCommand('!!')).toBe('!!');
    expect(frontEndHints('Say one, or type /help for every command.')).toBe(
      'Say one, or type !help for every command.',
    );
    expect(frontEndHints('(Say it, or type /buy_item item=x.)')).toBe('(Say it, or type !buy_item item=x.)');
    expect(frontEndHints('1/2 of the gold and/or more')).toBe('1/2 of the gold and/or more');
  });
});

describe('greetings that differ in the player’s name only', () => {
  it('agree when only the game’s persona name was replaced', () => {
    expect(sameGreeting('Hello, Wren. Come in, Wren!', 'Hello, Player. Come in, Player!', 'Player')).toBe(
      true,
    );
    expect(sameGreeting('Hello, Wren the Bold.', 'Hello, Player.', 'Player')).toBe(true);
    expect(sameGreeting('*Hello*,  Player.', 'Hello, Player.', 'Player')).toBe(true);
  });
  it('disagree when other words differ', () => {
    expect(sameGreeting('Goodbye, Wren.', 'Hello, Player.', 'Player')).toBe(false);
    expect(sameGreeting('Hello, Wren. Leave.', 'Hello, Player.', 'Player')).toBe(false);
    expect(sameGreeting('Hello, a very long name of many words.', 'Hello, Player.', 'Player')).toBe(false);
    expect(sameGreeting('Hello.', 'Hi.', undefined)).toBe(false);
  });
});

describe("the front end's own generations", () => {
  const chat = [
    { role: 'assistant', content: 'Hello.' },
    { role: 'user', content: 'I wave.' },
  ];
  it('recognises Impersonate, the Summarize extension and Test Message', () => {
    expect(
      frontEndRequest(
        [
          ...chat,
          { role: 'system', content: '[Write your next reply from the point of view of Wren, using…]' },
        ],
        true,
      ),
    ).toEqual({ kind: 'impersonate' });
    expect(
      frontEndRequest(
        [
          ...chat,
          {
            role: 'user',
            content:
              'Ignore previous instructions. Summarize the most important facts and events in the story so far.',
          },
        ],
        false,
      ),
    ).toEqual({ kind: 'summary' });
    expect(frontEndRequest([{ role: 'user', content: 'Hi' }], false)).toEqual({ kind: 'connection-test' });
  });
  it('leaves story turns alone', () => {
    expect(frontEndRequest(chat, true)).toBeUndefined();
    expect(frontEndRequest([{ role: 'user', content: 'Hi' }], true)).toBeUndefined();
    expect(frontEndRequest([...chat, { role: 'user', content: 'Hi' }], false)).toBeUndefined();
  });
});

describe('model ids', () => {
  const session = (title: string | null): Session => ({
    id: 'abc-123',
    principalId: 'p',
    cartridgeVersionId: 'v',
    personaId: null,
    seed: 1,
    title,
    headTurnId: 't',
    turnCount: 3,
    createdAt: 0,
    updatedAt: Date.UTC(2026, 11, 1, 19, 40),
  });
  it('names a session by cartridge, title and last play, and reads its id back', () => {
    const id = sessionModelId(session('Chat (Lanternmere)'), 'Lanternmere');
    expect(id).toBe('Lanternmere · Chat (Lanternmere) · last played 2026-12-01 19:40 UTC · session:abc-123');
    expect(sessionIdOf(id)).toBe('abc-123');
    expect(sessionIdOf('session:abc-123')).toBe('abc-123');
    expect(sessionIdOf('Lanternmere')).toBeUndefined();
    expect(sessionIdOf('my session:thing x')).toBeUndefined();
  });
  it(`shows ${MAX_TITLE_IN_MODEL_CHARS} characters of a title on one line`, () => {
    const at = sessionModelId(session('t'.repeat(MAX_TITLE_IN_MODEL_CHARS)), 'L');
    expect(at).toContain(`· ${'t'.repeat(MAX_TITLE_IN_MODEL_CHARS)} ·`);
    const over = sessionModelId(session(`a\nb${'t'.repeat(MAX_TITLE_IN_MODEL_CHARS)}`), 'L');
    expect(over).toContain(`· a b${'t'.repeat(MAX_TITLE_IN_MODEL_CHARS - 4)}… ·`);
    expect(over).not.toContain('\n');
  });
});

describe('notes and answers that played no turn', () => {
  it('are recognised when they come back, with the front end’s changes', () => {
    expect(isNoTurnReply(`That is not possible.\n\n${NO_TURN_MARK}`)).toBe(true);
    expect(isNoTurnReply(`Lanternmere: *That is not possible.*  ${NO_TURN_MARK}`)).toBe(true);
    expect(isNoTurnReply('That is not possible.')).toBe(false);
    expect(noteBlock('a [b]\nc')).toBe('[MnesOS: a b c]');
  });
});

describe('ConversationMemory', () => {
  it('remembers an undelivered answer within the window only', () => {
    const memory = new ConversationMemory();
    memory.markUndelivered('t1', 1_000);
    expect(memory.undelivered('t1', 6_000, 5_000)).toBe(true);
    expect(memory.undelivered('t1', 6_001, 5_000)).toBe(false);
    expect(memory.undelivered('t2', 1_000, 5_000)).toBe(false);
  });
  it(`keeps the ${MAX_UNDELIVERED} newest`, () => {
    const memory = new ConversationMemory();
    for (let i = 0; i <= MAX_UNDELIVERED; i++) memory.markUndelivered(`t${i}`, 0);
    expect(memory.undelivered('t0', 0, 1)).toBe(false);
    expect(memory.undelivered('t1', 0, 1)).toBe(true);
    expect(memory.undelivered(`t${MAX_UNDELIVERED}`, 0, 1)).toBe(true);
  });
});

describe('the offline baseline of a card with no rules', () => {
  const card = {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: 'Mira',
      description: 'Mira keeps the lighthouse.',
      personality: 'calm',
      scenario: 'A stormy night at the lighthouse; the lamp turns above.',
      first_mes: 'Come in, {{user}}.',
      mes_example:
        '<START>\n{{user}}: Hello?\n{{char}}: Mind the stairs, they are wet.\n{{char}}: The sea is loud tonight.',
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: [],
      creator: '',
      character_version: '',
      extensions: {},
    },
  };
  const load = () => {
    const files = importSillyTavern(Buffer.from(JSON.stringify(card)), 'mira.json').files;
    const loaded = loadCartridgeFromFiles(files, 'mira');
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    return loaded.cartridge;
  };

  it('looks, talks and waits from the card’s own text', () => {
    const cartridge = load();
    expect(cartridge.rules.events.size).toBe(0);
    expect(baselineAnswer(cartridge, 'I look around.')).toBe(
      'A stormy night at the lighthouse; the lamp turns above.',
    );
    const said = baselineAnswer(cartridge, '"Hello, Mira."')!;
    expect(['Mira: Mind the stairs, they are wet.', 'Mira: The sea is loud tonight.']).toContain(said);
    expect(baselineAnswer(cartridge, '"Hello, Mira."')).toBe(said);
    expect(baselineAnswer(cartridge, 'I wait for the storm to pass.')).toMatch(
      /^Time passes\. A stormy night/,
    );
    expect(baselineAnswer(cartridge, 'I juggle three fish.')).toBeUndefined();
    expect(baselineHelp(cartridge)).toContain('look around');
    expect(baselineAction('I ask about the lamp')).toBe('talk');
  });
});
