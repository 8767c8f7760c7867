// A typo of a grouped adventure verb ("atack") matches the other verbs of its group (src/engine/turn/offline/
// words.ts), the same when asked again (from the remembered comparisons; their limit is offline-verbs.test.ts's).
import { describe, expect, it } from 'vitest';
import { verbMatch } from '../../../src/engine/turn/offline/words.ts';

const cases: Array<[string, string, ReturnType<typeof verbMatch>]> = [
  ['atack', 'hit', 'plain'],
  ['punsh', 'strike', 'plain'],
  ['purchse', 'buy', 'plain'],
  ['qzbbb', 'hit', undefined],
];

function answers(): Array<ReturnType<typeof verbMatch>> {
  return cases.map(([said, verb]) => verbMatch(said, verb));
}

describe('verbMatch with typos of grouped verbs', () => {
  it('matches a typo of a grouped verb to its group, the same asked again', () => {
    const expected = cases.map(([, , match]) => match);
    expect(answers()).toEqual(expected);
    expect(answers()).toEqual(expected);
  });
});
