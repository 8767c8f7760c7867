// Every bound of World Info and of SillyTavern imports, at the limit and one past it; and the regex policy
// for keys from strangers' lorebooks (refused patterns never run).
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../../src/adapters/files/index.ts';
import { ImportError } from '../../../../src/tools/interop/sillytavern/errors.ts';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import {
  MAX_ALTERNATE_GREETINGS,
  MAX_CARD_CHUNK_BYTES,
  MAX_CARD_FIELD_CHARS,
  MAX_CARD_JSON_CHARS,
  MAX_IMPORT_FILE_BYTES,
  MAX_PNG_CHUNKS,
} from '../../../../src/tools/interop/sillytavern/limits.ts';
import { activateWorldInfo } from '../../../../src/core/lore/world-info-activation.ts';
import { parseWorldInfoFile } from '../../../../src/core/lore/world-info-format.ts';
import {
  MAX_WI_CONTENT_CHARS,
  MAX_WI_ENTRIES,
  MAX_WI_KEY_CHARS,
  MAX_WI_KEYS_PER_ENTRY,
  MAX_WI_REGEX_CHARS,
  MAX_WI_REGEX_INSTRUCTIONS,
  MAX_WI_REGEX_KEYS,
  MAX_WI_REGEX_TESTS,
  MAX_WI_REGEX_TEXT_CHARS,
  MAX_WI_REGEX_WORK,
  MAX_WI_SCAN_CHARS,
  MAX_WI_SCAN_DEPTH,
  MAX_WI_SCAN_WORK,
  MAX_WI_TIMED_EFFECTS,
  MAX_WI_TOKEN_BUDGET,
  MAX_WORLD_INFO_BYTES,
} from '../../../../src/core/lore/world-info-limits.ts';
import { parseRegexKey } from '../../../../src/core/lore/world-info-regex.ts';
import { readWorldInfoState, worldInfoStateValue } from '../../../../src/core/lore/world-info-state.ts';
import { readTranscript, MAX_TRANSCRIPT_MESSAGES } from '../../../../src/apps/server/openai/transcript.ts';
import { book, chunk, png, textChunk } from './helpers.ts';

function world(entries: Record<string, unknown>[]) {
  return parseWorldInfoFile({ entries: Object.fromEntries(entries.map((e, i) => [String(i), e])) }, 'b');
}

