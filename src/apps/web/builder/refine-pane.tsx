// The builder's "Change with the generator": the draft's four files and a change request go to the
// model (POST /v1/builder/generate with `existing` and `draftId`); its answer is saved into the draft.
import { useState } from 'preact/hooks';
import type { GenerateStreamEvent } from '../../contract/index.ts';
import type { BuilderApi, BuilderFiles } from './builder-api.ts';
import { MAIN_FILES } from './draft-files.ts';
import { failureText } from '../lib/errors.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';

/** The progress line for a generator event, or undefined for an event that does not change it. */
function refineProgressOf(e: GenerateStreamEvent): string | undefined {
  if (e.event === 'round')
    return `Round ${e.data.round}: ${e.data.kind === 'draft' ? 'the model changes the draft' : `the model repairs ${e.data.errors} error(s)`}…`;
  if (e.event === 'done')
    return e.data.ok
      ? `Done after ${e.data.rounds} round(s): the draft is valid.`
      : `Done after ${e.data.rounds} round(s); the draft still has errors.`;
  return undefined;
}

interface RefineProps {
  api: BuilderApi;
  id: string;
  files: () => BuilderFiles;
  before: () => Promise<boolean>;
  onDone: () => Promise<void>;
}

/** The change request, the generator's progress and error, and `run`, which streams the change. */
function useRefine({ api, id, files, before, onDone }: RefineProps) {
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
        const line = refineProgressOf(e);
        if (line !== undefined) setProgress(line);
        else if (e.event === 'saved') saved = true;
        else if (e.event === 'error') setError(e.data.message);
      }
      if (saved) await onDone();
    } catch (e) {
      setError(failureText(e));
    } finally {
      setRunning(false);
    }
  };
  return { request, setRequest, progress, error, running, run };
}

/** "Change with the generator": the draft and a change request go to the model; the result replaces it. */
export function RefinePane(props: RefineProps) {
  const { request, setRequest, progress, error, running, run } = useRefine(props);
  const { files } = props;
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
