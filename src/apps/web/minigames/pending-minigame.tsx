// The mini-game a turn left pending, under the story: opened in view with the keyboard focus on it, or a
// way to skip one this client cannot play.
import type { ComponentType } from 'preact';
import * as z from 'zod/mini';
import { useEffect, useRef } from 'preact/hooks';
import type { TurnView } from '../../contract/index.ts';
import type { InteractionBody } from './interaction.ts';
import { ArticulationScramble } from './articulation-scramble-view.tsx';
import { LightsOut } from './lights-out-view.tsx';
import { ReflexDial } from './reflex-dial-view.tsx';

export interface Pending {
  readonly minigameId: string;
  readonly config: unknown;
}

/** The mini-games this client can play, by id (a Map: the id comes from the cartridge). */
const MINIGAME_VIEWS: ReadonlyMap<
  string,
  ComponentType<{ config: unknown; onResult: (result: InteractionBody) => void }>
> = new Map([
  ['lights_out', LightsOut],
  ['articulation_scramble', ArticulationScramble],
  ['reflex_dial', ReflexDial],
]);

/** A pending interaction this client can open: one that names its mini-game (the contract keeps it open). */
const minigamePending = z.object({ minigame_id: z.string(), config: z.unknown() });

/** The mini-game the head turn waits for, if any. */
export function pendingOf(turn: TurnView | null): Pending | null {
  const pending = z.safeParse(minigamePending, turn?.pendingInteraction);
  return pending.success ? { minigameId: pending.data.minigame_id, config: pending.data.config } : null;
}

export function PendingMinigame(props: {
  pending: Pending | null;
  running: boolean;
  /** The head turn: a new one with a mini-game takes the focus again. */
  headId: string | undefined;
  onResult: (interaction: InteractionBody) => void;
}) {
  const { pending, running } = props;
  const game = useRef<HTMLDivElement>(null);
  const GameView = pending ? MINIGAME_VIEWS.get(pending.minigameId) : undefined;
  // A mini-game opens in view and takes the keyboard, so the player does not have to look for it.
  useEffect(() => {
    if (!pending || running) return;
    const box = game.current;
    box?.scrollIntoView?.({ block: 'center' });
    const first = box?.querySelector<HTMLElement>('[tabindex="0"], button:not([disabled]), input');
    first?.focus();
  }, [pending?.minigameId, running, props.headId]);
  return (
    <div ref={game} class="minigame-wrap" data-testid="minigame-wrap">
      {pending && !running ? (
        GameView ? (
          <GameView config={pending.config} onResult={props.onResult} />
        ) : (
          <div class="notice" role="alert">
            This game needs the mini-game “{pending.minigameId}”, which this client does not have.{' '}
            <button
              type="button"
              onClick={() => props.onResult({ minigame_id: pending.minigameId, status: 'aborted' })}
            >
              Skip it
            </button>
          </div>
        )
      ) : null}
    </div>
  );
}
