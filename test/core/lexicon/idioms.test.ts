import { describe, expect, it } from 'vitest';
import { MAX_SLOT_WORDS, rewriteIdioms } from '../../../src/core/lexicon/index.ts';

const words = (text: string) => text.split(' ');

describe('idioms the lexicon lacks', () => {
  it('rewrites each idiom to its verb, keeping what it is done to', () => {
    expect(rewriteIdioms(words('finish it off'))).toEqual(['kill', 'it']);
    expect(rewriteIdioms(words('finish off the goblin'))).toEqual(['kill', 'the', 'goblin']);
    expect(rewriteIdioms(words('run for it'))).toEqual(['flee']);
    expect(rewriteIdioms(words('we make a run for it now'))).toEqual(['we', 'flee', 'now']);
  });

  it("leaves the idiom's words alone when they are not the idiom", () => {
    expect(rewriteIdioms(words('run to the gate'))).toEqual(words('run to the gate'));
    expect(rewriteIdioms(words('finish the stew'))).toEqual(words('finish the stew'));
    expect(rewriteIdioms(words('finish'))).toEqual(['finish']);
  });

  it(`a slot takes ${MAX_SLOT_WORDS} words and not one more`, () => {
    const at = Array.from({ length: MAX_SLOT_WORDS }, (_, i) => `w${i}`);
    expect(rewriteIdioms(['finish', ...at, 'off'])).toEqual(['kill', ...at]);
    const past = [...at, 'more'];
    expect(rewriteIdioms(['finish', ...past, 'off'])).toEqual(['finish', ...past, 'off']);
  });
});
