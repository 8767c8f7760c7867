// The world panel: what the ledger knows at the head turn (scene, who is present and what they carry,
// open threads, known facts) and, on request, one entity's history.
import { useEffect, useState } from 'preact/hooks';
import { entityHistory } from '../../../../core/ledger/index.ts';
import type { LedgerRow } from '../../../contract/index.ts';
import type { LogEntry } from '../../../../core/ledger/index.ts';
import { logOf, worldPanel, type WorldPanel as Model } from './world-view.ts';
import { useApp, useClient } from '../../app/context.ts';
import { PlayApi } from '../play-api.ts';

/** The world at a turn, read when the turn changes (a late answer for another turn is dropped). */
function useWorld(sessionId: string, turnId: string) {
  const api = useClient(PlayApi);
  const [model, setModel] = useState<Model | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let cancelled = false;
    api
      .world(sessionId, turnId)
      .then((w) => !cancelled && setModel(worldPanel(w.world)))
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [sessionId, turnId]);
  return { model, error };
}

export function WorldPanel({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const { info } = useApp();
  const { model, error } = useWorld(sessionId, turnId);
  if (error) return <p class="error">{error}</p>;
  if (!model) return <p class="muted">Loading the world…</p>;
  const empty = !model.scene && model.present.length === 0 && model.facts.length === 0;
  return (
    <section aria-label="World" data-testid="world-panel">
      {info.modelMode === 'offline' && empty ? (
        <p class="muted" data-testid="world-offline">
          Offline, nothing fills this panel: the Narrator model records who and what exists as the story goes,
          and no model is configured. The rules' state is in the State tab.
        </p>
      ) : null}
      <SceneAndPresent model={model} />
      <ThreadsAndFacts model={model} />
      {model.entities.length > 0 ? (
        <EntityHistory sessionId={sessionId} turnId={turnId} entities={model.entities} />
      ) : null}
    </section>
  );
}

/** Where the story is, and who is present with what they carry. */
function SceneAndPresent({ model }: { model: Model }) {
  return (
    <>
      <h3>Scene</h3>
      {model.scene ? (
        <p>
          {model.scene.location ? <strong>{model.scene.location}. </strong> : null}
          {model.scene.summary ?? ''}
        </p>
      ) : (
        <p class="muted">No scene recorded yet.</p>
      )}
      <h3>Present</h3>
      {model.present.length === 0 ? <p class="muted">Nobody recorded.</p> : null}
      <ul>
        {model.present.map((e) => (
          <li key={e.key}>
            <strong>{e.name}</strong>
            {e.status ? ` — ${e.status}` : ''}
            {e.conditions.length > 0 ? ` (${e.conditions.join(', ')})` : ''}
            {e.carries.length > 0 ? <div class="muted">carries: {e.carries.join(', ')}</div> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The open threads and the known facts (the rest counted). */
function ThreadsAndFacts({ model }: { model: Model }) {
  return (
    <>
      <h3>Open threads</h3>
      {model.threads.length === 0 ? <p class="muted">None.</p> : null}
      <ul>
        {model.threads.map((t) => (
          <li key={t.key}>
            <strong>{t.title}</strong>
            {t.description ? ` — ${t.description}` : ''}
          </li>
        ))}
      </ul>
      <h3>Known facts</h3>
      {model.facts.length === 0 ? <p class="muted">None.</p> : null}
      <ul>
        {model.facts.map((f, i) => (
          <li key={i}>{f}</li>
        ))}
        {model.more.facts > 0 ? <li class="muted">… {model.more.facts} more</li> : null}
      </ul>
    </>
  );
}

/** The history of one entity of the world: every ledger event that names it, turn by turn. */
function EntityHistory(props: { sessionId: string; turnId: string; entities: Model['entities'] }) {
  const api = useClient(PlayApi);
  const [entity, setEntity] = useState('');
  const [log, setLog] = useState<LogEntry[] | null>(null);
  const [historyError, setHistoryError] = useState('');
  useEffect(() => {
    if (!entity) return;
    api
      .ledger(props.sessionId, props.turnId)
      .then((rows: readonly LedgerRow[]) => setLog(logOf(rows)))
      .catch((e: Error) => setHistoryError(e.message));
  }, [entity, props.turnId]);
  const history = entity && log ? entityHistory(log, entity) : [];
  return (
    <>
      <h3>History of…</h3>
      <select aria-label="Entity" value={entity} onChange={(e) => setEntity(e.currentTarget.value)}>
        <option value="">(choose someone or something)</option>
        {props.entities.map((e) => (
          <option key={e.key} value={e.key}>
            {e.name}
          </option>
        ))}
      </select>
      {historyError ? <p class="error">{historyError}</p> : null}
      {entity && log ? (
        <ol data-testid="entity-history">
          {history.length === 0 ? <li class="muted">Nothing recorded about them yet.</li> : null}
          {history.map((h, i) => (
            <li key={i}>
              turn {h.turn}: <code>{h.event.type}</code> {JSON.stringify({ ...h.event, type: undefined })}
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}
