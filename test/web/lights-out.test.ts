import { describe, expect, it } from 'vitest';
import {
  abort,
  DEFAULT_GRID_SIZE,
  isNearMiss,
  litCount,
  MAX_GRID_SIZE,
  MAX_MOVES_LIMIT,
  MAX_SCRAMBLE_DEPTH,
  MIN_GRID_SIZE,
  metricsOf,
  newGame,
  play,
  press,
  readLightsOutConfig,
  scramble,
  solve,
} from '../../src/apps/web/lib/lights-out.ts';

/** A small deterministic generator for tests (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function config(difficulty: Record<string, unknown>) {
  const checked = readLightsOutConfig({ difficulty });
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  return checked.config;
}

describe('lights-out config', () => {
  it('reads the lanternmere and lights-out-demo configs', () => {
    const demo = readLightsOutConfig({
      difficulty: { grid_size: 4, max_moves: 20, scramble_depth: 10 },
      assets: { icon_on: '🔴', icon_off: '⬜' },
      narrative_hooks: { on_combo: 'Circuit breakers trip.', on_near_miss: 'Sparks fly.' },
    });
    expect(demo).toEqual({
      ok: true,
      config: {
        gridSize: 4,
        maxMoves: 20,
        scrambleDepth: 10,
        iconOn: '🔴',
        iconOff: '⬜',
        hooks: { onNearMiss: 'Sparks fly.' },
      },
    });
    const empty = readLightsOutConfig({});
    expect(empty.ok && empty.config.gridSize).toBe(DEFAULT_GRID_SIZE);
  });

  it('accepts grid sizes at the limits and names the place and limit just past them', () => {
    expect(config({ grid_size: MIN_GRID_SIZE }).gridSize).toBe(MIN_GRID_SIZE);
    expect(config({ grid_size: MAX_GRID_SIZE }).gridSize).toBe(MAX_GRID_SIZE);
    for (const bad of [MIN_GRID_SIZE - 1, MAX_GRID_SIZE + 1, 4.5, '4']) {
      const checked = readLightsOutConfig({ difficulty: { grid_size: bad } });
      expect(checked.ok).toBe(false);
      if (!checked.ok)
        expect(checked.errors[0]).toMatch(/^config\.difficulty\.grid_size: must be an integer from 3 to 7/);
    }
  });

  it('bounds max_moves and scramble_depth', () => {
    expect(config({ max_moves: MAX_MOVES_LIMIT }).maxMoves).toBe(MAX_MOVES_LIMIT);
    expect(config({ scramble_depth: MAX_SCRAMBLE_DEPTH }).scrambleDepth).toBe(MAX_SCRAMBLE_DEPTH);
    const past = readLightsOutConfig({
      difficulty: { max_moves: MAX_MOVES_LIMIT + 1, scramble_depth: MAX_SCRAMBLE_DEPTH + 1 },
    });
    expect(past.ok ? [] : past.errors).toEqual([
      `config.difficulty.max_moves: must be an integer from 1 to ${MAX_MOVES_LIMIT} (MAX_MOVES_LIMIT), got ${MAX_MOVES_LIMIT + 1}`,
      `config.difficulty.scramble_depth: must be an integer from 1 to ${MAX_SCRAMBLE_DEPTH} (MAX_SCRAMBLE_DEPTH), got ${MAX_SCRAMBLE_DEPTH + 1}`,
    ]);
    const icon = readLightsOutConfig({ assets: { icon_on: { html: '<b>' } } });
    expect(icon.ok ? [] : icon.errors).toEqual([
      'config.assets.icon_on: must be text of at most 200 characters (MAX_CONFIG_TEXT_CHARS)',
    ]);
  });
});

describe('lights-out board', () => {
  it('a press toggles the cell and its orthogonal neighbours only', () => {
    const dark = new Array<boolean>(9).fill(false);
    expect(press(dark, 3, 4).map(Number)).toEqual([0, 1, 0, 1, 1, 1, 0, 1, 0]);
    expect(press(dark, 3, 0).map(Number)).toEqual([1, 1, 0, 1, 0, 0, 0, 0, 0]);
    expect(press(press(dark, 3, 7), 3, 7)).toEqual(dark);
  });

  it('every scrambled board is lit and solvable, and the solution solves it', () => {
    for (let size = MIN_GRID_SIZE; size <= MAX_GRID_SIZE; size++) {
      for (let seed = 0; seed < 20; seed++) {
        const board = scramble(size, 10, seeded(seed * 31 + size));
        expect(litCount(board)).toBeGreaterThan(0);
        const presses = solve(board, size);
        expect(presses, `size ${size} seed ${seed}`).toBeDefined();
        const solved = (presses ?? []).reduce((b, i) => press(b, size, i), board);
        expect(litCount(solved)).toBe(0);
      }
    }
  });

  it('says when a board cannot be solved (4×4 has unsolvable boards)', () => {
    const one = new Array<boolean>(16).fill(false);
    one[0] = true;
    expect(solve(one, 4)).toBeUndefined();
  });
});

describe('lights-out game', () => {
  it('completes when the last lamp goes out, with metrics', () => {
    let game = newGame(config({ grid_size: 3, max_moves: 20, scramble_depth: 3 }), seeded(7));
    const presses = solve(game.board, 3) ?? [];
    for (const i of presses) game = play(game, i);
    expect(game.status).toBe('completed');
    expect(metricsOf(game)).toEqual({
      moves_made: presses.length,
      moves_left: 20 - presses.length,
      grid_remaining: 0,
      perfect_run: true,
    });
    expect(play(game, 0)).toBe(game); // a finished game ignores presses
  });

  it('fails when the moves run out, and aborts only while playing', () => {
    let game = newGame(config({ grid_size: 4, max_moves: 2, scramble_depth: 6 }), seeded(3));
    game = play(game, 0);
    expect(game.status).toBe('playing');
    game = play(game, 0);
    expect(game.status).toBe('failed');
    expect(metricsOf(game).moves_left).toBe(0);
    expect(abort(game).status).toBe('failed');
    expect(abort(newGame(config({}), seeded(1))).status).toBe('aborted');
  });

  it('a failure with one or two lamps lit is a near miss', () => {
    const base = newGame(config({ grid_size: 3, max_moves: 1 }), seeded(2));
    const board = new Array<boolean>(9).fill(false);
    board[0] = true;
    expect(isNearMiss({ ...base, board, status: 'failed' })).toBe(true);
    expect(isNearMiss({ ...base, board, status: 'playing' })).toBe(false);
    expect(isNearMiss({ ...base, board: board.map(() => true), status: 'failed' })).toBe(false);
  });
});
