// The terminal forms of the mini-games: a pending `articulation_scramble` or `reflex_dial` is played as
// text in `mnesos play` (lines in, lines out, nothing but the keyboard, so a screen reader reads all of
// it). The result goes back as the same interaction turn the web client sends. Other mini-games keep the
// `/resolve status=…` command. The clock and the random function are injected, so tests play exactly.

import {
  abortDial,
  abortScramble,
  attemptsAllowed,
  choose,
  type DialGame,
  dialHooks,
  dialMetrics,
  expectedKey,
  type GameStatus,
  newDial,
  newScramble,
  readDialConfig,
  readScrambleConfig,
  type ScrambleGame,
  scrambleHooks,
  scrambleMetrics,
  secondsLeft,
  sentence,
  stopNeedle,
  submit,
} from '../../../core/minigames/index.ts';
import { hasPendingInteraction, type InteractionInput, PENDING_KEY } from '../../../engine/turn/index.ts';

export interface TextAnswer {
  readonly output: string;
  /** Set when the game is over: the interaction to send. */
  readonly result?: InteractionInput;
}

interface TextForm {
  intro(): string;
  input(line: string): TextAnswer;
}

/** What a player types to stop playing. */
const GIVE_UP = new Set(['give up', 'giveup', '/giveup', 'quit game']);

function pendingOf(state: unknown): { id: string; config: unknown } | undefined {
  if (typeof state !== 'object' || state === null || !hasPendingInteraction(state as Record<string, unknown>))
    return undefined;
  const pending = (state as Record<string, unknown>)[PENDING_KEY] as Record<string, unknown>;
  return typeof pending.minigame_id === 'string'
    ? { id: pending.minigame_id, config: pending.config }
    : undefined;
}

export interface TerminalMinigameOptions {
  readonly random?: () => number;
  readonly now?: () => number;
}

/** The text mini-game of the current pending interaction, if it has a terminal form. */
export class TerminalMinigames {
  readonly #random: () => number;
  readonly #now: () => number;
  #active: TextForm | undefined;

