// Named saves: bookmarks of turns. Loading one moves the head to its turn.
import { useEffect, useState } from 'preact/hooks';
import { MAX_NAME_LENGTH } from '../../../../adapters/store/limits.ts';
import type { SaveView } from '../../../contract/index.ts';
import { useClient } from '../../app/context.ts';
import { PlayApi } from '../play-api.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';

/** The session's saves as last read, and `save` / `remove`, each of which re-reads them. */
function useSaves(sessionId: string, headId: string) {
  const api = useClient(PlayApi);
  const [saves, setSaves] = useState<readonly SaveView[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const refresh = (): void => {
    api
      .saves(sessionId)
      .then(setSaves)
      .catch((e: Error) => setError(e.message));
  };
  useEffect(refresh, [sessionId]);
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    try {
      await api.createSave(sessionId, trimmed, headId);
      setName('');
      setError('');
      refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const remove = async (save: SaveView): Promise<void> => {
    await api.deleteSave(sessionId, save.id).catch((e: Error) => setError(e.message));
    refresh();
  };
  return { saves, name, setName, error, save, remove };
}

export function SavesPanel(props: {
  sessionId: string;
  headId: string;
  disabled: boolean;
  onLoad: (turnId: string) => void;
}) {
  const { saves, name, setName, error, save, remove } = useSaves(props.sessionId, props.headId);
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
          <SaveItem
            key={s.id}
            save={s}
            canLoad={!props.disabled && s.turnId !== props.headId}
            onLoad={() => props.onLoad(s.turnId)}
            onDelete={() => void remove(s)}
          />
        ))}
        {saves.length === 0 ? <li class="muted">No saves yet.</li> : null}
      </ul>
    </section>
  );
}

function SaveItem(props: { save: SaveView; canLoad: boolean; onLoad: () => void; onDelete: () => void }) {
  const { save } = props;
  return (
    <li>
      <span style={{ flex: 1 }}>{save.name}</span>
      <button
        type="button"
        disabled={!props.canLoad}
        data-testid="save-load"
        aria-label={`Load ${save.name}`}
        onClick={props.onLoad}
      >
        Load
      </button>
      <button type="button" aria-label={`Delete ${save.name}`} onClick={props.onDelete}>
        Delete
      </button>
    </li>
  );
}
