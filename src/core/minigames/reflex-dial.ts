// `reflex_dial`: a needle sweeps round a dial; the player stops it inside a target zone. Each hit moves
// the zone; `required_success_hits` hits win; the game is lost once the attempts reach three times that
// number (as in the original). With `key_sequence`, attempt n must be made with the n-th key (cycling):
// another key is a miss. Pure and deterministic: zone placement takes a seeded random function, and the
// needle's angle is computed from clock values the caller passes.

import { type GameStatus, type MinigameManifest, type ReadConfig, readMinigameConfig } from './manifest.ts';

export const MIN_SPEED = 0.05;
export const MAX_SPEED = 3;
export const MIN_ZONE_DEGREES = 5;
export const MAX_ZONE_DEGREES = 180;
export const MAX_REQUIRED_HITS = 10;
export const MAX_KEYS = 10;
/** Degrees on each side of the needle's start (0°) that a zone never covers, so a press at once misses. */
export const START_CLEARANCE_DEGREES = 20;
/** The key of an attempt when the config names none. */
export const DEFAULT_KEY = ' ';

export const REFLEX_DIAL: MinigameManifest = {
  minigame_id: 'reflex_dial',
  title: 'Reflex dial',
  description:
    'A needle sweeps round a dial; stop it inside the target zone. Each hit moves the zone; enough hits win, three times as many attempts lose.',
  difficulty: {
    indicator_speed: {
      kind: 'number',
      min: MIN_SPEED,
      max: MAX_SPEED,
      default: 0.5,
      description: 'Turns of the needle per second.',
    },
    zone_width_degrees: {
      kind: 'number',
      min: MIN_ZONE_DEGREES,
      max: MAX_ZONE_DEGREES,
      default: 45,
      description: 'Width of the target zone, in degrees.',
    },
    required_success_hits: {
      kind: 'int',
      min: 1,
      max: MAX_REQUIRED_HITS,
      default: 3,
      description: 'Hits needed to win (the game is lost after three times as many attempts).',
    },
    key_sequence: {
      kind: 'text_list',
      minItems: 1,
      maxItems: MAX_KEYS,
      maxChars: 20,
      description: 'Keys to press, one per attempt, in order (cycling); Space when absent.',
    },
  },
  assets: {},
  hooks: {
    on_hit: 'Shown on each hit.',
    on_miss: 'Shown on each miss.',
    on_success: 'Shown when enough hits are made.',
    on_failure: 'Shown when the attempts run out.',
  },
  metrics: [
    { name: 'success', kind: 'bool', description: 'Enough hits were made.' },
    { name: 'hits', kind: 'int', description: 'Attempts inside the zone.' },
    { name: 'misses', kind: 'int', description: 'Attempts outside it (or with the wrong key).' },
    { name: 'avg_reaction_time_ms', kind: 'int', description: 'Mean time from a round start to a hit.' },
  ],
  accessibility:
    'Keyboard: the named key (Space by default) stops the needle. Screen readers: a live region announces when the needle enters and leaves the zone, so the game can be played by ear. Terminal: the zone and speed are printed; press Enter to stop the needle.',
};

export interface DialConfig {
  readonly speed: number;
  readonly zoneWidth: number;
  readonly requiredHits: number;
  readonly keys: readonly string[] | undefined;
  readonly hooks: Readonly<Record<string, string>>;
}

export function readDialConfig(config: unknown): ReadConfig<DialConfig> {
  return readMinigameConfig(REFLEX_DIAL, config, (d, hooks) => ({
    speed: d.indicator_speed as number,
    zoneWidth: d.zone_width_degrees as number,
    requiredHits: d.required_success_hits as number,
    keys: d.key_sequence as string[] | undefined,
    hooks,
  }));
}

export interface DialGame {
  readonly config: DialConfig;
  /** The zone's start angle, in degrees clockwise from the needle's start; the zone runs `zoneWidth` on. */
  readonly zoneStart: number;
  readonly hits: number;
  readonly misses: number;
  readonly reactionMs: readonly number[];
  /** When the needle of this attempt started at 0°. */
  readonly roundStartedAt: number;
  readonly status: GameStatus;
  /** The last attempt, for the status line. */
  readonly last?: { readonly hit: boolean; readonly angle: number; readonly key: string };
  readonly random: () => number;
}

