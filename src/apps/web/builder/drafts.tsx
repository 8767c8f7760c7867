// The builder's first screen: the caller's drafts, a new draft from a template, a cartridge of the
// library opened as a draft, and the generator (generate-card.tsx: its progress streamed; the draft it
// saves is opened).
import { useEffect, useState } from 'preact/hooks';
import type { DraftSummaryView } from '../../contract/index.ts';
import { useApp } from '../app/context.ts';
import { failureText } from '../lib/errors.ts';
import { formatWhen } from '../lib/when.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import type { BuilderApi } from './builder-api.ts';
import { GenerateCard } from './generate-card.tsx';

type Editable = { readonly label: string; readonly versionId: string };

export function Drafts({ api }: { api: BuilderApi }) {
  const { navigate } = useApp();
  const [drafts, setDrafts] = useState<readonly DraftSummaryView[]>([]);
  const [templates, setTemplates] = useState<readonly string[]>(['empty']);
  const [editable, setEditable] = useState<readonly Editable[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    Promise.all([api.drafts(), api.templates(), api.editableCartridges()])
      .then(([d, t, e]) => {
        setDrafts(d);
        if (t.length > 0) setTemplates(t);
        setEditable(e);
      })
      .catch((e) => setError(failureText(e)));
  }, [api]);
  /** Makes a draft and opens it. */
  const open = async (body: Parameters<BuilderApi['createDraft']>[0]): Promise<void> => {
    try {
      const draft = await api.createDraft(body);
      navigate(`#/builder/${encodeURIComponent(draft.id)}`);
    } catch (e) {
      setError(failureText(e));
    }
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
        <NewDraftForm templates={templates} onCreate={(name, template) => void open({ name, template })} />
        {editable.length > 0 ? (
          <EditCartridgeForm
            editable={editable}
            onOpen={(c) => void open({ name: c.label, fromVersion: c.versionId })}
          />
        ) : null}
      </section>
      <GenerateCard api={api} />
    </div>
  );
}

function NewDraftForm(props: {
  templates: readonly string[];
  onCreate: (name: string, template: string) => void;
}) {
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('empty');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onCreate(name.trim() || 'Untitled', template);
      }}
      class="row"
      style={{ marginTop: '1rem' }}
    >
      <label>
        Name{' '}
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="new-draft-name" />
      </label>
      <label>
        Start from{' '}
        <select
          value={template}
          onChange={(e) => setTemplate(e.currentTarget.value)}
          data-testid="new-draft-template"
        >
          {props.templates.map((t) => (
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
  );
}

/** One of the caller's own cartridges (its newest version) opened in the builder as a new draft. */
function EditCartridgeForm(props: { editable: readonly Editable[]; onOpen: (chosen: Editable) => void }) {
  const [fromVersion, setFromVersion] = useState(props.editable[0]?.versionId ?? '');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const chosen = props.editable.find((c) => c.versionId === fromVersion);
        if (chosen) props.onOpen(chosen);
      }}
      class="row"
      style={{ marginTop: '1rem' }}
    >
      <label>
        Or edit a cartridge of yours{' '}
        <select
          value={fromVersion}
          onChange={(e) => setFromVersion(e.currentTarget.value)}
          data-testid="edit-cartridge"
        >
          {props.editable.map((c) => (
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
  );
}
