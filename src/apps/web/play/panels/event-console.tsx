// Author mode's event console: any rule event run with inputs on a turn's state, as a dry run or kept as a
// turn. It offers the cartridge's events (internal ones marked), says the chosen one's inputs and their
// values, and fills the inputs in with each one's default or first value.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AuthorEventResult, AuthorEventsView } from '../../../contract/index.ts';
import { MAX_TOOL_ARGS_CHARS } from '../../../../engine/turn/browser.ts';
import { isRecord } from '../../../../core/is-record.ts';
import { useClient } from '../../app/context.ts';
import { Checkbox } from '../../ui/checkbox.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Notes, Rolls } from '../../ui/rolls-and-notes.tsx';
import { PlayApi } from '../play-api.ts';
import { json } from './turn-trace.tsx';

type AuthorEvent = AuthorEventsView['events'][number];

/** A starting point for an event's inputs: each one's default, else its first allowed value. */
export function inputsSkeleton(event: AuthorEvent): string {
  if (event.inputs.length === 0) return '{}';
  const skeleton: Record<string, unknown> = {};
  for (const input of event.inputs) skeleton[input.name] = input.default ?? input.enum?.[0] ?? null;
  return JSON.stringify(skeleton);
}

/** The session's events for the console (without the list the field still takes a name typed by hand). */
function useAuthorEvents(api: PlayApi, sessionId: string): readonly AuthorEvent[] {
  const [events, setEvents] = useState<readonly AuthorEvent[]>([]);
  useEffect(() => {
    let live = true;
    api
      .authorEvents(sessionId)
      .then((list) => {
        if (live) setEvents(list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sessionId]);
  return events;
}

export function EventConsole(props: { sessionId: string; turnId: string; onCommitted: () => void }) {
  const api = useClient(PlayApi);
  const [event, setEvent] = useState('');
  const [inputs, setInputs] = useState('{}');
  const [seed, setSeed] = useState('');
  const [commit, setCommit] = useState(false);
  const [result, setResult] = useState<AuthorEventResult | null>(null);
  const [error, setError] = useState('');
  const events = useAuthorEvents(api, props.sessionId);
  /** The inputs are the skeleton filled in for the chosen event (replaced when another is chosen). */
  const inputsPrefilled = useRef(false);
  const chosen = events.find((ev) => ev.name === event.trim());
  const choose = (name: string): void => {
    setEvent(name);
    const picked = events.find((ev) => ev.name === name);
    if (picked !== undefined && (inputs.trim() === '' || inputs.trim() === '{}' || inputsPrefilled.current)) {
      inputsPrefilled.current = true;
      setInputs(inputsSkeleton(picked));
    }
  };
  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    setResult(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputs || '{}');
    } catch (err) {
      setError(`inputs: not JSON (${(err as Error).message})`);
      return;
    }
    if (!isRecord(parsed)) {
      setError('inputs: must be a JSON object, like {"target": "bog lurcher"}');
      return;
    }
    try {
      const out = await api.runEvent(props.sessionId, {
        event: event.trim(),
        inputs: parsed,
        parentId: props.turnId,
        commit,
        ...(seed.trim() === '' ? {} : { seed: Number(seed) }),
      });
      setResult(out);
      if (commit) props.onCommitted();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form
      onSubmit={run}
      style={{ display: 'grid', gap: '0.5rem', marginTop: '1rem' }}
      aria-label="Event console"
    >
      <h2>Event console</h2>
      <label>
        Event
        <input
          data-testid="console-event"
          list="console-events"
          value={event}
          onInput={(e) => choose((e.currentTarget as HTMLInputElement).value)}
          required
        />
      </label>
      <datalist id="console-events" data-testid="console-events">
        {events.map((ev) => (
          <option key={ev.name} value={ev.name}>
            {ev.internal ? `${ev.description} (internal)` : ev.description}
          </option>
        ))}
      </datalist>
      {chosen !== undefined ? <EventHelp event={chosen} /> : null}
      <label>
        Inputs (JSON)
        <textarea
          rows={3}
          maxLength={MAX_TOOL_ARGS_CHARS}
          value={inputs}
          onInput={(e) => {
            inputsPrefilled.current = false;
            setInputs((e.currentTarget as HTMLTextAreaElement).value);
          }}
        />
      </label>
      <div class="row">
        <label>
          Seed (optional)
          <input
            inputMode="numeric"
            value={seed}
            onInput={(e) => setSeed((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <Checkbox label="keep the result as a turn" checked={commit} onChange={setCommit} />
        <button type="submit" data-testid="console-run" disabled={!event.trim()}>
          Run
        </button>
      </div>
      <ErrorAlert text={error} />
      {result ? <ConsoleResult result={result} /> : null}
    </form>
  );
}

/** What the chosen event does and the values of its inputs. */
function EventHelp({ event: chosen }: { event: AuthorEvent }) {
  return (
    <p class="muted" data-testid="console-event-help">
      {chosen.description}
      {chosen.inputs.length > 0
        ? ` Inputs: ${chosen.inputs
            .map((i) =>
              i.enum === null ? i.name : `${i.name} (${i.enum.map((v) => JSON.stringify(v)).join(', ')})`,
            )
            .join('; ')}.`
        : ' No inputs.'}
    </p>
  );
}

/** A run's dice, notes and the state after it. */
function ConsoleResult({ result }: { result: AuthorEventResult }) {
  return (
    <div data-testid="console-result">
      <Rolls rolls={result.record.rolls as never} />
      <Notes notes={result.record.notes} />
      <details>
        <summary>State after</summary>
        <pre class="json">{json(result.record.stateAfter)}</pre>
      </details>
    </div>
  );
}
