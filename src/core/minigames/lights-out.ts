// `lights_out`: a square of lamps; pressing one toggles it and its four neighbours; the goal is to put
// every lamp out within `max_moves`. The board is scrambled from the solved board by `scramble_depth`
// random presses, so it is always solvable. Its manifest, its config reader and its logic, pure and
// deterministic (the scramble takes a random function); the web client keeps only its view.

import { type GameStatus, type MinigameManifest, type ReadConfig, readMinigameConfig } from './manifest.ts';

export const MIN_GRID_SIZE = 3;
export const MAX_GRID_SIZE = 7;
export const MAX_MOVES_LIMIT = 500;
export const MAX_SCRAMBLE_DEPTH = 500;
/** Characters of an icon taken from the config. */
export const MAX_ICON_CHARS = 200;

export const LIGHTS_OUT: MinigameManifest = {
  minigame_id: 'lights_out',
  title: 'Lights out',
  description:
    'A square of lamps; pressing one flips it and its four neighbours. Put every lamp out within max_moves.',
  difficulty: {
    grid_size: {
      kind: 'int',
      min: MIN_GRID_SIZE,
      max: MAX_GRID_SIZE,
      default: 4,
      description: 'Lamps per side.',
    },
    max_moves: { kind: 'int', min: 1, max: MAX_MOVES_LIMIT, default: 20, description: 'Presses allowed.' },
    scramble_depth: {
      kind: 'int',
      min: 1,
      max: MAX_SCRAMBLE_DEPTH,
      default: 10,
      description: 'Random presses that scramble the dark board (so it is always solvable).',
    },
  },
  assets: {
    icon_on: { kind: 'text', maxChars: MAX_ICON_CHARS, default: '💡', description: 'A lit lamp.' },
    icon_off: { kind: 'text', maxChars: MAX_ICON_CHARS, default: '⬛', description: 'A dark lamp.' },
  },
  hooks: {
    on_success: 'Shown when every lamp is out.',
    on_failure: 'Shown when the moves run out.',
    on_near_miss: 'Shown when the moves run out with one or two lamps lit.',
    on_combo: "Declared by the original's manifest; neither its client nor this one fires it.",
  },
  metrics: [
    { name: 'moves_made', kind: 'int', description: 'Presses made.' },
    { name: 'moves_left', kind: 'int', description: 'Presses left.' },
    { name: 'grid_remaining', kind: 'int', description: 'Lamps still lit.' },
    { name: 'perfect_run', kind: 'bool', description: 'Solved in the fewest possible presses.' },
  ],
  accessibility:
    'Keyboard: Tab reaches the grid, arrow keys move between lamps, Enter or Space presses one. Each lamp is a button named by its row, column and state; the status line says how many are lit and how many moves are left.',
};

export interface LightsOutConfig {
  readonly gridSize: number;
  readonly maxMoves: number;
  readonly scrambleDepth: number;
  readonly iconOn: string;
  readonly iconOff: string;
  readonly hooks: Readonly<Record<string, string>>;
}

/** The pending interaction's `config`, read through the manifest (absent settings at its defaults). */
export function readLightsOutConfig(config: unknown): ReadConfig<LightsOutConfig> {
  return readMinigameConfig(LIGHTS_OUT, config, (d, hooks, assets) => ({
    gridSize: d.grid_size as number,
    maxMoves: d.max_moves as number,
    scrambleDepth: d.scramble_depth as number,
    iconOn: assets.icon_on as string,
    iconOff: assets.icon_off as string,
    hooks,
  }));
}

/** Row-major lamps; true is lit. */
export type LampBoard = readonly boolean[];

export function press(board: LampBoard, size: number, index: number): LampBoard {
  const row = Math.floor(index / size);
  const col = index % size;
  const next = [...board];
  const flip = (r: number, c: number): void => {
    if (r >= 0 && r < size && c >= 0 && c < size) next[r * size + c] = !next[r * size + c];
  };
  flip(row, col);
  flip(row - 1, col);
  flip(row + 1, col);
  flip(row, col - 1);
  flip(row, col + 1);
  return next;
}

export function litCount(board: LampBoard): number {
  return board.reduce((n, lit) => n + (lit ? 1 : 0), 0);
}

/**
 * A scrambled board: `depth` presses on distinct random cells of the dark board (pressing a cell twice
 * undoes it). Never returns the solved board: if the presses cancel out, one more press is made.
 */
export function scramble(size: number, depth: number, random: () => number): LampBoard {
  let board: LampBoard = new Array<boolean>(size * size).fill(false);
  const cells = size * size;
  const pressed = new Set<number>();
  for (let i = 0; i < depth && pressed.size < cells; i++) {
    let cell = Math.floor(random() * cells) % cells;
    while (pressed.has(cell)) cell = (cell + 1) % cells;
    pressed.add(cell);
    board = press(board, size, cell);
  }
  if (litCount(board) === 0) board = press(board, size, Math.floor(random() * cells) % cells);
  return board;
}

