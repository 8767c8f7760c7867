// The builder's generator: requirements in, the configured model writes the files, the checker finds what
// is wrong and the model repairs it; the progress streams in as lines, and the draft it saves is opened
// (even when the stream broke after it was saved).
import { useState } from 'preact/hooks';
import type { GenerateStreamEvent } from '../../contract/index.ts';
import { useApp } from '../app/context.ts';
import { ApiFailure, failureText, formatProblem, problemsOf } from '../lib/errors.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import type { BuilderApi } from './builder-api.ts';

/** The line a generator event adds to the progress (undefined: none). */
export function progressLine({ event, data }: GenerateStreamEvent): string | undefined {
  switch (event) {
    case 'round':
      return data.kind === 'draft'
        ? `Round ${data.round}: the model writes a draft…`
        : `Round ${data.round}: the model repairs ${data.errors} error(s)…`;
    case 'checked':
      return data.errorCount === 0
        ? `Round ${data.round}: the checker found no errors.`
        : `Round ${data.round}: the checker found ${data.errorCount} error(s): ${problemsOf(data.errors).map(formatProblem).join('; ')}${data.errorCount > data.errors.length ? '; …' : ''}`;
    case 'done':
      return data.ok
        ? `Done: a valid draft after ${data.rounds} round(s).`
        : `Done after ${data.rounds} round(s); the draft still has errors.`;
    case 'saved':
    case 'answered':
    case 'error':
      return undefined;
    default: {
      const unreachable: never = event;
      return String(unreachable);
    }
  }
}

/** A generator failure in a browser user's words (the API's names an API route). */
function generateFailure(error: unknown): string {
  return error instanceof ApiFailure && error.code === 'no_model'
    ? 'Generating a cartridge needs a model, and none is configured. Choose one in Settings → Model, then try again.'
    : failureText(error);
}

export function GenerateCard({ api }: { api: BuilderApi }) {
  const { navigate } = useApp();
  const [requirements, setRequirements] = useState('');
  const [progress, setProgress] = useState<readonly string[]>([]);
  const [error, setError] = useState('');
  const [generating, setGenerating] = useState(false);
  const generate = async (event: Event): Promise<void> => {
    event.preventDefault();
    setGenerating(true);
    setProgress([]);
    setError('');
    let saved: string | null = null;
    try {
      for await (const e of api.generate({ requirements })) {
        const line = progressLine(e);
        if (line !== undefined) setProgress((p) => [...p, line]);
        if (e.event === 'saved') saved = e.data.draftId;
        if (e.event === 'done') saved = e.data.draftId;
        if (e.event === 'error') setError(e.data.message);
      }
    } catch (e) {
      setError(generateFailure(e));
    } finally {
      setGenerating(false);
    }
    // The draft is on the server once `saved` came, even if the stream broke after it.
    if (saved !== null) navigate(`#/builder/${encodeURIComponent(saved)}`);
  };
  return (
    <section class="card" aria-labelledby="generate-h">
      <h2 id="generate-h">Generate a cartridge</h2>
      <p class="muted">
        Say what the game is about. The configured model writes the files, the checker finds what is wrong,
        and the model repairs it; the result opens here as a draft.
      </p>
      <form onSubmit={generate}>
        <label>
          Requirements
          <textarea
            rows={5}
            value={requirements}
            onInput={(e) => setRequirements(e.currentTarget.value)}
            data-testid="generate-requirements"
          />
        </label>
        <button type="submit" disabled={generating || requirements.trim() === ''} data-testid="generate-run">
          {generating ? 'Generating…' : 'Generate'}
        </button>
      </form>
      <ErrorAlert text={error} testId="generate-error" />
      <ol aria-live="polite" class="generate-log" data-testid="generate-progress">
        {progress.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
    </section>
  );
}
