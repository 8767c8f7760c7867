// The character a member plays: a name shown at the table and a key (an identifier) the state and the rules
// use for it (`players.<key>`, the `actor` input). The key is made from the name, and made unique at the
// table with a number when two members share a name.

import { MAX_MEMBER_NAME_CHARS } from './limits.ts';

/** Characters of a character key (the store refuses longer). */
export const MAX_CHARACTER_KEY_CHARS = 32;

/** `Mara Venn` → `mara_venn`, `7 Seas` → `_7_seas`; a name with no letter or digit → `player`. */
export function characterKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD splits off letters: Élodie → elodie
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (words === '') return 'player';
  const key = /^[0-9]/.test(words) ? `_${words}` : words;
  return key.slice(0, MAX_CHARACTER_KEY_CHARS - 3);
}

/** `key`, or `key_2`, `key_3`, … : the first not in `taken`. */
export function freeKey(key: string, taken: ReadonlySet<string>): string {
  if (!taken.has(key)) return key;
  for (let n = 2; ; n++) {
    const candidate = `${key}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The name shown for a member: trimmed, cut at MAX_MEMBER_NAME_CHARS, never empty. */
export function shownName(name: string): string {
  const trimmed = name.trim().slice(0, MAX_MEMBER_NAME_CHARS).trim();
  return trimmed === '' ? 'player' : trimmed;
}
