// The builder's first screen: the caller's drafts, a new draft from a template, a cartridge of the
// library opened as a draft, and the generator (its progress streamed; the draft it saves is opened).
import { useEffect, useState } from 'preact/hooks';
import type { DraftSummaryView } from '../../contract/index.ts';
import type { BuilderApi } from './builder-api.ts';
import { ApiFailure, failureText, formatProblem, problemsOf } from '../lib/errors.ts';
import { useApp } from '../app/context.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { formatWhen } from '../lib/when.ts';

export function Drafts({ api }: { api: BuilderApi }) {
  const { navigate } = useApp();
  const [drafts, setDrafts] = useState<readonly DraftSummaryView[]>([]);
  const [templates, setTemplates] = useState<readonly string[]>(['empty']);
  const [editable, setEditable] = useState<{ label: string; versionId: string }[]>([]);
  const [fromVersion, setFromVersion] = useState('');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('empty');
  const [error, setError] = useState('');
  const [generateError, setGenerateError] = useState('');
  const [requirements, setRequirements] = useState('');
  const [progress, setProgress] = useState<string[]>([]);
  const [generating, setGenerating] = useState(false);

  useEffect(() => {
    Promise.all([api.drafts(), api.templates(), api.editableCartridges()])
      .then(([d, t, e]) => {
        setDrafts(d);
        if (t.length > 0) setTemplates(t);
        setEditable(e);
        setFromVersion(e[0]?.versionId ?? '');
      })
      .catch((e) => setError(failureText(e)));
  }, [api]);

  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      const draft = await api.createDraft({ name: name.trim() || 'Untitled', template });
      navigate(`#/builder/${encodeURIComponent(draft.id)}`);
    } catch (e) {
      setError(failureText(e));
    }
  };

  const edit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const chosen = editable.find((c) => c.versionId === fromVersion);
    if (!chosen) return;
    try {
      const draft = await api.createDraft({ name: chosen.label, fromVersion: chosen.versionId });
      navigate(`#/builder/${encodeURIComponent(draft.id)}`);
    } catch (e) {
      setError(failureText(e));
    }
  };

  const generate = async (event: Event): Promise<void> => {
    event.preventDefault();
    setGenerating(true);
    setProgress([]);
    setGenerateError('');
    const log = (line: string) => setProgress((p) => [...p, line]);
    let saved: string | null = null;
    try {
      for await (const { event, data } of api.generate({ requirements })) {
        switch (event) {
          case 'round':
            log(
              data.kind === 'draft'
                ? `Round ${data.round}: the model writes a draft…`
                : `Round ${data.round}: the model repairs ${data.errors} error(s)…`,
            );
            break;
          case 'checked':
            log(
              data.errors.length === 0
                ? `Round ${data.round}: the checker found no errors.`
                : `Round ${data.round}: the checker found ${data.errors.length} error(s): ${problemsOf(data.errors).map(formatProblem).join('; ')}`,
            );
            break;
          case 'saved':
            saved = data.draftId;
            break;
          case 'done':
            log(
              data.ok
                ? `Done: a valid draft after ${data.rounds} round(s).`
                : `Done after ${data.rounds} round(s); the draft still has errors.`,
            );
            saved = data.draftId ?? saved;
            break;
          case 'error':
            setGenerateError(data.message);
            break;
          case 'answered':
            break;
          default: {
            const unreachable: never = event;
            throw new Error(`unknown generator event ${String(unreachable)}`);
          }
        }
      }
    } catch (e) {
      // Beside the form that failed, in a browser user's words (the API's names an API route).
      setGenerateError(
        e instanceof ApiFailure && e.code === 'no_model'
          ? 'Generating a cartridge needs a model, and none is configured. Choose one in Settings → Model, then try again.'
          : failureText(e),
      );
    } finally {
      setGenerating(false);
    }
    // The draft is on the server once `saved` came, even if the stream broke after it.
    if (saved !== null) navigate(`#/builder/${encodeURIComponent(saved)}`);
  };

  return (
    <div class="grid-2 builder-home">
      <section class="card" aria-labelledby="drafts-h">
        <h2 id="drafts-h">Drafts</h2>
        <ErrorAlert text={error} testId="builder-error" />
        <ul class="list-plain" data-testid="draft-list">
          {drafts.map((d) => (
            <li key={d.id} data-testid="draft-item">
              <a href={`#/builder/${encodeURIComponent(d.id)}`}>{d.name}</a>{' '}
              <span class="muted">changed {formatWhen(d.updatedAt)}</span>
            </li>
          ))}
          {drafts.length === 0 ? <li class="muted">No drafts yet.</li> : null}
        </ul>
        <form onSubmit={create} class="row" style={{ marginTop: '1rem' }}>
          <label>
            Name{' '}
            <input
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              data-testid="new-draft-name"
            />
          </label>
          <label>
            Start from{' '}
            <select
              value={template}
              onChange={(e) => setTemplate(e.currentTarget.value)}
              data-testid="new-draft-template"
            >
              {templates.map((t) => (
                <option key={t} value={t}>
                  {t === 'empty' ? 'empty template' : `${t} template`}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" data-testid="new-draft-create">
            New draft
          </button>
        </form>
        {editable.length > 0 ? (
          <form onSubmit={edit} class="row" style={{ marginTop: '1rem' }}>
            <label>
              Or edit a cartridge of yours{' '}
              <select
                value={fromVersion}
                onChange={(e) => setFromVersion(e.currentTarget.value)}
                data-testid="edit-cartridge"
              >
                {editable.map((c) => (
                  <option key={c.versionId} value={c.versionId}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" data-testid="edit-cartridge-open">
              Edit in the builder
            </button>
          </form>
        ) : null}
      </section>
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
          <button
            type="submit"
            disabled={generating || requirements.trim() === ''}
            data-testid="generate-run"
          >
            {generating ? 'Generating…' : 'Generate'}
          </button>
        </form>
        <ErrorAlert text={generateError} testId="generate-error" />
        <ol aria-live="polite" class="generate-log" data-testid="generate-progress">
          {progress.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}
