// The `articulation_scramble` mini-game: build the sentence by choosing words from a shuffled bank.
// Keyboard: Tab moves through the word buttons, Enter or Space chooses one, Backspace takes the last word
// back, "Say it" answers. Screen readers: the sentence so far and the time left are a polite status line.
// The logic is src/core/minigames/articulation-scramble.ts; this is only its face.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  abortScramble,
  choose,
  expire,
  newScramble,
  readScrambleConfig,
  type ScrambleGame,
  scrambleHooks,
  scrambleMetrics,
  secondsLeft,
  sentence,
  submit,
  unchoose,
} from '../../../core/minigames/index.ts';
import type { ScrambleConfig } from '../../../core/minigames/index.ts';
import type { InteractionBody } from './interaction.ts';
import { CheckedSettings, GameActions, reportGameResult } from './minigame-parts.tsx';

const ID = 'articulation_scramble';

type SetGame = (update: (game: ScrambleGame) => ScrambleGame) => void;

/** How the game ended, in words (empty while it is played). */
function endingText(ending: ScrambleGame['ending'], said: readonly string[]): string {
  switch (ending) {
    case 'right':
      return `Right: “${said.join(' ')}”.`;
    case 'wrong':
      return `Wrong: “${said.join(' ')}”.`;
    case 'timeout':
      return 'Too slow: the time ran out.';
    case 'aborted':
      return 'Given up.';
    default:
      return '';
  }
}

/**
 * A chosen word's button is disabled, which drops the keyboard focus: give it to the next word left (or
 * to "Say it"), so Enter, Tab and Backspace keep working without a mouse.
 */
function useFocusOnNextWord(root: { readonly current: HTMLElement | null }, game: ScrambleGame): void {
  useEffect(() => {
    const active = document.activeElement as HTMLButtonElement | null;
    if (root.current === null || (active && active !== document.body && !active.disabled)) return;
    const next =
      root.current.querySelector<HTMLButtonElement>('[data-testid="scramble-word"]:not([disabled])') ??
      root.current.querySelector<HTMLButtonElement>('button:not([disabled])');
    next?.focus();
  }, [game.chosen.length, game.status]);
}

/** The clock, ticking only while a timed game is being played; the time running out ends it. */
function useScrambleClock(timed: boolean, status: ScrambleGame['status'], setGame: SetGame): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!timed || status !== 'playing') return;
    const timer = setInterval(() => {
      const at = performance.now();
      setNow(at);
      setGame((g) => expire(g, at));
    }, 250);
    return () => clearInterval(timer);
  }, [timed, status]);
  return now;
}

/**
 * Backspace takes back the last word wherever the focus is (a chosen word's button loses it), except in a
 * text field.
 */
function useBackspaceTakesBack(setGame: SetGame): void {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key !== 'Backspace' || target?.closest('input, textarea, [contenteditable]')) return;
      e.preventDefault();
      setGame((g) => unchoose(g, performance.now()));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function ArticulationScramble({
  config,
  onResult,
}: {
  config: unknown;
  onResult: (result: InteractionBody) => void;
}) {
  return (
    <CheckedSettings
      title="Articulation scramble"
      minigameId={ID}
      config={config}
      read={readScrambleConfig}
      onResult={onResult}
      play={(checked) => <ScramblePlay config={checked} onResult={onResult} />}
    />
  );
}

function ScramblePlay({
  config,
  onResult,
}: {
  config: ScrambleConfig;
  onResult: (result: InteractionBody) => void;
}) {
  const [game, setGame] = useState<ScrambleGame>(() => newScramble(config, Math.random, performance.now()));
  const root = useRef<HTMLElement>(null);
  useFocusOnNextWord(root, game);
  const now = useScrambleClock(config.maxTimeSeconds !== undefined, game.status, setGame);
  useBackspaceTakesBack(setGame);

  const finish = (final: ScrambleGame): void =>
    reportGameResult(onResult, ID, final.status, scrambleMetrics(final), scrambleHooks(final));
  const over = game.status !== 'playing';
  const said = sentence(game);
  const act = (next: (g: ScrambleGame, at: number) => ScrambleGame) => setGame(next(game, performance.now()));
  return (
    <section
      class="minigame"
      aria-label="Mini-game: articulation scramble"
      data-testid="minigame"
      data-minigame={ID}
      data-status={game.status}
      ref={root}
    >
      <h2>Articulation scramble</h2>
      <p>
        {game.config.prompt} <span class="muted">(choose the words in order; Backspace takes one back)</span>
      </p>
      <ScrambleStatus game={game} said={said} left={secondsLeft(game, now)} />
      <WordBank game={game} onChoose={(i) => act((g, at) => choose(g, i, at))} />
      <GameActions
        over={over}
        onContinue={() => finish(game)}
        onGiveUp={() => {
          const stopped = abortScramble(game, performance.now());
          setGame(stopped);
          finish(stopped);
        }}
      >
        <ScrambleButtons said={said} onSubmit={() => act(submit)} onUndo={() => act(unchoose)} />
      </GameActions>
    </section>
  );
}

/** The sentence so far, the time left while playing, and the outcome once over. */
function ScrambleStatus({
  game,
  said,
  left,
}: {
  game: ScrambleGame;
  said: readonly string[];
  left: number | undefined;
}) {
  const over = game.status !== 'playing';
  return (
    <p role="status" aria-live="polite" data-testid="minigame-status">
      {game.config.prefix ? `${game.config.prefix} ` : ''}
      <strong data-testid="scramble-sentence">{said.length > 0 ? said.join(' ') : '…'}</strong>
      {!over && left !== undefined ? ` · ${Math.ceil(left)} s left` : ''}
      {over ? ` — ${endingText(game.ending, said)}` : ''}
    </p>
  );
}

/** The shuffled words; a chosen word's button is pressed and disabled. */
function WordBank({ game, onChoose }: { game: ScrambleGame; onChoose: (index: number) => void }) {
  const over = game.status !== 'playing';
  return (
    <fieldset
      class="word-bank"
      style={{ border: 'none', padding: 0, display: 'flex', flexWrap: 'wrap', gap: '0.4rem' }}
    >
      <legend class="visually-hidden">Words to choose from</legend>
      {game.bank.map((word, i) => (
        <button
          key={i}
          type="button"
          data-testid="scramble-word"
          data-word={word}
          aria-pressed={game.chosen.includes(i)}
          disabled={over || game.chosen.includes(i)}
          onClick={() => onChoose(i)}
        >
          {word}
        </button>
      ))}
    </fieldset>
  );
}

/** "Say it" and "Take back the last word", both idle while no word is chosen. */
function ScrambleButtons(props: { said: readonly string[]; onSubmit: () => void; onUndo: () => void }) {
  return (
    <>
      <button
        type="button"
        class="primary"
        data-testid="scramble-submit"
        disabled={props.said.length === 0}
        onClick={props.onSubmit}
      >
        Say it
      </button>
      <button
        type="button"
        data-testid="scramble-undo"
        disabled={props.said.length === 0}
        onClick={props.onUndo}
      >
        Take back the last word
      </button>
    </>
  );
}