describe('World Info limits', () => {
  it('entries per book', () => {
    const entry = { key: ['a'], content: 'x' };
    expect(world(Array.from({ length: MAX_WI_ENTRIES }, () => entry)).ok).toBe(true);
    const over = world(Array.from({ length: MAX_WI_ENTRIES + 1 }, () => entry));
    expect(over.ok).toBe(false);
    expect(!over.ok && over.issues[0]!.message).toContain('MAX_WI_ENTRIES');
  });

  it('keys per entry and characters per key', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
    expect(world([{ key: keys(MAX_WI_KEYS_PER_ENTRY), content: 'x' }]).ok).toBe(true);
    expect(world([{ key: keys(MAX_WI_KEYS_PER_ENTRY + 1), content: 'x' }]).ok).toBe(false);
    expect(world([{ key: ['k'.repeat(MAX_WI_KEY_CHARS)], content: 'x' }]).ok).toBe(true);
    const long = world([{ key: ['k'.repeat(MAX_WI_KEY_CHARS + 1)], content: 'x' }]);
    expect(!long.ok && long.issues[0]!.path).toBe('entries.0.key.0');
  });

  it('characters of content', () => {
    expect(world([{ key: ['a'], content: 'c'.repeat(MAX_WI_CONTENT_CHARS) }]).ok).toBe(true);
    const over = world([{ key: ['a'], content: 'c'.repeat(MAX_WI_CONTENT_CHARS + 1) }]);
    expect(!over.ok && over.issues[0]!.path).toBe('entries.0.content');
  });

  it('timed effects kept in the state', () => {
    const effects = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        kind: 'sticky' as const,
        uid: i,
        start: 1,
        end: 9,
        protected: false,
      }));
    const at = worldInfoStateValue({ messages: 3, effects: effects(MAX_WI_TIMED_EFFECTS) });
    expect(at.effects).toHaveLength(MAX_WI_TIMED_EFFECTS);
    const over = worldInfoStateValue({ messages: 3, effects: effects(MAX_WI_TIMED_EFFECTS + 1) });
    expect(over.effects).toHaveLength(MAX_WI_TIMED_EFFECTS);
    expect(over.effects[0]).toBe('sticky:1:1:9');
    // Read back forgivingly: malformed items (a client's state) are dropped.
    const read = readWorldInfoState({
      _world_info: { messages: 3, effects: ['sticky:1:1:9', 'bogus', 42, 'cooldown:2:1:5:p'] },
    });
    expect(read?.effects).toEqual([
      { kind: 'sticky', uid: 1, start: 1, end: 9, protected: false },
      { kind: 'cooldown', uid: 2, start: 1, end: 5, protected: true },
    ]);
    expect(readWorldInfoState({ _world_info: { messages: -1 } })).toBeUndefined();
  });

  it('a regex key runs against at most MAX_WI_REGEX_TEXT_CHARS of the newest text', () => {
    const b = book([{ key: ['/needle/'], content: 'x' }]);
    const at = `needle${'.'.repeat(MAX_WI_REGEX_TEXT_CHARS - 6)}`;
    expect(
      activateWorldInfo(b, { messages: [at], chatLength: 1, timed: [], seed: 0 }).activated,
    ).toHaveLength(1);
    const past = `${'.'.repeat(MAX_WI_REGEX_TEXT_CHARS)}needle`;
    expect(
      activateWorldInfo(b, { messages: [past], chatLength: 1, timed: [], seed: 0 }).activated,
    ).toHaveLength(0);
  });
});

describe('regex key policy', () => {
  it('parses /pattern/flags as SillyTavern does, else a plain key', () => {
    expect(parseRegexKey('/dragon/i').kind).toBe('regex');
    expect(parseRegexKey('plain words').kind).toBe('plain');
    expect(parseRegexKey('/a/b/').kind).toBe('plain'); // an unescaped slash inside
    expect(parseRegexKey('/a\\/b/').kind).toBe('regex');
    expect(parseRegexKey('/x/q').kind).toBe('plain'); // not a flag
  });

  it('pattern length at the limit and past it', () => {
    expect(parseRegexKey(`/${'a'.repeat(MAX_WI_REGEX_CHARS)}/`).kind).toBe('regex');
    const over = parseRegexKey(`/${'a'.repeat(MAX_WI_REGEX_CHARS + 1)}/`);
    expect(over.kind === 'refused' && over.reason).toContain('MAX_WI_REGEX_CHARS');
  });

  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookahead/],
    ['(?<!a)b', /lookahead/],
    ['a{1,1001}', /RE2.*repeat count/],
    ['(a{0,50}){0,50}', /RE2.*repeat count/],
    ['[unclosed', /RE2.*missing closing/],
  ])('refuses %s with the reason', (pattern, reason) => {
    const parsed = parseRegexKey(`/${pattern}/`);
    expect(parsed.kind === 'refused' && parsed.reason).toMatch(reason);
  });

  it.each([
    ['\\b(sword|blade)s?\\b', 'i', 'two SWORDS', 'a sworded'],
    ['test\\d+', '', 'test42', 'test'],
    ['[a-z]{2,5}ing', '', 'a falling leaf', 'ing'],
    ['dragon|wyrm', 'i', 'the Wyrm', 'drake'],
    ['(?:red|blue) gem', '', 'a blue gem', 'a green gem'],
    ['^north$', 'm', 'go\nnorth\nnow', 'northwest'],
    ['a.b', 's', 'a\nb', 'ab'],
    ['[\\[\\]]x', '', '[x', 'x'],
    ['(?<name>x)y', '', 'xy', 'x y'],
    // Catastrophic on a backtracking engine; an automaton runs them in one pass.
    ['(a+)+$', '', 'aaa', 'b'],
    ['a{0,50}a{0,50}a{0,50}a{0,50}b', 'i', `${'a'.repeat(60)}B`, 'a'.repeat(2_000)],
    ['(\\w+\\s?)*x', '', 'hello world x', 'hello world'],
  ])('runs /%s/%s: matches %j, not %j', (pattern, flags, yes, no) => {
    const parsed = parseRegexKey(`/${pattern}/${flags}`);
    if (parsed.kind !== 'regex') throw new Error(`refused: ${JSON.stringify(parsed)}`);
    expect(parsed.regex.test(yes)).toBe(true);
    expect(parsed.regex.test(no)).toBe(false);
  });

  it('the g and y flags are dropped, so repeated tests give the same answer', () => {
    const parsed = parseRegexKey('/dragon/gy');
    if (parsed.kind !== 'regex') throw new Error('refused');
    expect([1, 2, 3].map(() => parsed.regex.test('a dragon'))).toEqual([true, true, true]);
  });
});

