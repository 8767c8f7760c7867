// What the web mini-games (lights out, articulation scramble, reflex dial) share: how a finished game is
// reported to the server, the buttons under a game, and the panel shown when a cartridge's settings for
// one cannot be used.

import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { ReadConfig } from '../../../core/minigames/index.ts';
import type { InteractionBody } from './interaction.ts';

/** Reports a game that ended (or was left while still playing: aborted) with its metrics and hooks. */
export function reportGameResult(
  onResult: (result: InteractionBody) => void,
  minigameId: string,
  status: 'playing' | InteractionBody['status'],
  metrics: NonNullable<InteractionBody['metrics']>,
  hooks: readonly string[],
): void {
  onResult({
    minigame_id: minigameId,
    status: status === 'playing' ? 'aborted' : status,
    metrics,
    // The original sent the metrics again as `minigame_specific_data`; resolvers read either.
    data: { ...metrics, triggered_hooks: hooks },
  });
}

/** The panel for settings that failed their manifest's check: the problems, and a way out. */
export function UnusableSettings(props: {
  readonly title: string;
  readonly minigameId: string;
  readonly errors: readonly string[];
  readonly onResult: (result: InteractionBody) => void;
}) {
  return (
    <section class="minigame" aria-label={`Mini-game: ${props.title.toLowerCase()}`} data-testid="minigame">
      <h2>{props.title}</h2>
      <p class="error">The cartridge's mini-game settings are not usable:</p>
      <ul class="problems">
        {props.errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => props.onResult({ minigame_id: props.minigameId, status: 'aborted' })}
      >
        Give up
      </button>
    </section>
  );
}

/**
 * The buttons under a game: while it is played, the game's own (`children`) and "Give up"; once it is over,
 * "Continue the story", which sends the result.
 */
export function GameActions(props: {
  readonly over: boolean;
  readonly onContinue: () => void;
  readonly onGiveUp: () => void;
  readonly children?: ComponentChildren;
}) {
  return (
    <div class="toolbar">
      {props.over ? (
        <button type="button" class="primary" data-testid="minigame-send" onClick={props.onContinue}>
          Continue the story
        </button>
      ) : (
        <>
          {props.children}
          <button type="button" data-testid="minigame-abort" onClick={props.onGiveUp}>
            Give up
          </button>
        </>
      )}
    </div>
  );
}

/**
 * A mini-game's settings read by its manifest's check: the game (`play`) when they are usable, else the
 * panel that lists what is wrong. The check runs again only when the settings change.
 */
export function CheckedSettings<C>(props: {
  readonly title: string;
  readonly minigameId: string;
  readonly config: unknown;
  readonly read: (config: unknown) => ReadConfig<C>;
  readonly onResult: (result: InteractionBody) => void;
  readonly play: (config: C) => ComponentChildren;
}) {
  const checked = useMemo(() => props.read(props.config), [props.config]);
  if (!checked.ok) {
    return (
      <UnusableSettings
        title={props.title}
        minigameId={props.minigameId}
        errors={checked.errors}
        onResult={props.onResult}
      />
    );
  }
  return <>{props.play(checked.config)}</>;
}