export interface LightsOutGame {
  readonly config: LightsOutConfig;
  readonly board: LampBoard;
  readonly movesMade: number;
  readonly status: GameStatus;
  /** Fewest presses for the starting board (from the scramble), for `perfect_run`. */
  readonly par: number;
}

export function newLightsOut(config: LightsOutConfig, random: () => number): LightsOutGame {
  const board = scramble(config.gridSize, config.scrambleDepth, random);
  return { config, board, movesMade: 0, status: 'playing', par: solve(board, config.gridSize)?.length ?? 0 };
}

/** Presses the lamp at `index` (row-major); a finished game, or a lamp off the board, changes nothing. */
export function pressLamp(game: LightsOutGame, index: number): LightsOutGame {
  if (game.status !== 'playing' || index < 0 || index >= game.board.length) return game;
  const board = press(game.board, game.config.gridSize, index);
  const movesMade = game.movesMade + 1;
  const status =
    litCount(board) === 0 ? 'completed' : movesMade >= game.config.maxMoves ? 'failed' : 'playing';
  return { ...game, board, movesMade, status };
}

export function abortLightsOut(game: LightsOutGame): LightsOutGame {
  return game.status === 'playing' ? { ...game, status: 'aborted' } : game;
}

/** The manifest's metrics: moves_made, moves_left, grid_remaining, perfect_run. */
export function lightsOutMetrics(game: LightsOutGame): Record<string, number | boolean> {
  return {
    moves_made: game.movesMade,
    moves_left: Math.max(0, game.config.maxMoves - game.movesMade),
    grid_remaining: litCount(game.board),
    perfect_run: game.status === 'completed' && game.movesMade <= game.par,
  };
}

/** "Near miss": the game failed with one or two lamps still lit. */
export function isNearMiss(game: LightsOutGame): boolean {
  const left = litCount(game.board);
  return game.status === 'failed' && left > 0 && left <= 2;
}

/** The hook texts that fired (`on_success`, `on_failure`, `on_near_miss`), for `data.triggered_hooks`. */
export function lightsOutHooks(game: LightsOutGame): string[] {
  const names = [
    ...(game.status === 'completed' ? ['on_success'] : []),
    ...(game.status === 'failed' ? ['on_failure'] : []),
    ...(isNearMiss(game) ? ['on_near_miss'] : []),
  ];
  return names.flatMap((name) => {
    const text = game.config.hooks[name];
    return text === undefined ? [] : [text];
  });
}

/**
 * The fewest presses that put every lamp out (Gaussian elimination over GF(2), then the smallest solution
 * over the null space), or undefined when the board cannot be solved. Boards up to 7×7 are 49 unknowns.
 */
export function solve(board: LampBoard, size: number): number[] | undefined {
  const n = size * size;
  // Each row: the presses that toggle lamp r, augmented with whether lamp r is lit.
  const rows: number[][] = [];
  for (let r = 0; r < n; r++) {
    const effect = press(new Array<boolean>(n).fill(false), size, r);
    rows.push([...effect.map((b) => (b ? 1 : 0)), board[r] ? 1 : 0]);
  }
  const pivotCols: number[] = [];
  let rank = 0;
  for (let col = 0; col < n && rank < n; col++) {
    const pivot = rows.findIndex((row, i) => i >= rank && row[col] === 1);
    if (pivot === -1) continue;
    [rows[rank], rows[pivot]] = [rows[pivot] as number[], rows[rank] as number[]];
    const pr = rows[rank] as number[];
    for (let i = 0; i < n; i++) {
      const row = rows[i] as number[];
      if (i !== rank && row[col] === 1) for (let k = col; k <= n; k++) row[k] = (row[k] ?? 0) ^ (pr[k] ?? 0);
    }
    pivotCols.push(col);
    rank++;
  }
  for (let i = rank; i < n; i++) if ((rows[i] as number[])[n] === 1) return undefined;
  const free = [...Array(n).keys()].filter((c) => !pivotCols.includes(c));
  let best: number[] | undefined;
  // Free variables are few for these sizes (at most 4 for 4×4 and 5×5, 0 for 3×3, 6×6 and 7×7).
  for (let mask = 0; mask < 1 << free.length; mask++) {
    const x = new Array<number>(n).fill(0);
    free.forEach((c, j) => {
      x[c] = (mask >> j) & 1;
    });
    pivotCols.forEach((col, r) => {
      const row = rows[r] as number[];
      let v = row[n] ?? 0;
      for (const c of free) v ^= (row[c] ?? 0) & (x[c] ?? 0);
      x[col] = v;
    });
    const presses = x.flatMap((v, i) => (v === 1 ? [i] : []));
    if (best === undefined || presses.length < best.length) best = presses;
  }
  return best;
}
