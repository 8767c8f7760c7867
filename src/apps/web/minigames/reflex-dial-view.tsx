// The `reflex_dial` mini-game: a needle sweeps round a dial; stop it inside the gold zone. Keyboard: the
// named key (Space by default) stops the needle wherever the focus is in the game; the big button does the
// same for a pointer. Screen readers: a live region says "In the zone" and "Out of the zone" as the needle
// crosses its edges, so the game can be played by ear, and the tally is a status line. The logic is
// src/core/minigames/reflex-dial.ts; this is its face.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  abortDial,
  attemptsAllowed,
  type DialGame,
  dialHooks,
  dialMetrics,
  expectedKey,
  inZone,
  needleAngle,
  newDial,
  readDialConfig,
  stopNeedle,
} from '../../../core/minigames/index.ts';
import type { DialConfig } from '../../../core/minigames/index.ts';
import type { InteractionBody } from './interaction.ts';
import { CheckedSettings, GameActions, reportGameResult } from './minigame-parts.tsx';

const ID = 'reflex_dial';
const SIZE = 200;
const R = 80;

function point(angle: number, radius: number): [number, number] {
  // 0° points up and angles run clockwise, as on a clock face.
  const rad = ((angle - 90) * Math.PI) / 180;
  return [SIZE / 2 + radius * Math.cos(rad), SIZE / 2 + radius * Math.sin(rad)];
}

function arc(from: number, to: number): string {
  const [x1, y1] = point(from, R);
  const [x2, y2] = point(to, R);
  return `M ${SIZE / 2} ${SIZE / 2} L ${x1} ${y1} A ${R} ${R} 0 ${to - from > 180 ? 1 : 0} 1 ${x2} ${y2} Z`;
}

function keyName(key: string): string {
  return key === ' ' ? 'Space' : key.toUpperCase();
}

/** Whether a key press is an attempt: one printable key without modifiers, and not a button's own click. */
function isAttempt(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return false;
  // Space or Enter on a button is that button's click; everything else is an attempt.
  return !((e.key === ' ' || e.key === 'Enter') && (e.target as HTMLElement).tagName === 'BUTTON');
}

/** The game's state: the dial, the clock the needle is drawn at (one animation frame per tick while
 * playing), and `stop`, which reads the newest game so a key press between renders is not lost; `section` is the element given the focus. */
function useDialGame(config: DialConfig) {
  const [game, setGame] = useState<DialGame>(() => newDial(config, Math.random, performance.now()));
  const [now, setNow] = useState(() => performance.now());
  const gameRef = useRef(game);
  gameRef.current = game;

  useEffect(() => {
    if (game.status !== 'playing') return;
    let frame = requestAnimationFrame(function tick(at) {
      setNow(at);
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [game.status]);

  const stop = (key: string) => {
    const current = gameRef.current;
    if (current.status === 'playing') setGame(stopNeedle(current, performance.now(), key));
  };
  // The game takes the keyboard's focus as it opens, so the key works at once.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.focus();
  }, []);
  return { game, setGame, now, stop, section };
}

export function ReflexDial({
  config,
  onResult,
}: {
  config: unknown;
  onResult: (result: InteractionBody) => void;
}) {
  return (
    <CheckedSettings
      title="Reflex dial"
      minigameId={ID}
      config={config}
      read={readDialConfig}
      onResult={onResult}
      play={(checked) => <DialPlay config={checked} onResult={onResult} />}
    />
  );
}

function DialPlay({ config, onResult }: { config: DialConfig; onResult: (result: InteractionBody) => void }) {
  const { game, setGame, now, stop, section } = useDialGame(config);

  const finish = (final: DialGame): void =>
    reportGameResult(onResult, ID, final.status, dialMetrics(final), dialHooks(final));
  const over = game.status !== 'playing';
  const angle = over ? (game.last?.angle ?? 0) : needleAngle(game, now);
  const inside = !over && inZone(game, angle);
  const wanted = expectedKey(game);
  const onKeyDown = (e: KeyboardEvent) => {
    if (!over && isAttempt(e)) {
      e.preventDefault();
      stop(e.key);
    }
  };
  return (
    <section
      class="minigame"
      aria-label="Mini-game: reflex dial"
      data-testid="minigame"
      data-minigame={ID}
      data-status={game.status}
      data-in-zone={String(inside)}
      tabIndex={-1}
      ref={section}
      onKeyDown={onKeyDown}
    >
      <h2>Reflex dial</h2>
      <DialInstructions wanted={wanted} />
      <DialFace game={game} angle={angle} inside={inside} />
      <DialStatus game={game} inside={inside} />
      <GameActions
        over={over}
        onContinue={() => finish(game)}
        onGiveUp={() => {
          const stopped = abortDial(game);
          setGame(stopped);
          finish(stopped);
        }}
      >
        <button type="button" class="primary" data-testid="dial-stop" onClick={() => stop(wanted)}>
          Stop the needle
        </button>
      </GameActions>
    </section>
  );
}

function DialInstructions({ wanted }: { wanted: string }) {
  return (
    <p>
      Stop the needle inside the gold zone: press <kbd>{keyName(wanted)}</kbd>.{' '}
      <span class="muted">(Each hit moves the zone.)</span>
    </p>
  );
}

/** The dial drawn: its rim, the gold zone, and the needle at `angle` (gold while inside the zone). */
function DialFace({ game, angle, inside }: { game: DialGame; angle: number; inside: boolean }) {
  const [nx, ny] = point(angle, R + 6);
  return (
    <svg
      width={SIZE}
      height={SIZE}
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      role="img"
      aria-label={`Dial: zone from ${Math.round(game.zoneStart)} to ${Math.round(game.zoneStart + game.config.zoneWidth)} degrees`}
      style={{ display: 'block', margin: '0.5rem auto' }}
    >
      <circle cx={SIZE / 2} cy={SIZE / 2} r={R} fill="none" stroke="currentColor" stroke-width="2" />
      <path
        d={arc(game.zoneStart, game.zoneStart + game.config.zoneWidth)}
        fill="#e0b45c88"
        data-testid="dial-zone"
      />
      <line
        x1={SIZE / 2}
        y1={SIZE / 2}
        x2={nx}
        y2={ny}
        stroke={inside ? '#e0b45c' : 'currentColor'}
        stroke-width="4"
        stroke-linecap="round"
        data-testid="dial-needle"
      />
    </svg>
  );
}

/** The zone cue for screen readers and the tally line. */
function DialStatus({ game, inside }: { game: DialGame; inside: boolean }) {
  const over = game.status !== 'playing';
  const tally = `${game.hits} of ${game.config.requiredHits} hits · ${game.hits + game.misses} of ${attemptsAllowed(game.config)} attempts`;
  const lastText = game.last ? (game.last.hit ? 'Hit!' : 'Missed.') : '';
  return (
    <>
      {/* Announced on every crossing of the zone's edges, and nothing else: playable by ear. */}
      <p class="visually-hidden" aria-live="assertive" data-testid="dial-cue">
        {over ? '' : inside ? 'In the zone' : 'Out of the zone'}
      </p>
      <p role="status" data-testid="minigame-status">
        {lastText} {tally}
        {game.status === 'completed' ? ' — the dial gives way.' : ''}
        {game.status === 'failed' ? ' — out of attempts.' : ''}
      </p>
    </>
  );
}
