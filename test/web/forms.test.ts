import { describe, expect, it } from 'vitest';
import { cartridgeNameOf, MAX_CARTRIDGE_NAME_CHARS } from '../../src/web/api.ts';
import {
  MAX_FORM_SEED,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  seedError,
  TREE_LABEL_CHARS,
  temperatureError,
  treeLabel,
} from '../../src/web/lib/forms.ts';

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
});
