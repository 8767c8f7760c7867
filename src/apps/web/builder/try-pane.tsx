// The builder's "try it" pane: one event of the draft's rules on a chosen state with a seed (POST
// /v1/builder/try, as `mnesos run-event`): its notes, dice and state changes.
import { useState } from 'preact/hooks';
import type { TryView } from '../../contract/index.ts';
import type { BuilderApi, BuilderFiles } from './builder-api.ts';
import { jsonObjectField } from './draft-text.ts';
import { failureWithProblems } from '../lib/errors.ts';
import { Notes, Rolls } from '../ui/rolls-and-notes.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { NumberField } from '../ui/number-field.tsx';

/** The try form's fields, and `run`, which checks them and asks the server to run the event. */
function useTryEvent(api: BuilderApi, files: () => BuilderFiles) {
  const [event, setEvent] = useState('');
  const [inputs, setInputs] = useState('');
  const [state, setState] = useState('');
  const [seed, setSeed] = useState('1');
  const [result, setResult] = useState<TryView | undefined>();
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);

  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    const parsedInputs = jsonObjectField(inputs, 'inputs');
    const parsedState = jsonObjectField(state, 'state');
    const seedNumber = Number(seed);
    if (!parsedInputs.ok) return setError(parsedInputs.message);
    if (!parsedState.ok) return setError(parsedState.message);
    if (!Number.isInteger(seedNumber) || seedNumber < 0) return setError('seed: a whole number from 0');
    setRunning(true);
    try {
      setResult(
        await api.tryEvent({
          files: { ...files() },
          event: event.trim(),
          ...(parsedInputs.value ? { inputs: parsedInputs.value } : {}),
          ...(parsedState.value ? { state: parsedState.value } : {}),
          seed: seedNumber,
        }),
      );
    } catch (failure) {
      setResult(undefined);
      setError(failureWithProblems(failure));
    } finally {
      setRunning(false);
    }
  };
  const fields = { event, setEvent, inputs, setInputs, state, setState, seed, setSeed };
  return { ...fields, result, error, running, run };
}

export function TryPane({
  api,
  files,
  events,
}: {
  api: BuilderApi;
  files: () => BuilderFiles;
  events: readonly string[];
}) {
  const t = useTryEvent(api, files);
  return (
    <section class="card" aria-labelledby="try-h">
      <h2 id="try-h">Try it</h2>
      <TryForm t={t} events={events} />
      <div aria-live="polite" data-testid="try-result">
        <ErrorAlert text={t.error} />
        {t.result ? <TryResult result={t.result} /> : null}
      </div>
    </section>
  );
}

/** The event (offering the draft's), its inputs, the state to run it on and the seed. */
function TryForm({ t, events }: { t: ReturnType<typeof useTryEvent>; events: readonly string[] }) {
  return (
    <form onSubmit={t.run} class="try-form">
      <label>
        Event
        <input
          list="try-events"
          value={t.event}
          onInput={(e) => t.setEvent(e.currentTarget.value)}
          data-testid="try-event"
          required
        />
      </label>
      <datalist id="try-events">
        {events.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <label>
        Inputs (JSON object)
        <input
          value={t.inputs}
          onInput={(e) => t.setInputs(e.currentTarget.value)}
          placeholder='{"target": "wolf"}'
          data-testid="try-inputs"
        />
      </label>
      <label>
        State (JSON: the fields that differ from the initial state)
        <textarea
          rows={2}
          value={t.state}
          onInput={(e) => t.setState(e.currentTarget.value)}
          placeholder='{"player": {"hp": 3}}'
          data-testid="try-state"
        />
      </label>
      <NumberField label="Seed" min={0} value={t.seed} onInput={t.setSeed} testId="try-seed" />
      <button type="submit" disabled={t.running || t.event.trim() === ''} data-testid="try-run">
        Run
      </button>
    </form>
  );
}

/** What the event did: its error (when it failed, at its place), notes, dice and the state's changes. */
function TryResult({ result }: { result: TryView }) {
  return (
    <div>
      {!result.ok ? (
        <p class="error">
          {result.error.where ? `${result.error.where}: ` : ''}
          {result.error.message} [{result.error.code}]
        </p>
      ) : null}
      <Notes notes={result.notes} />
      <Rolls rolls={result.rolls} />
      <h3>Changes</h3>
      <ul class="list-plain">
        {(result.ok ? result.changes : []).map((c, i) => (
          <li key={i} data-testid="try-change">
            {c.path}: {c.before === undefined || c.before === null ? '(new)' : JSON.stringify(c.before)} →{' '}
            {c.op === 'delete' ? '(deleted)' : JSON.stringify(c.after)}
          </li>
        ))}
        {result.ok && result.changes.length === 0 ? <li class="muted">The state is unchanged.</li> : null}
      </ul>
    </div>
  );
}
