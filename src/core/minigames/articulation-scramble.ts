// `articulation_scramble`: the player says a sentence by choosing its words, in order, from a shuffled
// bank that also holds decoy words. Success is the exact sequence before the time runs out. Pure and
// deterministic: the shuffle takes a seeded random function, and time is whatever clock value the caller
// passes (the web form's performance.now(), the terminal's Date.now(), a test's numbers).

import {
  type GameStatus,
  MAX_HOOK_TEXT_CHARS,
  type MinigameManifest,
  type ReadConfig,
  readMinigameConfig,
} from './manifest.ts';

export const MAX_SEQUENCE_WORDS = 12;
export const MAX_DECOY_WORDS = 12;
export const MAX_WORD_CHARS = 40;
export const MIN_TIME_SECONDS = 5;
export const MAX_TIME_SECONDS = 600;

export const ARTICULATION_SCRAMBLE: MinigameManifest = {
  minigame_id: 'articulation_scramble',
  title: 'Articulation scramble',
  description:
    'Say a sentence by picking its words in order from a shuffled bank with decoys, before the time runs out.',
  difficulty: {
    prompt: {
      kind: 'text',
      maxChars: MAX_HOOK_TEXT_CHARS,
      default: 'Say it right.',
      description: 'What the player is asked to say.',
    },
    prefix: {
      kind: 'text',
      maxChars: MAX_HOOK_TEXT_CHARS,
      default: '',
      description: 'Text shown before the chosen words.',
    },
    correct_sequence: {
      kind: 'text_list',
      minItems: 1,
      maxItems: MAX_SEQUENCE_WORDS,
      maxChars: MAX_WORD_CHARS,
      required: true,
      description: 'The words to say, in order.',
    },
    confuse_words: {
      kind: 'text_list',
      minItems: 0,
      maxItems: MAX_DECOY_WORDS,
      maxChars: MAX_WORD_CHARS,
      description: 'Decoy words mixed into the bank.',
    },
    max_time_seconds: {
      kind: 'int',
      min: MIN_TIME_SECONDS,
      max: MAX_TIME_SECONDS,
      description: 'Seconds allowed; no limit when absent.',
    },
  },
  assets: {},
  hooks: {
    on_success: 'Shown when the sentence is right.',
    on_failure: 'Shown when the sentence is wrong.',
    on_timeout: 'Shown when the time runs out.',
  },
  metrics: [
    { name: 'success', kind: 'bool', description: 'The sentence was right, in time.' },
    { name: 'selected_sequence', kind: 'text_list', description: 'The words the player chose, in order.' },
    { name: 'time_spent_seconds', kind: 'number', description: 'Seconds from the start to the answer.' },
  ],
  accessibility:
    'Keyboard: the word bank is a list of buttons (Tab, Enter); Backspace removes the last word; Enter on "Say it" answers. The chosen sentence and the time left are read out as a status line. Terminal: type the words, or their numbers, in order.',
};

export interface ScrambleConfig {
  readonly prompt: string;
  readonly prefix: string;
  readonly correctSequence: readonly string[];
  readonly confuseWords: readonly string[];
  readonly maxTimeSeconds: number | undefined;
  readonly hooks: Readonly<Record<string, string>>;
}

/** The pending interaction's `config`, checked against the manifest. */
export function readScrambleConfig(config: unknown): ReadConfig<ScrambleConfig> {
  return readMinigameConfig(ARTICULATION_SCRAMBLE, config, (d, hooks) => ({
    prompt: d.prompt as string,
    prefix: d.prefix as string,
    correctSequence: d.correct_sequence as string[],
    confuseWords: (d.confuse_words as string[] | undefined) ?? [],
    maxTimeSeconds: d.max_time_seconds as number | undefined,
    hooks,
  }));
}

export interface ScrambleGame {
  readonly config: ScrambleConfig;
  /** The shuffled words: the sentence's and the decoys. */
  readonly bank: readonly string[];
  /** Indices into `bank`, in the order chosen. */
  readonly chosen: readonly number[];
  readonly status: GameStatus;
  /** Why it ended: right, wrong, timeout or given up. */
  readonly ending?: 'right' | 'wrong' | 'timeout' | 'aborted';
  readonly startedAt: number;
  readonly endedAt?: number;
}

/** Fisher–Yates with the given random function. */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1)) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function newScramble(config: ScrambleConfig, random: () => number, now: number): ScrambleGame {
  return {
    config,
    bank: shuffle([...config.correctSequence, ...config.confuseWords], random),
    chosen: [],
    status: 'playing',
    startedAt: now,
  };
}

/** Seconds left, or undefined without a limit. */
export function secondsLeft(game: ScrambleGame, now: number): number | undefined {
  if (game.config.maxTimeSeconds === undefined) return undefined;
  return Math.max(0, game.config.maxTimeSeconds - (now - game.startedAt) / 1000);
}

/** Ends the game as a timeout when its time is up (call on every tick and before every move). */
export function expire(game: ScrambleGame, now: number): ScrambleGame {
  if (game.status !== 'playing') return game;
  const left = secondsLeft(game, now);
  return left === 0 ? { ...game, status: 'failed', ending: 'timeout', endedAt: now } : game;
}

/** Chooses the bank word at `index` (each bank word at most once). */
export function choose(game: ScrambleGame, index: number, now: number): ScrambleGame {
  const live = expire(game, now);
  if (live.status !== 'playing' || index < 0 || index >= live.bank.length || live.chosen.includes(index))
    return live;
  return { ...live, chosen: [...live.chosen, index] };
}

/** Takes back the last chosen word. */
export function unchoose(game: ScrambleGame, now: number): ScrambleGame {
  const live = expire(game, now);
  if (live.status !== 'playing' || live.chosen.length === 0) return live;
  return { ...live, chosen: live.chosen.slice(0, -1) };
}

export function sentence(game: ScrambleGame): string[] {
  return game.chosen.map((i) => game.bank[i] as string);
}

/** Says the chosen words: right when they are exactly the sequence. */
export function submit(game: ScrambleGame, now: number): ScrambleGame {
  const live = expire(game, now);
  if (live.status !== 'playing') return live;
  const said = sentence(live);
  const right =
    said.length === live.config.correctSequence.length &&
    said.every((word, i) => word === live.config.correctSequence[i]);
  return { ...live, status: right ? 'completed' : 'failed', ending: right ? 'right' : 'wrong', endedAt: now };
}

export function abortScramble(game: ScrambleGame, now: number): ScrambleGame {
  return game.status === 'playing' ? { ...game, status: 'aborted', ending: 'aborted', endedAt: now } : game;
}

export function scrambleMetrics(game: ScrambleGame): Record<string, boolean | number | string[]> {
  const end = game.endedAt ?? game.startedAt;
  return {
    success: game.status === 'completed',
    selected_sequence: sentence(game),
    time_spent_seconds: Math.round((end - game.startedAt) / 100) / 10,
  };
}

/** The hook texts that fired (`on_success`, `on_failure`, `on_timeout`), for `data.triggered_hooks`. */
export function scrambleHooks(game: ScrambleGame): string[] {
  const name =
    game.ending === 'right'
      ? 'on_success'
      : game.ending === 'wrong'
        ? 'on_failure'
        : game.ending === 'timeout'
          ? 'on_timeout'
          : undefined;
  const text = name === undefined ? undefined : game.config.hooks[name];
  return text === undefined ? [] : [text];
}