function placeZone(zoneWidth: number, random: () => number): number {
  // The zone lies wholly within [clearance, 360 - clearance], so it never covers the start angle.
  const room = 360 - 2 * START_CLEARANCE_DEGREES - zoneWidth;
  return START_CLEARANCE_DEGREES + random() * Math.max(0, room);
}

export function newDial(config: DialConfig, random: () => number, now: number): DialGame {
  return {
    config,
    zoneStart: placeZone(config.zoneWidth, random),
    hits: 0,
    misses: 0,
    reactionMs: [],
    roundStartedAt: now,
    status: 'playing',
    random,
  };
}

/** The needle's angle in [0, 360) at `now`. */
export function needleAngle(game: DialGame, now: number): number {
  const turns = (game.config.speed * Math.max(0, now - game.roundStartedAt)) / 1000;
  return (turns - Math.floor(turns)) * 360;
}

export function inZone(game: DialGame, angle: number): boolean {
  return angle >= game.zoneStart && angle <= game.zoneStart + game.config.zoneWidth;
}

/** The key attempt number `attempt` (0-based) must use. */
export function expectedKey(game: DialGame, attempt = game.hits + game.misses): string {
  const keys = game.config.keys;
  return keys === undefined || keys.length === 0 ? DEFAULT_KEY : (keys[attempt % keys.length] as string);
}

export function attemptsAllowed(config: DialConfig): number {
  return config.requiredHits * 3;
}

/** Stops the needle with `key` at `now`. */
export function stopNeedle(game: DialGame, now: number, key: string = expectedKey(game)): DialGame {
  if (game.status !== 'playing') return game;
  const angle = needleAngle(game, now);
  const hit = inZone(game, angle) && key.toLowerCase() === expectedKey(game).toLowerCase();
  const hits = game.hits + (hit ? 1 : 0);
  const misses = game.misses + (hit ? 0 : 1);
  const status: GameStatus =
    hits >= game.config.requiredHits
      ? 'completed'
      : hits + misses >= attemptsAllowed(game.config)
        ? 'failed'
        : 'playing';
  return {
    ...game,
    hits,
    misses,
    reactionMs: hit ? [...game.reactionMs, now - game.roundStartedAt] : game.reactionMs,
    // A hit moves the zone; every attempt restarts the needle at 0°.
    zoneStart: hit ? placeZone(game.config.zoneWidth, game.random) : game.zoneStart,
    roundStartedAt: now,
    status,
    last: { hit, angle, key },
  };
}

/** When (clock value) the needle of the current attempt is next inside the zone: for tests and demos. */
export function nextZoneTime(game: DialGame, from: number): number {
  const msPerDegree = 1000 / (game.config.speed * 360);
  const angle = needleAngle(game, from);
  const middle = game.zoneStart + game.config.zoneWidth / 2;
  const ahead = (middle - angle + 360) % 360;
  return from + ahead * msPerDegree;
}

export function abortDial(game: DialGame): DialGame {
  return game.status === 'playing' ? { ...game, status: 'aborted' } : game;
}

export function dialMetrics(game: DialGame): Record<string, boolean | number> {
  const total = game.reactionMs.reduce((sum, ms) => sum + ms, 0);
  return {
    success: game.status === 'completed',
    hits: game.hits,
    misses: game.misses,
    avg_reaction_time_ms: game.reactionMs.length === 0 ? 0 : Math.round(total / game.reactionMs.length),
  };
}

/** Hook texts of the last attempt (`on_hit` / `on_miss`) and of the end (`on_success` / `on_failure`). */
export function dialHooks(game: DialGame): string[] {
  const out: string[] = [];
  const push = (name: string) => {
    const text = game.config.hooks[name];
    if (text !== undefined) out.push(text);
  };
  if (game.last) push(game.last.hit ? 'on_hit' : 'on_miss');
  if (game.status === 'completed') push('on_success');
  if (game.status === 'failed') push('on_failure');
  return out;
}
