// Author mode (the session owner, on a server with author mode on): what happened in a turn — tool calls
// with arguments and results, dice rolls, notes, the state diff, the prompt sections with token counts and
// why each was included, token use and latency per role — and a console to run any event on the state.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AuthorEventResult, AuthorEventsView } from '../../../contract/index.ts';
import type { SessionRecord } from '../../../../engine/session/index.ts';
import { MAX_TOOL_ARGS_CHARS } from '../../../../engine/turn/browser.ts';
import { Notes, Rolls } from '../../ui/rolls-and-notes.tsx';
import { isRecord } from '../../../../core/is-record.ts';
import { useClient } from '../../app/context.ts';
import { PlayApi } from '../play-api.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

function TurnTrace({ record }: { record: SessionRecord }) {
  switch (record.kind) {
    case 'genesis':
      return (
        <p data-testid="trace-genesis">
          The first message of {record.cartridge.name} (version {record.cartridge.contentHash.slice(0, 12)}),
          seed {record.seed}.
        </p>
      );
    case 'author-event':
      return (
        <div>
          <p>
            Event <code>{record.event}</code> run by hand, seed {record.seed}.
          </p>
          <Rolls rolls={record.rolls} />
          <Notes notes={record.notes} />
        </div>
      );
    case 'turn':
      return (
        <div>
          <p>
            {record.mode === 'offline' ? 'Offline turn' : 'Model turn'}, seed{' '}
            <span data-testid="trace-seed">{record.seed}</span>
            {record.time.advancedSeconds > 0 ? `, time ${record.time.before} → ${record.time.after}` : ''}.
          </p>
          {record.invariants !== undefined && record.invariants.length > 0 ? (
            <div class="alert" role="alert" data-testid="trace-invariants">
              <h3>Invariants broken</h3>
              <ul>
                {record.invariants.map((b, i) => (
                  <li key={i}>
                    <code>
                      {b.place.file}:{b.place.line}:{b.place.col}
                    </code>{' '}
                    {b.message}, after <code>{b.event}</code> (rule call {b.call})
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <h3>Tool calls</h3>
          {record.tools.length === 0 ? <p class="muted">None.</p> : null}
          {record.tools.map((t) => (
            <details key={t.id} data-testid="trace-tool">
              <summary>
                {t.ok ? '✔' : '✘'} round {t.round}: <code>{t.name}</code> ({Math.round(t.durationMs)} ms)
              </summary>
              <pre class="json">{json(t.args ?? t.rawArgs)}</pre>
              <pre class="json">{t.content}</pre>
            </details>
          ))}
          <Rolls rolls={record.rolls} />
          <Notes notes={record.notes} />
          <h3>State diff</h3>
          {record.delta.length === 0 ? <p class="muted">No change.</p> : null}
          <table class="data" data-testid="trace-delta">
            <tbody>
              {record.delta.map((d, i) => (
                <tr key={i}>
                  <td>
                    <code>{d.path.join('.')}</code>
                  </td>
                  <td>
                    {d.op === 'set'
                      ? `${JSON.stringify(d.before ?? null)} → ${JSON.stringify(d.after)}`
                      : `deleted (was ${JSON.stringify(d.before)})`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Prompts</h3>
          {record.prompts.length === 0 ? <p class="muted">No model was called.</p> : null}
          {record.prompts.map((p, i) => (
            <details key={i}>
              <summary>
                {p.role} call {p.call}: {p.tokens}/{p.budget} tokens
              </summary>
              <table class="data">
                <thead>
                  <tr>
                    <th>section</th>
                    <th>tokens</th>
                    <th>why</th>
                  </tr>
                </thead>
                <tbody>
                  {p.sections.flatMap((s) => [
                    <tr key={s.id} class={s.included ? '' : 'muted'}>
                      <td>
                        {s.included ? '' : '(left out) '}
                        {s.id}
                      </td>
                      <td>{s.tokens}</td>
                      <td>{s.reason}</td>
                    </tr>,
                    // The section's receipts: each piece (lore, World Info, fact, message), what became of it and why.
                    ...(s.items ?? []).map((item) => (
                      <tr
                        key={`${s.id}/${item.id}`}
                        class={item.status === 'included' ? 'receipt' : 'receipt muted'}
                        data-testid="prompt-receipt"
                      >
                        <td>
                          ↳ {item.status === 'included' ? '' : `(${item.status.replace('_', ' ')}) `}
                          {item.id}
                        </td>
                        <td>{item.tokens}</td>
                        <td>{item.why}</td>
                      </tr>
                    )),
                  ])}
                </tbody>
              </table>
            </details>
          ))}
          <h3>Usage and latency</h3>
          <table class="data" data-testid="trace-usage">
            <thead>
              <tr>
                <th>role</th>
                <th>model</th>
                <th>calls</th>
                <th>in</th>
                <th>out</th>
                <th>cached</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(record.usage).map(([role, u]) => (
                <tr key={role}>
                  <td>{role}</td>
                  <td>{record.models[role as keyof typeof record.models] ?? '—'}</td>
                  <td>{u.calls}</td>
                  <td>{u.inputTokens}</td>
                  <td>{u.outputTokens}</td>
                  <td>{u.cachedInputTokens}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">
            {Object.entries(record.timings)
              .map(([phase, ms]) => `${phase} ${Math.round(ms ?? 0)} ms`)
              .join(' · ')}
          </p>
          {record.fidelity !== undefined && record.fidelity.outcome !== 'clean' ? (
            <>
              <h3>Narration fidelity: {record.fidelity.outcome}</h3>
              <ul data-testid="trace-fidelity">
                {record.fidelity.found.map((c, i) => (
                  <li key={i}>
                    “{c.sentence}” says {c.said}; {c.fact}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {record.warnings.length > 0 ? (
            <>
              <h3>Warnings</h3>
              <ul>
                {record.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </>
          ) : null}
          <details>
            <summary>Scene directives</summary>
            <pre class="json">{record.directives}</pre>
          </details>
        </div>
      );
    default: {
      const unreachable: never = record;
      return <pre class="json">{json(unreachable)}</pre>;
    }
  }
}

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

function EventConsole(props: { sessionId: string; turnId: string; onCommitted: () => void }) {
  const api = useClient(PlayApi);
  const [event, setEvent] = useState('');
  const [inputs, setInputs] = useState('{}');
  const [seed, setSeed] = useState('');
  const [commit, setCommit] = useState(false);
  const [result, setResult] = useState<AuthorEventResult | null>(null);
  const [error, setError] = useState('');
  const [events, setEvents] = useState<AuthorEventsView['events']>([]);
  /** The inputs are the skeleton filled in for the chosen event (replaced when another is chosen). */
  const inputsPrefilled = useRef(false);
  useEffect(() => {
    let live = true;
    api
      .authorEvents(props.sessionId)
      .then((list) => {
        if (live) setEvents(list);
      })
      .catch(() => {
        // Without the list the field still takes a name typed by hand.
      });
    return () => {
      live = false;
    };
  }, [props.sessionId]);
  const chosen = events.find((ev) => ev.name === event.trim());
  const choose = (name: string): void => {
    setEvent(name);
    const picked = events.find((ev) => ev.name === name);
    // A starting point for the inputs: each one's default, else its first allowed value.
    if (picked !== undefined && (inputs.trim() === '' || inputs.trim() === '{}' || inputsPrefilled.current)) {
      const skeleton: Record<string, unknown> = {};
      for (const input of picked.inputs) skeleton[input.name] = input.default ?? input.enum?.[0] ?? null;
      const text = picked.inputs.length === 0 ? '{}' : JSON.stringify(skeleton);
      inputsPrefilled.current = true;
      setInputs(text);
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
      {chosen !== undefined ? (
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
      ) : null}
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
      {result ? (
        <div data-testid="console-result">
          <Rolls rolls={result.record.rolls as never} />
          <Notes notes={result.record.notes} />
          <details>
            <summary>State after</summary>
            <pre class="json">{json(result.record.stateAfter)}</pre>
          </details>
        </div>
      ) : null}
    </form>
  );
}
