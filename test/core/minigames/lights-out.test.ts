// lights_out: its config read through the manifest, the board, the solver, the game and its hooks.
import { describe, expect, it } from 'vitest';
import {
  abortLightsOut,
  isNearMiss,
  lightsOutHooks,
  lightsOutMetrics,
  litCount,
  newLightsOut,
  press,
  pressLamp,
  readLightsOutConfig,
  scramble,
  seededRandom as seeded,
  solve,
} from '../../../src/core/minigames/index.ts';
import {
  MAX_GRID_SIZE,
  MAX_ICON_CHARS,
  MAX_MOVES_LIMIT,
  MAX_SCRAMBLE_DEPTH,
  MIN_GRID_SIZE,
} from '../../../src/core/minigames/lights-out.ts';

function config(difficulty: Record<string, unknown>) {
  const checked = readLightsOutConfig({ difficulty });
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  return checked.config;
}

describe('lights-out config', () => {
  it('reads the lanternmere and lights-out-demo configs; absent settings take the manifest defaults', () => {
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
        hooks: { on_combo: 'Circuit breakers trip.', on_near_miss: 'Sparks fly.' },
      },
    });
    expect(readLightsOutConfig({})).toEqual({
      ok: true,
      config: {
        gridSize: 4,
        maxMoves: 20,
        scrambleDepth: 10,
        iconOn: '💡',
        iconOff: '⬛',
        hooks: {},
      },
    });
    expect(readLightsOutConfig(undefined).ok).toBe(true);
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
      `config.difficulty.max_moves: must be an integer from 1 to ${MAX_MOVES_LIMIT}, got ${MAX_MOVES_LIMIT + 1}`,
      `config.difficulty.scramble_depth: must be an integer from 1 to ${MAX_SCRAMBLE_DEPTH}, got ${MAX_SCRAMBLE_DEPTH + 1}`,
    ]);
    const icon = readLightsOutConfig({ assets: { icon_on: { html: '<b>' } } });
    expect(icon.ok ? [] : icon.errors).toEqual([
      `config.assets.icon_on: must be text of at most ${MAX_ICON_CHARS} characters`,
    ]);
    expect(readLightsOutConfig({ assets: { icon_on: 'x'.repeat(MAX_ICON_CHARS) } }).ok).toBe(true);
    expect(readLightsOutConfig({ assets: { icon_on: 'x'.repeat(MAX_ICON_CHARS + 1) } }).ok).toBe(false);
  });

  it('refuses a setting the manifest does not have, as the cartridge loader does', () => {
    const unknown = readLightsOutConfig({ difficulty: { speed: 1 }, narrative_hooks: { on_win: 'x' } });
    expect(unknown.ok ? [] : unknown.errors).toEqual([
      'config.difficulty.speed: is not a setting of this mini-game (difficulty: grid_size, max_moves, scramble_depth)',
      'config.narrative_hooks.on_win: is not a setting of this mini-game (narrative_hooks: on_success, on_failure, on_near_miss, on_combo)',
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
    let game = newLightsOut(config({ grid_size: 3, max_moves: 20, scramble_depth: 3 }), seeded(7));
    const presses = solve(game.board, 3) ?? [];
    for (const i of presses) game = pressLamp(game, i);
    expect(game.status).toBe('completed');
    expect(lightsOutMetrics(game)).toEqual({
      moves_made: presses.length,
      moves_left: 20 - presses.length,
      grid_remaining: 0,
      perfect_run: true,
    });
    expect(pressLamp(game, 0)).toBe(game); // a finished game ignores presses
  });

  it('fails when the moves run out, and aborts only while playing', () => {
    let game = newLightsOut(config({ grid_size: 4, max_moves: 2, scramble_depth: 6 }), seeded(3));
    game = pressLamp(game, 0);
    expect(game.status).toBe('playing');
    game = pressLamp(game, 0);
    expect(game.status).toBe('failed');
    expect(lightsOutMetrics(game).moves_left).toBe(0);
    expect(abortLightsOut(game).status).toBe('failed');
    expect(abortLightsOut(newLightsOut(config({}), seeded(1))).status).toBe('aborted');
  });

  it('a failure with one or two lamps lit is a near miss', () => {
    const base = newLightsOut(config({ grid_size: 3, max_moves: 1 }), seeded(2));
    const board = new Array<boolean>(9).fill(false);
    board[0] = true;
    expect(isNearMiss({ ...base, board, status: 'failed' })).toBe(true);
    expect(isNearMiss({ ...base, board, status: 'playing' })).toBe(false);
    expect(isNearMiss({ ...base, board: board.map(() => true), status: 'failed' })).toBe(false);
  });

  it('the hooks that fired: on_success, or on_failure with on_near_miss when one or two lamps stay lit', () => {
    const hooks = { on_success: 'Dark.', on_failure: 'Still lit.', on_near_miss: 'So close.' };
    const checked = readLightsOutConfig({
      difficulty: { grid_size: 3, max_moves: 1 },
      narrative_hooks: hooks,
    });
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const base = newLightsOut(checked.config, seeded(2));
    const one = new Array<boolean>(9).fill(false);
    one[0] = true;
    expect(lightsOutHooks({ ...base, board: one.map(() => false), status: 'completed' })).toEqual(['Dark.']);
    expect(lightsOutHooks({ ...base, board: one, status: 'failed' })).toEqual(['Still lit.', 'So close.']);
    expect(lightsOutHooks({ ...base, board: one.map(() => true), status: 'failed' })).toEqual(['Still lit.']);
    expect(lightsOutHooks({ ...base, status: 'aborted' })).toEqual([]);
    expect(lightsOutHooks({ ...newLightsOut(config({}), seeded(1)), status: 'completed' })).toEqual([]);
  });
});
