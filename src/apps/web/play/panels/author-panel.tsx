// Author mode (the session owner, on a server with author mode on): what happened in a turn (turn-trace.tsx:
// tool calls with arguments and results, dice rolls, notes, the state diff, the prompt sections with token
// counts and why each was included, token use and latency per role) and a console to run any event on the
// state (event-console.tsx).
import { useEffect, useState } from 'preact/hooks';
import type { SessionRecord } from '../../../../engine/session/index.ts';
import { useClient } from '../../app/context.ts';
import { PlayApi } from '../play-api.ts';
import { EventConsole } from './event-console.tsx';
import { TurnTrace } from './turn-trace.tsx';

export function AuthorPanel(props: { sessionId: string; turnId: string; onCommitted: () => void }) {
  const api = useClient(PlayApi);
  const [record, setRecord] = useState<SessionRecord | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let cancelled = false;
    setRecord(null);
    api
      .turn(props.sessionId, props.turnId, 'full')
      .then((t) => {
        if (cancelled) return;
        if (t.record === undefined)
          setError('Author mode is off on this server: start it with author mode to see turn traces.');
        else setRecord(t.record as SessionRecord);
      })
      .catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [props.sessionId, props.turnId]);
  return (
    <section aria-label="Author mode" data-testid="author-panel">
      <h2>Last turn</h2>
      {error ? <p class="error">{error}</p> : null}
      {record ? <TurnTrace record={record} /> : error ? null : <p class="muted">Loading…</p>}
      <EventConsole {...props} />
    </section>
  );
}
