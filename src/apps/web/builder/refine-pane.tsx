// The builder's "Change with the generator": the draft's four files and a change request go to the
// model (POST /v1/builder/generate with `existing` and `draftId`); its answer is saved into the draft.
import { useState } from 'preact/hooks';
import type { BuilderApi, BuilderFiles } from './builder-api.ts';
import { MAIN_FILES } from './draft-files.ts';
import { failureText } from '../lib/errors.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';

/** "Change with the generator": the draft and a change request go to the model; the result replaces it. */
export function RefinePane({
  api,
  id,
  files,
  before,
  onDone,
}: {
  api: BuilderApi;
  id: string;
  files: () => BuilderFiles;
  before: () => Promise<boolean>;
  onDone: () => Promise<void>;
}) {
  const [request, setRequest] = useState('');
  const [progress, setProgress] = useState('');
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);

  const run = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError('');
    setRunning(true);
    try {
      if (!(await before())) return;
      const existing: BuilderFiles = {};
      for (const name of MAIN_FILES) if (files()[name] !== undefined) existing[name] = files()[name];
      let saved = false;
      for await (const e of api.generate({ requirements: request, existing, draftId: id })) {
        if (e.event === 'round')
          setProgress(
            `Round ${e.data.round}: ${e.data.kind === 'draft' ? 'the model changes the draft' : `the model repairs ${e.data.errors} error(s)`}…`,
          );
        else if (e.event === 'saved') saved = true;
        else if (e.event === 'done')
          setProgress(
            e.data.ok
              ? `Done after ${e.data.rounds} round(s): the draft is valid.`
              : `Done after ${e.data.rounds} round(s); the draft still has errors.`,
          );
        else if (e.event === 'error') setError(e.data.message);
      }
      if (saved) await onDone();
    } catch (e) {
      setError(failureText(e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <details class="card" data-testid="refine">
      <summary>Change with the generator</summary>
      <form onSubmit={run}>
        <label>
          What to change
          <textarea
            rows={3}
            value={request}
            onInput={(e) => setRequest(e.currentTarget.value)}
            data-testid="refine-request"
          />
        </label>
        <button
          type="submit"
          disabled={running || request.trim() === '' || files()['yare.yaml'] === undefined}
          data-testid="refine-run"
        >
          {running ? 'Changing…' : 'Change the draft'}
        </button>
      </form>
      <p aria-live="polite" class="muted" data-testid="refine-progress">
        {progress}
      </p>
      <ErrorAlert text={error} />
    </details>
  );
}
