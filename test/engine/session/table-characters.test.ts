// The character a member plays: the key made from their name (an identifier the state and the rules use,
// at most MAX_CHARACTER_KEY_CHARS), made unique at the table with a number, and the name shown (trimmed, at
// most MAX_MEMBER_NAME_CHARS).

import { describe, expect, it } from 'vitest';
import {
  characterKey,
  freeKey,
  MAX_CHARACTER_KEY_CHARS,
  MAX_MEMBER_NAME_CHARS,
  shownName,
} from '../../../src/engine/session/index.ts';

describe('character keys and names', () => {
  it('a key is the name in lower case with underscores, never starting with a digit', () => {
    expect(characterKey('Mara Venn')).toBe('mara_venn');
    expect(characterKey('  Élodie-Fenn  ')).toBe('elodie_fenn');
    expect(characterKey('7 Seas')).toBe('_7_seas');
    expect(characterKey('!!!')).toBe('player');
    expect(characterKey('__proto__')).toBe('proto');
  });

  it('a long name’s key leaves room for a number and stays within MAX_CHARACTER_KEY_CHARS', () => {
    const key = characterKey('x'.repeat(200));
    expect(key).toHaveLength(MAX_CHARACTER_KEY_CHARS - 3);
    expect(freeKey(key, new Set([key])).length).toBeLessThanOrEqual(MAX_CHARACTER_KEY_CHARS);
  });

  it('a taken key gets the first free number', () => {
    expect(freeKey('mara', new Set())).toBe('mara');
    expect(freeKey('mara', new Set(['mara', 'mara_2']))).toBe('mara_3');
  });

  it('a shown name is trimmed and cut at MAX_MEMBER_NAME_CHARS, never empty', () => {
    expect(shownName('  Mara  ')).toBe('Mara');
    expect(shownName('m'.repeat(MAX_MEMBER_NAME_CHARS))).toHaveLength(MAX_MEMBER_NAME_CHARS);
    expect(shownName('m'.repeat(MAX_MEMBER_NAME_CHARS + 1))).toHaveLength(MAX_MEMBER_NAME_CHARS);
    expect(shownName('   ')).toBe('player');
  });
});
