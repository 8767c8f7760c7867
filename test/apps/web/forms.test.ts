import { describe, expect, it } from 'vitest';
import * as server from '../../../src/engine/session/model-settings.ts';
import { cartridgeNameOf, MAX_CARTRIDGE_NAME_CHARS } from '../../../src/apps/web/library/library-api.ts';
import {
  baseUrlError,
  MAX_BASE_URL_CHARS,
  MAX_FORM_SEED,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  seedError,
  TREE_LABEL_CHARS,
  temperatureError,
  treeLabel,
} from '../../../src/apps/web/lib/forms.ts';

describe('form checks', () => {
  it(`accepts seeds from 0 to MAX_FORM_SEED (${MAX_FORM_SEED}) and names the range past it`, () => {
    for (const ok of ['', '  ', '0', String(MAX_FORM_SEED)]) expect(seedError(ok), ok).toBe('');
    for (const bad of [String(MAX_FORM_SEED + 1), '-1', '1.5', 'abc', '1e3x']) {
      expect(seedError(bad), bad).toBe(`the seed must be a whole number from 0 to ${MAX_FORM_SEED}`);
    }
  });

  it(`accepts temperatures from ${MIN_TEMPERATURE} to ${MAX_TEMPERATURE}`, () => {
    for (const ok of [undefined, MIN_TEMPERATURE, 0.7, MAX_TEMPERATURE])
      expect(temperatureError(ok)).toBe('');
    for (const bad of [MIN_TEMPERATURE - 0.1, MAX_TEMPERATURE + 0.1, Number.NaN]) {
      expect(temperatureError(bad)).toBe('temperature must be from 0 to 2');
    }
  });

  it(`shows TREE_LABEL_CHARS (${TREE_LABEL_CHARS}) characters of a turn in the tree`, () => {
    expect(treeLabel('a'.repeat(TREE_LABEL_CHARS))).toBe('a'.repeat(TREE_LABEL_CHARS));
    expect(treeLabel('a'.repeat(TREE_LABEL_CHARS + 1))).toBe(`${'a'.repeat(TREE_LABEL_CHARS)}…`);
  });

  it(`takes at most MAX_CARTRIDGE_NAME_CHARS (${MAX_CARTRIDGE_NAME_CHARS}) characters of an archive name`, () => {
    expect(cartridgeNameOf(`${'a'.repeat(MAX_CARTRIDGE_NAME_CHARS)}.zip`)).toHaveLength(
      MAX_CARTRIDGE_NAME_CHARS,
    );
    expect(cartridgeNameOf(`${'a'.repeat(MAX_CARTRIDGE_NAME_CHARS + 1)}.zip`)).toHaveLength(
      MAX_CARTRIDGE_NAME_CHARS,
    );
  });

  it('checks the settings form with the server’s own limits', () => {
    expect([MIN_TEMPERATURE, MAX_TEMPERATURE, MAX_MODEL_NAME_CHARS, MAX_BASE_URL_CHARS]).toEqual([
      server.MIN_TEMPERATURE,
      server.MAX_TEMPERATURE,
      server.MAX_MODEL_NAME_CHARS,
      server.MAX_BASE_URL_CHARS,
    ]);
  });

  it(`accepts base URLs of up to MAX_BASE_URL_CHARS (${MAX_BASE_URL_CHARS}) characters, http(s) only, no credentials`, () => {
    const prefix = 'http://127.0.0.1:1/';
    const atLimit = prefix + 'a'.repeat(MAX_BASE_URL_CHARS - prefix.length);
    for (const ok of [undefined, '', '  ', 'http://localhost:11434/v1', 'https://example.test/v1', atLimit])
      expect(baseUrlError(ok), String(ok)).toBe('');
    expect(baseUrlError(`${atLimit}a`)).toBe(`the base URL must be at most ${MAX_BASE_URL_CHARS} characters`);
    expect(baseUrlError('localhost:11434')).toContain('http:// or https://');
    expect(baseUrlError('not a url')).toContain('must be a URL');
    expect(baseUrlError('http://me:pw@127.0.0.1/v1')).toContain('user name or password');
    // Whatever the form lets through, the server accepts too.
    for (const ok of ['http://localhost:11434/v1', atLimit])
      expect(server.modelSettingsSchema.safeParse({ baseUrl: ok }).success).toBe(true);
  });
});
