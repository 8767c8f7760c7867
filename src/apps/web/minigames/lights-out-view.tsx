// The `lights_out` mini-game, driven by the pending interaction's config. Keyboard: Tab reaches the grid,
// arrow keys move between lamps, Enter or Space presses one. The result is sent as an interaction turn.
import { useRef, useState } from 'preact/hooks';
import type { InteractionBody } from './interaction.ts';
import {
  abortLightsOut,
  isNearMiss,
  type LightsOutGame,
  lightsOutHooks,
  lightsOutMetrics,
  litCount,
  newLightsOut,
  pressLamp,
  readLightsOutConfig,
} from '../../../core/minigames/index.ts';
import type { LightsOutConfig } from '../../../core/minigames/index.ts';
import { LampIcon } from '../ui/icons.tsx';
import { CheckedSettings, GameActions, reportGameResult } from './minigame-parts.tsx';

const ID = 'lights_out';

/** The lamp an arrow key moves to from `index` on a `size`-wide board (it stops at the edges); -1 for another key. */
function lampAfterKey(key: string, index: number, size: number): number {
  const row = Math.floor(index / size);
  const col = index % size;
  switch (key) {
    case 'ArrowRight':
      return row * size + Math.min(size - 1, col + 1);
    case 'ArrowLeft':
      return row * size + Math.max(0, col - 1);
    case 'ArrowDown':
      return Math.min(size - 1, row + 1) * size + col;
    case 'ArrowUp':
      return Math.max(0, row - 1) * size + col;
    default:
      return -1;
  }
}

export function LightsOut({
  config,
  onResult,
}: {
  config: unknown;
  onResult: (result: InteractionBody) => void;
}) {
  return (
    <CheckedSettings
      title="Lights out"
      minigameId={ID}
      config={config}
      read={readLightsOutConfig}
      onResult={onResult}
      play={(checked) => <LightsOutPlay config={checked} onResult={onResult} />}
    />
  );
}

function LightsOutPlay({
  config,
  onResult,
}: {
  config: LightsOutConfig;
  onResult: (result: InteractionBody) => void;
}) {
  const [game, setGame] = useState<LightsOutGame>(() => newLightsOut(config, Math.random));
  const finish = (final: LightsOutGame): void => {
    reportGameResult(onResult, ID, final.status, lightsOutMetrics(final), lightsOutHooks(final));
  };
  const over = game.status !== 'playing';
  return (
    <section
      class="minigame"
      aria-label="Mini-game: lights out"
      data-testid="minigame"
      data-status={game.status}
    >
      <h2>Lights out</h2>
      <p>
        Put out every lamp. Pressing a lamp flips it and its neighbours.{' '}
        <span class="muted">(arrow keys move, Enter presses)</span>
      </p>
      <LightsOutStatus game={game} />
      <LampGrid game={game} onPress={(index) => setGame(pressLamp(game, index))} />
      <GameActions
        over={over}
        onContinue={() => finish(game)}
        onGiveUp={() => {
          const stopped = abortLightsOut(game);
          setGame(stopped);
          finish(stopped);
        }}
      />
    </section>
  );
}

/** Lamps left and moves left while playing; the outcome (and the near-miss line) once over. */
function LightsOutStatus({ game }: { game: LightsOutGame }) {
  const left = litCount(game.board);
  return (
    <p role="status" data-testid="minigame-status">
      {game.status === 'playing' ? `${left} lit · ${game.config.maxMoves - game.movesMade} moves left` : null}
      {game.status === 'completed' ? `All dark in ${game.movesMade} moves!` : null}
      {game.status === 'failed'
        ? `Out of moves with ${left} still lit.${isNearMiss(game) && game.config.hooks.on_near_miss ? ` ${game.config.hooks.on_near_miss}` : ''}`
        : null}
    </p>
  );
}

/** The board as a roving-tabindex grid: one lamp is in the tab order, arrow keys move it. */
function LampGrid({ game, onPress }: { game: LightsOutGame; onPress: (index: number) => void }) {
  const [focus, setFocus] = useState(0);
  const grid = useRef<HTMLFieldSetElement>(null);
  const size = game.config.gridSize;
  const over = game.status !== 'playing';
  const onKey = (e: KeyboardEvent, index: number): void => {
    const target = lampAfterKey(e.key, index, size);
    if (target < 0) return;
    e.preventDefault();
    setFocus(target);
    (grid.current?.querySelectorAll('button')[target] as HTMLButtonElement | undefined)?.focus();
  };
  return (
    <fieldset
      class="lights"
      ref={grid}
      data-testid="lamps"
      data-size={size}
      style={{ gridTemplateColumns: `repeat(${size}, 1fr)` }}
    >
      <legend class="visually-hidden">
        Lamps, {size} by {size}
      </legend>
      {game.board.map((lit, i) => (
        <button
          key={i}
          type="button"
          aria-pressed={lit}
          aria-label={`Lamp row ${Math.floor(i / size) + 1} column ${(i % size) + 1}, ${lit ? 'lit' : 'dark'}`}
          tabIndex={i === focus ? 0 : -1}
          disabled={over}
          data-testid="lamp"
          onClick={() => {
            setFocus(i);
            onPress(i);
          }}
          onKeyDown={(e) => onKey(e, i)}
        >
          <LampIcon lit={lit} />
        </button>
      ))}
    </fieldset>
  );
}
