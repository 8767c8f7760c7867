// The offline matcher on the labelled player lines of every shipped cartridge (bench/fixtures/offline-lines/,
// measured by `npm run bench offline-matcher`): at least 200 lines each, and an event that costs something
// runs only when the player meant exactly that one (precision ≥ 99 %).
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINES_DIR, labelOf, parseLineSet, scoreLines } from '../../bench/offline-lines.ts';
import { TARGET_COSTLY_PRECISION } from '../../bench/offline-matcher.ts';
import { ROOT } from './helpers.ts';

const SHIPPED = readdirSync(resolve(ROOT, 'cartridges'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Lines each set must have. */
const MIN_LINES = 200;
/** A floor under the overall accuracy, so a change that makes the matcher worse fails here too. */
const MIN_ACCURACY = 0.95;

describe.each(SHIPPED)('labelled player lines of %s', (name) => {
  it(`has at least ${MIN_LINES} lines`, async () => {
    expect(existsSync(resolve(LINES_DIR, `${name}.txt`))).toBe(true);
    const score = await scoreLines(name);
    expect(score.lines).toBeGreaterThanOrEqual(MIN_LINES);
  });

  it(`runs a costly event only when it was meant (precision ≥ ${TARGET_COSTLY_PRECISION * 100} %)`, async () => {
    const score = await scoreLines(name);
    const wrong = score.results.filter((r) => r.ranCostly && !r.correct);
    expect(score.costlyRuns).toBeGreaterThan(0);
    expect(1 - wrong.length / score.costlyRuns).toBeGreaterThanOrEqual(TARGET_COSTLY_PRECISION);
    expect(score.correct / score.lines).toBeGreaterThanOrEqual(MIN_ACCURACY);
  });
});

describe('the labelled line format', () => {
  it('names the file and line of a malformed entry', () => {
    expect(() => parseLineSet('@state a {}\na | attack', 'x.txt', {})).toThrow('x.txt:2:');
    expect(() => parseLineSet('b | attack | hit it', 'x.txt', {})).toThrow("x.txt:1: unknown state 'b'");
  });

  it('labels every kind of choice', () => {
    expect(labelOf({ kind: 'call', name: 'travel', args: { destination: 'reedmaze' }, how: 'match' })).toBe(
      'travel destination=reedmaze',
    );
    expect(labelOf({ kind: 'call', name: 'advance_game_time', args: { duration: '1h' }, how: 'match' })).toBe(
      'wait',
    );
    expect(labelOf({ kind: 'reply', reason: 'free', text: '', action: 'look' })).toBe('free:look');
    expect(labelOf({ kind: 'reply', reason: 'question', text: '' })).toBe('ask');
  });
});