describe('import limits', () => {
  const card = (data: Record<string, unknown>) => ({
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: { name: 'X', ...data },
  });
  const run = (value: unknown) => importSillyTavern(Buffer.from(JSON.stringify(value)), 'c.json');

  it('bytes of the file', () => {
    const big = new Uint8Array(MAX_IMPORT_FILE_BYTES + 1);
    expect(() => importSillyTavern(big, 'huge.png')).toThrow(ImportError);
    expect(() => importSillyTavern(big, 'huge.png')).toThrow(/MAX_IMPORT_FILE_BYTES/);
    // At the limit the size is fine (and the content is what is wrong).
    expect(() => importSillyTavern(new Uint8Array(MAX_IMPORT_FILE_BYTES), 'zeros.bin')).toThrow(
      /not a PNG, a CHARX/,
    );
  });

  it('bytes of a card chunk', () => {
    const at = 'A'.repeat(MAX_CARD_CHUNK_BYTES);
    // At the limit the chunk is read (its decoded bytes are simply not JSON).
    expect(() => importSillyTavern(png([textChunk('chara', at)]), 'x.png')).toThrow(/invalid JSON/);
    expect(() => importSillyTavern(png([textChunk('chara', `${at}A`)]), 'x.png')).toThrow(
      /MAX_CARD_CHUNK_BYTES/,
    );
  });

  it('characters of a card field', () => {
    expect(run(card({ description: 'd'.repeat(MAX_CARD_FIELD_CHARS) })).name).toBe('X');
    expect(() => run(card({ description: 'd'.repeat(MAX_CARD_FIELD_CHARS + 1) }))).toThrow(
      /MAX_CARD_FIELD_CHARS/,
    );
  });

  it('alternate greetings', () => {
    const greetings = (n: number) => Array.from({ length: n }, (_, i) => `hello ${i}`);
    expect(run(card({ alternate_greetings: greetings(MAX_ALTERNATE_GREETINGS) })).name).toBe('X');
    expect(() => run(card({ alternate_greetings: greetings(MAX_ALTERNATE_GREETINGS + 1) }))).toThrow(
      /101 items; the limit is 100/,
    );
  });
});

