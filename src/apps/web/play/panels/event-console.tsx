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

/** The inputs field read as a JSON object, or the error to show. */
function parseConsoleInputs(
  text: string,
):
  | { readonly ok: true; readonly inputs: Record<string, unknown> }
  | { readonly ok: false; readonly error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || '{}');
  } catch (err) {
    return { ok: false, error: `inputs: not JSON (${(err as Error).message})` };
  }
  if (!isRecord(parsed))
    return { ok: false, error: 'inputs: must be a JSON object, like {"target": "bog lurcher"}' };
  return { ok: true, inputs: parsed };
}

/** The console's form state: the event and its inputs (prefilled on choosing), seed, commit, result, error. */
function useEventConsole(props: { sessionId: string; turnId: string; onCommitted: () => void }) {
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
  const choose = (name: string): void => {
    setEvent(name);
    const picked = events.find((ev) => ev.name === name);
    if (picked !== undefined && (inputs.trim() === '' || inputs.trim() === '{}' || inputsPrefilled.current)) {
      inputsPrefilled.current = true;
      setInputs(inputsSkeleton(picked));
    }
  };
  const typeInputs = (text: string): void => {
    inputsPrefilled.current = false;
    setInputs(text);
  };
  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    setResult(null);
    const parsed = parseConsoleInputs(inputs);
    if (!parsed.ok) return setError(parsed.error);
    try {
      const out = await api.runEvent(props.sessionId, {
        event: event.trim(),
        inputs: parsed.inputs,
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
  return { events, event, choose, inputs, typeInputs, seed, setSeed, commit, setCommit, result, error, run };
}

export function EventConsole(props: { sessionId: string; turnId: string; onCommitted: () => void }) {
  const c = useEventConsole(props);
  const chosen = c.events.find((ev) => ev.name === c.event.trim());
  return (
    <form
      onSubmit={c.run}
      style={{ display: 'grid', gap: '0.5rem', marginTop: '1rem' }}
      aria-label="Event console"
    >
      <h2>Event console</h2>
      <EventPicker events={c.events} event={c.event} onChoose={c.choose} />
      {chosen !== undefined ? <EventHelp event={chosen} /> : null}
      <label>
        Inputs (JSON)
        <textarea
          rows={3}
          maxLength={MAX_TOOL_ARGS_CHARS}
          value={c.inputs}
          onInput={(e) => c.typeInputs((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="row">
        <label>
          Seed (optional)
          <input
            inputMode="numeric"
            value={c.seed}
            onInput={(e) => c.setSeed((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <Checkbox label="keep the result as a turn" checked={c.commit} onChange={c.setCommit} />
        <button type="submit" data-testid="console-run" disabled={!c.event.trim()}>
          Run
        </button>
      </div>
      <ErrorAlert text={c.error} />
      {c.result ? <ConsoleResult result={c.result} /> : null}
    </form>
  );
}

/** The event field, offering the cartridge's events (internal ones marked). */
function EventPicker(props: {
  events: readonly AuthorEvent[];
  event: string;
  onChoose: (name: string) => void;
}) {
  return (
    <>
      <label>
        Event
        <input
          data-testid="console-event"
          list="console-events"
          value={props.event}
          onInput={(e) => props.onChoose((e.currentTarget as HTMLInputElement).value)}
          required
        />
      </label>
      <datalist id="console-events" data-testid="console-events">
        {props.events.map((ev) => (
          <option key={ev.name} value={ev.name}>
            {ev.internal ? `${ev.description} (internal)` : ev.description}
          </option>
        ))}
      </datalist>
    </>
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
