// Named saves: bookmarks of turns. Loading one moves the head to its turn.
import { useEffect, useState } from 'preact/hooks';
import { MAX_NAME_LENGTH } from '../../../../adapters/store/limits.ts';
import type { SaveView } from '../../../contract/index.ts';
import { useClient } from '../../app/context.ts';
import { PlayApi } from '../play-api.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';

export function SavesPanel(props: {
  sessionId: string;
  headId: string;
  disabled: boolean;
  onLoad: (turnId: string) => void;
}) {
  const api = useClient(PlayApi);
  const [saves, setSaves] = useState<readonly SaveView[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const refresh = (): void => {
    api
      .saves(props.sessionId)
      .then(setSaves)
      .catch((e: Error) => setError(e.message));
  };
  useEffect(refresh, [props.sessionId]);
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    try {
      await api.createSave(props.sessionId, trimmed, props.headId);
      setName('');
      setError('');
      refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-label="Saves">
      <form class="row" onSubmit={save}>
        <label style={{ flex: 1 }}>
          Save name
          <input
            data-testid="save-name"
            value={name}
            maxLength={MAX_NAME_LENGTH}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={!name.trim()} data-testid="save-submit">
          Save here
        </button>
      </form>
      <ErrorAlert text={error} />
      <ul class="list-plain" data-testid="save-list">
        {saves.map((s) => (
          <li key={s.id}>
            <span style={{ flex: 1 }}>{s.name}</span>
            <button
              type="button"
              disabled={props.disabled || s.turnId === props.headId}
              data-testid="save-load"
              aria-label={`Load ${s.name}`}
              onClick={() => props.onLoad(s.turnId)}
            >
              Load
            </button>
            <button
              type="button"
              aria-label={`Delete ${s.name}`}
              onClick={async () => {
                await api.deleteSave(props.sessionId, s.id).catch((e: Error) => setError(e.message));
                refresh();
              }}
            >
              Delete
            </button>
          </li>
        ))}
        {saves.length === 0 ? <li class="muted">No saves yet.</li> : null}
      </ul>
    </section>
  );
}