describe('more bounds, at the limit and one past it', () => {
  it('PNG chunks', () => {
    const filler = (n: number) => Array.from({ length: n }, () => chunk('tIME', Buffer.alloc(7)));
    // png() adds IHDR, IDAT and IEND: 3 chunks.
    expect(() => importSillyTavern(png(filler(MAX_PNG_CHUNKS - 3)), 'x.png')).toThrow(/no "chara" or "ccv3"/);
    expect(() => importSillyTavern(png(filler(MAX_PNG_CHUNKS - 2)), 'x.png')).toThrow(/MAX_PNG_CHUNKS/);
  });

  it('characters of card JSON', () => {
    const base = JSON.stringify({ name: 'X', pad: '' });
    const padded = (n: number) => JSON.stringify({ name: 'X', pad: 'p'.repeat(n - base.length) });
    expect(importSillyTavern(Buffer.from(padded(MAX_CARD_JSON_CHARS)), 'c.json').name).toBe('X');
    expect(() => importSillyTavern(Buffer.from(padded(MAX_CARD_JSON_CHARS + 1)), 'c.json')).toThrow(
      /MAX_CARD_JSON_CHARS/,
    );
  });

  it('book settings: scan depth and token budget', () => {
    const at = parseWorldInfoFile(
      { entries: {}, scan_depth: MAX_WI_SCAN_DEPTH, token_budget: MAX_WI_TOKEN_BUDGET },
      'b',
    );
    expect(at.ok).toBe(true);
    const deep = parseWorldInfoFile({ entries: {}, scan_depth: MAX_WI_SCAN_DEPTH + 1 }, 'b');
    expect(!deep.ok && deep.issues[0]!.path).toBe('(root).scan_depth');
    const rich = parseWorldInfoFile({ entries: {}, token_budget: MAX_WI_TOKEN_BUDGET + 1 }, 'b');
    expect(!rich.ok && rich.issues[0]!.message).toContain(`1..${MAX_WI_TOKEN_BUDGET}`);
  });

  it('regex tests per activation', () => {
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: [`/word${i}\\b/`], content: `c${i}` }));
    const text = Array.from({ length: MAX_WI_REGEX_TESTS + 1 }, (_, i) => `word${i}`).join(' ');
    const at = activateWorldInfo(book(entries(MAX_WI_REGEX_TESTS)), {
      messages: [text],
      chatLength: 1,
      timed: [],
      seed: 0,
    });
    expect(at.activated).toHaveLength(MAX_WI_REGEX_TESTS);
    const past = activateWorldInfo(book(entries(MAX_WI_REGEX_TESTS + 1)), {
      messages: [text],
      chatLength: 1,
      timed: [],
      seed: 0,
    });
    expect(past.activated).toHaveLength(MAX_WI_REGEX_TESTS);
  });

  it('regex work per activation (automaton instructions × characters read)', () => {
    const keyOf = (i: number) => `/(?:q{0,200})tok${i}x/`;
    const sizeOf = (i: number) => {
      const parsed = parseRegexKey(keyOf(i));
      if (parsed.kind !== 'regex') throw new Error('refused');
      return parsed.regex.size;
    };
    const n = 40;
    const text = `${Array.from({ length: n }, (_, i) => `tok${i}x`).join(' ')} ${'y'.repeat(1_500)}`;
    const cut = Math.min(text.length, MAX_WI_REGEX_TEXT_CHARS);
    let fit = 0;
    for (let work = 0; fit < n && work + sizeOf(fit) * cut <= MAX_WI_REGEX_WORK; fit++)
      work += sizeOf(fit) * cut;
    expect(fit).toBeGreaterThan(1);
    expect(fit).toBeLessThan(Math.min(n, MAX_WI_REGEX_TESTS));
    const entries = Array.from({ length: n }, (_, i) => ({ key: [keyOf(i)], content: `c${i}` }));
    const at = activateWorldInfo(book(entries), { messages: [text], chatLength: 1, timed: [], seed: 0 });
    expect(at.activated.map((a) => a.entry.content)).toEqual(Array.from({ length: fit }, (_, i) => `c${i}`));
    expect(at.decisions[fit]!.reason).toContain('scan budget ran out');
  });

  it('characters the plain-key searches of one activation read (MAX_WI_SCAN_WORK)', () => {
    // Keys with a space are substring searches; each reads the whole (cut) scan text once.
    const keys = Array.from({ length: MAX_WI_ENTRIES }, (_, i) => `k${i} x`);
    const body = keys.join(' ; ');
    const text = body + '.'.repeat(MAX_WI_SCAN_CHARS - body.length);
    expect(text.length * MAX_WI_ENTRIES).toBe(MAX_WI_SCAN_WORK);
    const entries = keys.map((key) => ({ key: [key], content: 'c' }));
    const settings = { token_budget: MAX_WI_TOKEN_BUDGET };
    const run = (b: ReturnType<typeof book>) =>
      activateWorldInfo(b, { messages: [text], chatLength: 1, timed: [], seed: 0 });
    expect(run(book(entries, settings)).activated).toHaveLength(MAX_WI_ENTRIES);
    // One search more: the last entry's second key (its first is not in the text) is not searched.
    const past = [...entries.slice(0, -1), { key: ['absent words', keys.at(-1)!], content: 'c' }];
    const result = run(book(past, settings));
    expect(result.activated).toHaveLength(MAX_WI_ENTRIES - 1);
    expect(result.decisions.at(-1)!.reason).toContain('MAX_WI_SCAN_WORK');
  });

  it('regex keys per book, at the limit and past it', () => {
    const split = (n: number) =>
      Array.from({ length: Math.ceil(n / MAX_WI_KEYS_PER_ENTRY) }, (_, e) => ({
        key: Array.from(
          { length: Math.min(MAX_WI_KEYS_PER_ENTRY, n - e * MAX_WI_KEYS_PER_ENTRY) },
          (_, i) => `/r${e}_${i}x/`,
        ),
        content: 'c',
      }));
    expect(book(split(MAX_WI_REGEX_KEYS)).entries).toHaveLength(MAX_WI_REGEX_KEYS / MAX_WI_KEYS_PER_ENTRY);
    const over = parseWorldInfoFile(
      { entries: Object.fromEntries(split(MAX_WI_REGEX_KEYS + 1).map((e, i) => [String(i), e])) },
      'b',
    );
    expect(!over.ok && over.issues[0]!.message).toContain('MAX_WI_REGEX_KEYS');
  });

  it('instructions of one regex key, at the limit and past it', () => {
    const sizeOf = (n: number) => {
      const parsed = parseRegexKey(`/a{0,${n}}/`);
      return parsed.kind === 'regex' ? parsed.regex.size : undefined;
    };
    let n = 1;
    while ((sizeOf(n + 1) ?? Number.POSITIVE_INFINITY) <= MAX_WI_REGEX_INSTRUCTIONS) n++;
    expect(sizeOf(n)).toBeLessThanOrEqual(MAX_WI_REGEX_INSTRUCTIONS);
    expect(sizeOf(n)).toBeGreaterThan(MAX_WI_REGEX_INSTRUCTIONS - 10);
    const past = parseRegexKey(`/a{0,${n + 1}}/`);
    expect(past.kind === 'refused' && past.reason).toContain('MAX_WI_REGEX_INSTRUCTIONS');
  });

  it('bytes of a cartridge world_info.json', () => {
    const files = (size: number) =>
      new Map<string, string>([
        ['yare.yaml', 'version: 1\nbot_name: "W"\n'],
        ['bot_lore.md', '# W\n'],
        ['world_info.json', `{"entries": {}, "pad": "${'p'.repeat(size - 26)}"}`],
      ]);
    expect(files(MAX_WORLD_INFO_BYTES).get('world_info.json')!.length).toBe(MAX_WORLD_INFO_BYTES);
    expect(loadCartridgeFromFiles(files(MAX_WORLD_INFO_BYTES), 'w').ok).toBe(true);
    const over = loadCartridgeFromFiles(files(MAX_WORLD_INFO_BYTES + 1), 'w');
    expect(!over.ok && over.errors[0]!.code).toBe('CART_FILE_TOO_LARGE');
  });

  it('transcript messages', () => {
    const messages = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    expect(readTranscript(messages(MAX_TRANSCRIPT_MESSAGES - 1))).toMatchObject({ kind: 'reply' });
  });
});