  constructor(options: TerminalMinigameOptions = {}) {
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /** Starts the pending mini-game's text form; its introduction, or undefined when it has none. */
  start(state: unknown): string | undefined {
    this.#active = undefined;
    const pending = pendingOf(state);
    if (pending === undefined) return undefined;
    const form = this.#formOf(pending.id, pending.config);
    if (form === undefined) return undefined;
    this.#active = form;
    return form.intro();
  }

  get active(): boolean {
    return this.#active !== undefined;
  }

  /** A typed line for the active game; undefined when no text game is being played. */
  input(line: string): TextAnswer | undefined {
    const form = this.#active;
    if (form === undefined) return undefined;
    const answer = form.input(line);
    if (answer.result !== undefined) this.#active = undefined;
    return answer;
  }

  #formOf(id: string, config: unknown): TextForm | undefined {
    switch (id) {
      case 'articulation_scramble': {
        const read = readScrambleConfig(config);
        return read.ok
          ? scrambleForm(newScramble(read.config, this.#random, this.#now()), this.#now)
          : brokenForm(id, read.errors);
      }
      case 'reflex_dial': {
        const read = readDialConfig(config);
        return read.ok
          ? dialForm(newDial(read.config, this.#random, this.#now()), this.#now)
          : brokenForm(id, read.errors);
      }
      default:
        return undefined;
    }
  }
}

/** A config the game cannot use (a cartridge loaded before the check existed, or computed at run time). */
function brokenForm(id: string, errors: readonly string[]): TextForm {
  return {
    intro: () =>
      [
        `Mini-game ${id}: its settings are not usable:`,
        ...errors.map((e) => `  - ${e}`),
        'Press Enter to give it up.',
      ].join('\n'),
    input: () => ({ output: 'Given up.', result: { minigame_id: id, status: 'aborted' } }),
  };
}

/** The answer that ends a game: the closing line and the hooks that fired, and the result to send. */
function finisher<G extends { readonly status: GameStatus }>(
  minigameId: string,
  metricsOf: (game: G) => NonNullable<InteractionInput['metrics']>,
  hooksOf: (game: G) => string[],
): (ended: G, output: string) => TextAnswer {
  return (ended, output) => {
    const metrics = metricsOf(ended);
    const hooks = hooksOf(ended);
    return {
      output: [output, ...hooks].join('\n'),
      result: {
        minigame_id: minigameId,
        status: ended.status === 'playing' ? 'aborted' : ended.status,
        metrics,
        data: { ...metrics, triggered_hooks: hooks },
      },
    };
  };
}

/** The scramble's opening: the prompt, the word bank numbered, and how to answer. */
function scrambleIntro(game: ScrambleGame): string {
  const c = game.config;
  const words = game.bank.map((w, i) => `${i + 1}) ${w}`).join('   ');
  const time = c.maxTimeSeconds === undefined ? '' : ` You have ${c.maxTimeSeconds} seconds.`;
  return [
    `Mini-game: articulation scramble. ${c.prompt}`,
    ...(c.prefix === '' ? [] : [c.prefix]),
    `Words: ${words}`,
    `Type the ${c.correctSequence.length} words in order, or their numbers (for example: ${[...Array(Math.min(3, game.bank.length)).keys()].map((i) => i + 1).join(' ')}).${time} Type "give up" to stop.`,
  ].join('\n');
}

/** The typed words (or their numbers) chosen in order from a fresh pick, or what to say about one that is not left. */
function chooseWords(game: ScrambleGame, text: string, at: number): ScrambleGame | { output: string } {
  let next: ScrambleGame = { ...game, chosen: [] };
  for (const token of text.split(/\s+/).filter((t) => t !== '')) {
    const number = /^\d+$/.test(token) ? Number(token) - 1 : -1;
    const index =
      number >= 0
        ? number
        : next.bank.findIndex((w, i) => w.toLowerCase() === token.toLowerCase() && !next.chosen.includes(i));
    if (index < 0 || index >= next.bank.length || next.chosen.includes(index)) {
      return {
        output: `'${token.slice(0, 40)}' is not one of the words left. Type the words in order, or "give up".`,
      };
    }
    next = choose(next, index, at);
  }
  return next;
}

function scrambleForm(start: ScrambleGame, now: () => number): TextForm {
  let game = start;
  const finish = finisher('articulation_scramble', scrambleMetrics, scrambleHooks);
  return {
    intro: () => scrambleIntro(game),
    input: (line) => {
      const at = now();
      const text = line.trim();
      if (GIVE_UP.has(text.toLowerCase())) return finish(abortScramble(game, at), 'You give up.');
      const next = chooseWords(game, text, at);
      if ('output' in next) return next;
      if (next.chosen.length === 0 && next.status === 'playing') {
        return { output: 'Type the words in order (or their numbers).' };
      }
      const ended = submit(next, at);
      game = ended;
      if (ended.ending === 'timeout') return finish(ended, 'Too slow: the time ran out.');
      const said = sentence(ended).join(' ');
      const left = secondsLeft(ended, at);
      return finish(
        ended,
        ended.status === 'completed'
          ? `Right: "${said}".${left === undefined ? '' : ` (${Math.round(left)} s to spare)`}`
          : `Wrong: "${said}".`,
      );
    },
  };
}

function degrees(value: number): string {
  return `${Math.round(value)}°`;
}

function dialForm(start: DialGame, now: () => number): TextForm {
  let game = start;
  const keyHint = (g: DialGame) => {
    const key = expectedKey(g);
    return key === ' ' ? 'press Enter' : `type ${JSON.stringify(key)} and press Enter`;
  };
  const zone = (g: DialGame) => `${degrees(g.zoneStart)}–${degrees(g.zoneStart + g.config.zoneWidth)}`;
  const finish = finisher('reflex_dial', dialMetrics, dialHooks);
  return {
    intro: () => {
      const c = game.config;
      const turnMs = Math.round(1000 / c.speed);
      return [
        `Mini-game: reflex dial. A needle starts at 0° and turns clockwise, one turn every ${turnMs} ms.`,
        `Stop it inside the zone ${zone(game)}: ${keyHint(game)} at the right moment (about ${Math.round((game.zoneStart + c.zoneWidth / 2) * (turnMs / 360))} ms from now).`,
        `Hits needed: ${c.requiredHits}; attempts allowed: ${attemptsAllowed(c)}. Type "give up" to stop.`,
      ].join('\n');
    },
    input: (line) => {
      const at = now();
      const text = line.trim();
      if (GIVE_UP.has(text.toLowerCase())) return finish(abortDial(game), 'You give up.');
      // Enter alone is the Space key; a typed character is that key.
      const key = text === '' ? ' ' : text;
      const wanted = expectedKey(game);
      const wrongKey = key.toLowerCase() !== wanted.toLowerCase();
      const next = stopNeedle(game, at, key);
      game = next;
      const angle = degrees(next.last?.angle ?? 0);
      const what = next.last?.hit
        ? `Hit at ${angle}!`
        : wrongKey
          ? `Wrong key (${wanted === ' ' ? 'Enter alone' : JSON.stringify(wanted)} was wanted): missed at ${angle}.`
          : `Missed at ${angle}.`;
      const tally = `${next.hits} of ${next.config.requiredHits} hits, ${next.hits + next.misses} of ${attemptsAllowed(next.config)} attempts.`;
      if (next.status === 'completed') return finish(next, `${what} ${tally} The dial gives way.`);
      if (next.status === 'failed') return finish(next, `${what} ${tally} Out of attempts.`);
      const hooks = dialHooks(next);
      return {
        output: [
          `${what} ${tally}`,
          ...hooks,
          `The needle restarts at 0°. Zone: ${zone(next)}; ${keyHint(next)}.`,
        ].join('\n'),
      };
    },
  };
}
