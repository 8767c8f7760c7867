// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Cartridge names in a library: one normal form (trimmed, NFKC), invisible characters refused naming the
// character and its offset, and no two names of one key's library that look alike (the skeleton of
// src/core/names.ts). Unit cases for each listed trick, then the same over real HTTP uploads.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameSkeleton } from '../../src/core/names.ts';
import { normaliseName } from '../../src/core/text-policy.ts';
import { parseApiKeys } from '../../src/apps/server/auth.ts';
import {
  cartridgeZip,
  KEY_A,
  LANTERNMERE_DIR,
  startTestServer,
  type TestServer,
} from '../apps/server/helpers.ts';

const CYRILLIC_E = '\u0435';

describe('normaliseName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(normaliseName('Lanternmere')).toEqual({ ok: true, name: 'Lanternmere' });
    expect(normaliseName('Café des Ombres')).toEqual({ ok: true, name: 'Café des Ombres' });
  });

  it('trims leading and trailing spaces; only spaces is refused', () => {
    expect(normaliseName('  Lanternmere  ')).toEqual({ ok: true, name: 'Lanternmere' });
    expect(normaliseName('\u3000Lanternmere\u00A0')).toEqual({ ok: true, name: 'Lanternmere' });
    expect(normaliseName('   ')).toMatchObject({ ok: false, message: expect.stringMatching(/empty/) });
  });

  it('folds full-width forms (NFKC): Ｌanternmere is Lanternmere', () => {
    expect(normaliseName('\uFF2Canternmere')).toEqual({ ok: true, name: 'Lanternmere' });
  });

  it('composes a decomposed é (NFKC)', () => {
    const decomposed = 'Cafe\u0301';
    expect(decomposed).not.toBe('Café');
    expect(normaliseName(decomposed)).toEqual({ ok: true, name: 'Café' });
  });

  it('refuses U+200B and U+00AD naming the character and its offset', () => {
    expect(normaliseName('Lantern\u200Bmere')).toEqual({
      ok: false,
      message: 'the name contains an invisible character (U+200B) at offset 7',
    });
    expect(normaliseName('Lan\u00ADternmere')).toEqual({
      ok: false,
      message: 'the name contains an invisible character (U+00AD) at offset 3',
    });
    expect(normaliseName('\uFEFFLanternmere')).toMatchObject({ ok: false });
    expect(normaliseName('Lantern\u202Emere')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/bidirectional control character \(U\+202E\) at offset 7/),
    });
  });
});

describe('nameSkeleton', () => {
  it('a Cyrillic е, a Greek ο, a full-width Ｌ and a joiner look like the Latin name', () => {
    const latin = nameSkeleton('Lanternmere');
    expect(nameSkeleton(`Lanternm${CYRILLIC_E}re`)).toBe(latin);
    expect(nameSkeleton('Lantern\u03BCere'.replace('\u03BC', 'm'))).toBe(latin);
    expect(nameSkeleton('\uFF2Canternmere')).toBe(latin);
    expect(nameSkeleton('Lantern\u200Dmere')).toBe(latin);
    expect(nameSkeleton('L\u0430nternm\u0435r\u0435')).toBe(latin); // а, е, е
    expect(nameSkeleton('Lantern\u03BFere'.replace('\u03BF', 'm'))).toBe(latin);
    expect(nameSkeleton('Ember T\u03BFll')).toBe(nameSkeleton('Ember Toll')); // Greek ο
  });

  it('tells apart names that only differ in case, accents or letters', () => {
    const latin = nameSkeleton('Lanternmere');
    expect(nameSkeleton('lanternmere')).not.toBe(latin);
    expect(nameSkeleton('Lanternmére')).not.toBe(latin);
    expect(nameSkeleton('Lanternmire')).not.toBe(latin);
  });
});

describe('names over real HTTP uploads', () => {
  let server: TestServer;
  const yare = readFileSync(join(LANTERNMERE_DIR, 'yare.yaml'), 'utf8');
  const named = (name: string) =>
    Buffer.from(
      cartridgeZip({
        'yare.yaml': yare.replace(/^bot_name:.*$/m, `bot_name: ${JSON.stringify(name)}`),
        'bot_lore.md': `# ${name.trim() || 'x'}\n\nA fen town.\n`,
      }),
    );
  const upload = (name: string) =>
    server.json('/v1/cartridges', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: named(name),
      key: KEY_A,
    });
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A}`) });
  });
  afterAll(() => server.stop());

  it('Lanternmеre (Cyrillic е) conflicts with the offered Lanternmere', async () => {
    const answer = await upload(`Lanternm${CYRILLIC_E}re`);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'name_confusable', existing: 'Lanternmere' });
  });

  it('a full-width Ｌ is the same name as the offered one, so it is reserved', async () => {
    const answer = await upload('\uFF2Canternmere');
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'name_reserved', name: 'Lanternmere' });
  });

  it('U+200B and U+00AD in bot_name are 422 at the bot_name line, naming the character and offset', async () => {
    const line = yare.split('\n').findIndex((l) => l.startsWith('bot_name:')) + 1;
    for (const [name, label, offset] of [
      ['Fen\u200Blight', 'U+200B', 3],
      ['Fen\u00ADlight', 'U+00AD', 3],
    ] as const) {
      const answer = await upload(name);
      expect(answer.status).toBe(422);
      const error = answer.body.error.errors[0];
      expect(error.message).toBe(
        `bot_name: the name contains an invisible character (${label}) at offset ${offset}.`,
      );
      expect(error).toMatchObject({ file: 'yare.yaml', line });
    }
  });

  it('own names: spaces trimmed, decomposed é composed, and a look-alike of an own name refused', async () => {
    const spaced = await upload('  Fenlight  ');
    expect(spaced.status, JSON.stringify(spaced.body)).toBe(201);
    expect(spaced.body.version.name).toBe('Fenlight');
    const cafe = await upload('Cafe\u0301 Noir');
    expect(cafe.status, JSON.stringify(cafe.body)).toBe(201);
    expect(cafe.body.version.name).toBe('Café Noir');
    const alike = await upload(`F${CYRILLIC_E}nlight`);
    expect(alike.status).toBe(409);
    expect(alike.body.error).toMatchObject({ code: 'name_confusable', existing: 'Fenlight' });
    const listed = await server.json('/v1/cartridges', { key: KEY_A });
    const names = (listed.body.cartridges as any[]).map((c) => c.name);
    expect(names).toContain('Fenlight');
    expect(names).not.toContain(`F${CYRILLIC_E}nlight`);
  });
});
