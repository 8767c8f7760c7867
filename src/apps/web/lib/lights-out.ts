// The `lights_out` mini-game (reference §5): a square of lamps; pressing one toggles it and its four
// neighbours; the goal is to put every lamp out within `max_moves`. The board is scrambled from the solved
// board by `scramble_depth` random presses, so it is always solvable. The config comes from the cartridge
// (`state._pending_interaction.config`), so it is checked here and each problem names the place and limit.

export const MIN_GRID_SIZE = 3;
export const MAX_GRID_SIZE = 7;
export const DEFAULT_GRID_SIZE = 4;
export const MAX_MOVES_LIMIT = 500;
export const DEFAULT_MAX_MOVES = 20;
export const MAX_SCRAMBLE_DEPTH = 500;
export const DEFAULT_SCRAMBLE_DEPTH = 10;
/** Characters of an icon or a hook text taken from the config. */
export const MAX_CONFIG_TEXT_CHARS = 200;

export interface LightsOutConfig {
  readonly gridSize: number;
  readonly maxMoves: number;
  readonly scrambleDepth: number;
  readonly iconOn: string;
  readonly iconOff: string;
  readonly hooks: { readonly onNearMiss?: string; readonly onSuccess?: string; readonly onFailure?: string };
}

export type ConfigCheck =
  | { readonly ok: true; readonly config: LightsOutConfig }
  | { readonly ok: false; readonly errors: string[] };

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function intSetting(
  difficulty: Record<string, unknown>,
  key: string,
  fallback: number,
  min: number,
  max: number,
  limitName: string,
  errors: string[],
): number {
  const raw = difficulty[key];
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    errors.push(
      `config.difficulty.${key}: must be an integer from ${min} to ${max} (${limitName}), got ${JSON.stringify(raw)}`,
    );
    return fallback;
  }
  return raw;
}

function textSetting(
  source: Record<string, unknown> | undefined,
  key: string,
  place: string,
  errors: string[],
): string | undefined {
  const raw = source?.[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.length > MAX_CONFIG_TEXT_CHARS) {
    errors.push(
      `${place}.${key}: must be text of at most ${MAX_CONFIG_TEXT_CHARS} characters (MAX_CONFIG_TEXT_CHARS)`,
    );
    return undefined;
  }
  return raw;
}

/** Reads the pending interaction's `config` (`{difficulty, assets, narrative_hooks}`). */
export function readLightsOutConfig(config: unknown): ConfigCheck {
  const errors: string[] = [];
  const root = record(config) ?? {};
  const difficulty = record(root.difficulty) ?? {};
  const assets = record(root.assets);
  const hooks = record(root.narrative_hooks);
  const gridSize = intSetting(
    difficulty,
    'grid_size',
    DEFAULT_GRID_SIZE,
    MIN_GRID_SIZE,
    MAX_GRID_SIZE,
    'MIN_GRID_SIZE..MAX_GRID_SIZE',
    errors,
  );
  const maxMoves = intSetting(
    difficulty,
    'max_moves',
    DEFAULT_MAX_MOVES,
    1,
    MAX_MOVES_LIMIT,
    'MAX_MOVES_LIMIT',
    errors,
  );
  const scrambleDepth = intSetting(
    difficulty,
    'scramble_depth',
    DEFAULT_SCRAMBLE_DEPTH,
    1,
    MAX_SCRAMBLE_DEPTH,
    'MAX_SCRAMBLE_DEPTH',
    errors,
  );
  const iconOn = textSetting(assets, 'icon_on', 'config.assets', errors) ?? '💡';
  const iconOff = textSetting(assets, 'icon_off', 'config.assets', errors) ?? '⬛';
  const onNearMiss = textSetting(hooks, 'on_near_miss', 'config.narrative_hooks', errors);
  const onSuccess = textSetting(hooks, 'on_success', 'config.narrative_hooks', errors);
  const onFailure = textSetting(hooks, 'on_failure', 'config.narrative_hooks', errors);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      gridSize,
      maxMoves,
      scrambleDepth,
      iconOn,
      iconOff,
      hooks: {
        ...(onNearMiss === undefined ? {} : { onNearMiss }),
        ...(onSuccess === undefined ? {} : { onSuccess }),
        ...(onFailure === undefined ? {} : { onFailure }),
      },
    },
  };
}

/** Row-major lamps; true is lit. */
export type Board = readonly boolean[];

export function press(board: Board, size: number, index: number): Board {
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

export function litCount(board: Board): number {
  return board.reduce((n, lit) => n + (lit ? 1 : 0), 0);
}

/**
 * A scrambled board: `depth` presses on distinct random cells of the dark board (pressing a cell twice
 * undoes it). Never returns the solved board: if the presses cancel out, one more press is made.
 */
export function scramble(size: number, depth: number, random: () => number): Board {
  let board: Board = new Array<boolean>(size * size).fill(false);
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
  readonly board: Board;
  readonly movesMade: number;
  readonly status: 'playing' | 'completed' | 'failed' | 'aborted';
  /** Fewest presses for the starting board (from the scramble), for `perfect_run`. */
  readonly par: number;
}

export function newGame(config: LightsOutConfig, random: () => number): LightsOutGame {
  const board = scramble(config.gridSize, config.scrambleDepth, random);
  return { config, board, movesMade: 0, status: 'playing', par: solve(board, config.gridSize)?.length ?? 0 };
}

export function play(game: LightsOutGame, index: number): LightsOutGame {
  if (game.status !== 'playing' || index < 0 || index >= game.board.length) return game;
  const board = press(game.board, game.config.gridSize, index);
  const movesMade = game.movesMade + 1;
  const status =
    litCount(board) === 0 ? 'completed' : movesMade >= game.config.maxMoves ? 'failed' : 'playing';
  return { ...game, board, movesMade, status };
}

export function abort(game: LightsOutGame): LightsOutGame {
  return game.status === 'playing' ? { ...game, status: 'aborted' } : game;
}

/** The metrics the original client sent (reference §5): moves_made, moves_left, grid_remaining, perfect_run. */
export function metricsOf(game: LightsOutGame): Record<string, number | boolean> {
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

/**
 * The fewest presses that put every lamp out (Gaussian elimination over GF(2), then the smallest solution
 * over the null space), or undefined when the board cannot be solved. Boards up to 7×7 are 49 unknowns.
 */
export function solve(board: Board, size: number): number[] | undefined {
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
