// Seeded variety for offline prose: an outcome told again (the same trip, the same quiet turn) need not
// read the same. The choice comes from the turn's recorded seed and what is being told, so the same turn
// always reads the same (a replay, a re-render), and another turn may read otherwise.

import type { CompiledRules, StateChange } from '../../../core/yare/index.ts';
import { locationField, loreSections, sectionAbout, spelledAsLore } from './place.ts';

/** FNV-1a over the key, mixed with the seed (both halves of a safe integer) by murmur3's finaliser. */
export function varietyIndex(seed: number, key: string, count: number): number {
  if (count <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= seed | 0;
  h = Math.imul(h ^ Math.floor(seed / 0x1_0000_0000), 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % count;
}

/** Sentences of a lore section a player may read as they arrive (no persona macros, not too long). */
export const MAX_ARRIVAL_SENTENCE_CHARS = 240;

/**
 * One sentence of the lore about the place the turn moved the player to, chosen by the seed: arriving at
 * the Brine Market twice need not read the same. Undefined when the turn moved no one, or the lore has no
 * section about the place.
 */
export function arrivalSentence(
  rules: CompiledRules,
  lore: string | undefined,
  changes: readonly StateChange[],
  seed: number,
): string | undefined {
  if (lore === undefined || lore === '') return undefined;
  const field = locationField(rules);
  if (field === undefined) return undefined;
  const key = field.path.join('.');
  const moved = changes.find(
    (c) => c.op === 'set' && c.path.join('.') === key && typeof c.after === 'string',
  );
  if (moved === undefined || moved.op !== 'set' || moved.before === moved.after) return undefined;
  const place = moved.after as string;
  const section =
    sectionAbout(lore, place) ?? loreSections(lore).find((s) => s.name === spelledAsLore(lore, place));
  if (section === undefined) return undefined;
  const sentences = section.text
    .split(/(?<=[.!?])\s+/)
    .filter((s) => s !== '' && !s.includes('{{') && s.length <= MAX_ARRIVAL_SENTENCE_CHARS);
  if (sentences.length === 0) return undefined;
  return sentences[varietyIndex(seed, `arrive:${section.key}`, sentences.length)];
}

const NOTHING = ['Nothing happens.', 'Nothing comes of it.', 'All stays as it was.'] as const;

/** The line for a turn that told nothing, varied by the seed (without one, the first). */
export function nothingHappens(seed: number | undefined): string {
  return NOTHING[seed === undefined ? 0 : varietyIndex(seed, 'nothing', NOTHING.length)]!;
}
