// The play screen's toolbar: undo, regenerate, stop, the in-game clock and the persona chooser.
import { useEffect, useState } from 'preact/hooks';
import type { PersonaView, SessionView, TurnView } from '../../contract/index.ts';
import { failureText } from '../lib/errors.ts';
import { useClient } from '../app/context.ts';
import { PersonasApi } from '../personas/personas-api.ts';
import { PlayApi } from './play-api.ts';
import { PersonIcon, RegenerateIcon, UndoIcon } from '../ui/icons.tsx';

export function TurnToolbar(props: {
  session: SessionView | null;
  head: TurnView | null;
  running: boolean;
  /** A turn is streaming: Stop is offered. */
  live: boolean;
  /** Undo and Regenerate are offered (at a shared table, to its owner and game masters only). */
  steers: boolean;
  onUndo: () => void;
  onRegenerate: () => void;
  onStop: () => void;
  onPersonaChanged: () => void;
}) {
  const { session, head, running } = props;
  return (
    <div class="toolbar" role="toolbar" aria-label="Turn controls">
      <h1 class="visually-hidden">{session?.title ?? 'Game'}</h1>
      {props.steers ? (
        <SteeringButtons
          head={head}
          running={running}
          onUndo={props.onUndo}
          onRegenerate={props.onRegenerate}
        />
      ) : null}
      {props.live ? (
        <button type="button" onClick={props.onStop} data-testid="stop">
          Stop
        </button>
      ) : null}
      <GameTime state={head?.state} />
      {session ? (
        <PersonaChooser session={session} disabled={running} onChanged={props.onPersonaChanged} />
      ) : null}
    </div>
  );
}

/** Undo and Regenerate: both need a turn before the head; Regenerate, a turn the player played. */
function SteeringButtons(props: {
  head: TurnView | null;
  running: boolean;
  onUndo: () => void;
  onRegenerate: () => void;
}) {
  const { head, running } = props;
  return (
    <>
      <button
        type="button"
        onClick={props.onUndo}
        disabled={running || !head?.parentId}
        data-testid="undo"
        aria-label="Undo"
      >
        <UndoIcon /> <span class="tool-label">Undo</span>
      </button>
      <button
        type="button"
        onClick={props.onRegenerate}
        disabled={running || !head?.parentId || head.input === null}
        data-testid="regenerate"
        aria-label="Regenerate"
      >
        <RegenerateIcon /> <span class="tool-label">Regenerate</span>
      </button>
    </>
  );
}

function GameTime({ state }: { state: TurnView['state'] | undefined }) {
  // The cartridge's own field: whatever the rules keep there, shown only when it is a time.
  const time = state?.game_time;
  if (typeof time !== 'string' || time === '') return null;
  const date = new Date(`${time}Z`);
  const shown = Number.isNaN(date.getTime())
    ? time
    : `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return (
    <span class="muted" style={{ marginLeft: 'auto' }} data-testid="game-time" title="Game time">
      <span class="tool-label">Game time: </span>
      {shown}
    </span>
  );
}

/** Who the player plays in this game; a change applies from the next turn on. */
function PersonaChooser(props: { session: SessionView; disabled: boolean; onChanged: () => void }) {
  const personasApi = useClient(PersonasApi);
  const api = useClient(PlayApi);
  const [personas, setPersonas] = useState<readonly PersonaView[]>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    personasApi
      .list()
      .then(setPersonas)
      .catch((err: unknown) => setProblem(`personas could not be loaded: ${failureText(err)}`));
  }, [props.session.id]);
  return (
    <label class="persona-chooser">
      <PersonIcon /> <span class="visually-hidden">Playing as</span>
      <select
        data-testid="play-persona"
        value={props.session.personaId ?? ''}
        disabled={props.disabled}
        onChange={async (e) => {
          const value = (e.currentTarget as HTMLSelectElement).value;
          try {
            await api.setSessionPersona(props.session.id, value === '' ? null : value);
            setProblem('');
            props.onChanged();
          } catch (err) {
            setProblem(failureText(err));
          }
        }}
      >
        <option value="">No persona</option>
        {personas.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {problem ? (
        <span class="error" role="alert">
          {problem}
        </span>
      ) : null}
    </label>
  );
}
