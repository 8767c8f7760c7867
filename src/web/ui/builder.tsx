// The builder (loaded as its own chunk, see builder-route.tsx): a principal's drafts, a new draft from a
// template, the generator, and the editor of one draft — a CodeMirror pane per file, the checker's
// findings as you type (squiggles and a problems list), completion, a "try it" pane, save as version,
// test play and download. Every edit is saved on the server shortly after it is made (and as the page
// unloads), so a reload never loses a draft.
import './builder.css';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure, failureText, formatProblem, type Problem } from '../lib/errors.ts';
import {
  BuilderApi,
  type BuilderFiles,
  type CheckView,
  type DraftSummaryView,
  type DraftView,
  type TryView,
} from '../lib/builder-api.ts';
import { type BuilderEditor, createEditor } from '../lib/builder-editor.ts';
import { eventNames, jsonObjectField } from '../lib/builder-text.ts';
import { Notes, Rolls } from './author-panel.tsx';
import { MinigameReference } from './builder-minigames.tsx';
import { storedApiKey, useApp } from './context.ts';

/** The four files every draft shows (and the generator writes), then any other cartridge file it holds. */
const MAIN_FILES = ['yare.yaml', 'bot_lore.md', 'prompt_directives.yaml', 'first-message.md'];
const OTHER_FILES = ['alternate_greetings.json', 'intents.yaml', 'world_info.json', 'yare.js', 'yare.ts'];
const RULES_FILES = ['yare.yaml', 'yare.js', 'yare.ts'];
const FILE_LABELS: Readonly<Record<string, string>> = {
  'yare.yaml': 'Rules',
  'bot_lore.md': 'Lore',
  'prompt_directives.yaml': 'Directives',
  'first-message.md': 'First message',
};
/** Milliseconds after the last keystroke before the draft is saved and checked (one request). */
export const SYNC_DELAY_MS = 400;
/** Milliseconds before a failed save (a network blip, the rate limit) is tried again. */
export const SAVE_RETRY_MS = 5_000;

type Finding = Problem & { readonly severity: 'error' | 'warning' };

export function Builder({ draftId }: { draftId?: string | undefined }) {
  const api = useMemo(() => new BuilderApi('', storedApiKey), []);
  return draftId ? <DraftEditor key={draftId} api={api} id={draftId} /> : <Drafts api={api} />;
}

function Drafts({ api }: { api: BuilderApi }) {
  const { navigate } = useApp();
  const [drafts, setDrafts] = useState<DraftSummaryView[]>([]);
  const [templates, setTemplates] = useState<string[]>(['empty']);
  const [editable, setEditable] = useState<{ label: string; versionId: string }[]>([]);
  const [fromVersion, setFromVersion] = useState('');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('empty');
  const [error, setError] = useState('');
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
    setError('');
    const log = (line: string) => setProgress((p) => [...p, line]);
    let saved: string | null = null;
    try {
      for await (const e of api.generate({ requirements })) {
        switch (e.type) {
          case 'round':
            log(
              e.kind === 'draft'
                ? `Round ${e.round}: the model writes a draft…`
                : `Round ${e.round}: the model repairs ${e.errors} error(s)…`,
            );
            break;
          case 'checked':
            log(
              e.errors.length === 0
                ? `Round ${e.round}: the checker found no errors.`
                : `Round ${e.round}: the checker found ${e.errors.length} error(s): ${e.errors.map(formatProblem).join('; ')}`,
            );
            break;
          case 'saved':
            saved = e.draftId;
            break;
          case 'done':
            log(
              e.ok
                ? `Done: a valid draft after ${e.rounds} round(s).`
                : `Done after ${e.rounds} round(s); the draft still has errors.`,
            );
            saved = e.draftId ?? saved;
            break;
          case 'error':
            setError(e.message);
            break;
        }
      }
    } catch (e) {
      setError(failureText(e));
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
        {error ? (
          <p class="error" role="alert" data-testid="builder-error">
            {error}
          </p>
        ) : null}
        <ul class="list-plain" data-testid="draft-list">
          {drafts.map((d) => (
            <li key={d.id} data-testid="draft-item">
              <a href={`#/builder/${encodeURIComponent(d.id)}`}>{d.name}</a>{' '}
              <span class="muted">changed {new Date(d.updatedAt).toLocaleString()}</span>
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
        <ol aria-live="polite" class="generate-log" data-testid="generate-progress">
          {progress.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}

type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed';
type CheckState =
  | { readonly kind: 'checking' }
  | { readonly kind: 'done'; readonly result: CheckView }
  | { readonly kind: 'failed'; readonly message: string };

function DraftEditor({ api, id }: { api: BuilderApi; id: string }) {
  const { navigate } = useApp();
  const [draft, setDraft] = useState<DraftView | undefined>();
  const [loadError, setLoadError] = useState('');
  const files = useRef<BuilderFiles>({});
  const [fileNames, setFileNames] = useState<string[]>([]);
  const [active, setActive] = useState('yare.yaml');
  const [name, setName] = useState('');
  const [save, setSave] = useState<SaveState>('saved');
  const [check, setCheck] = useState<CheckState>({ kind: 'checking' });
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  const [yareText, setYareText] = useState('');
  const [transcript, setTranscript] = useState<string | null>(null);
  const editors = useRef(new Map<string, BuilderEditor>());
  const lastGoodRules = useRef<BuilderFiles | undefined>(undefined);
  const syncTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Saves run one after another, so an older text never lands after a newer one. */
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const checkSeq = useRef(0);
  const findings = useRef<Finding[]>([]);
  const dirty = useRef(false);
  /** The name as last saved: leaving the name field unchanged saves nothing. */
  const savedName = useRef('');
  /** The draft's `updatedAt` as this page last saved or read it: a save elsewhere since is not overwritten. */
  const base = useRef(0);
  /** Set when a save found the draft saved elsewhere: saving stops until the author chooses. */
  const [conflict, setConflict] = useState<{ updatedAt: number } | undefined>();
  const conflicted = useRef(false);

  const rulesOf = (f: BuilderFiles): BuilderFiles => {
    const out: BuilderFiles = {};
    for (const n of RULES_FILES) if (f[n] !== undefined) out[n] = f[n];
    return out;
  };

  const showFindings = (): void => {
    for (const [file, editor] of editors.current)
      editor.setProblems(findings.current.filter((p) => p.file === file));
  };

  /**
   * Saves the files if they changed (and checks them in the same request), or only checks them; a
   * result that arrives after a newer one was asked for is dropped.
   */
  const sync = async (): Promise<void> => {
    clearTimeout(syncTimer.current);
    const seq = ++checkSeq.current;
    const snapshot = { ...files.current };
    const save = dirty.current && !conflicted.current;
    if (save) dirty.current = false;
    setCheck({ kind: 'checking' });
    if (save) setSave('saving');
    const request = saving.current.then(async () => {
      if (!save) return api.check(snapshot);
      const saved = await api.saveAndCheck(id, snapshot, base.current);
      base.current = saved.updatedAt;
      return saved.check;
    });
    saving.current = request.catch(() => undefined);
    try {
      const result = await request;
      if (save) setSave(dirty.current ? 'unsaved' : 'saved');
      if (seq !== checkSeq.current) return;
      findings.current = [
        ...result.errors.map((p) => ({ ...p, severity: 'error' as const })),
        ...result.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
      ];
      // Completion keeps the rules that last compiled, so it knows the state while the rules are broken.
      if (!result.errors.some((p) => RULES_FILES.includes(p.file))) lastGoodRules.current = rulesOf(snapshot);
      setCheck({ kind: 'done', result });
      showFindings();
    } catch (e) {
      if (save) {
        dirty.current = true;
        setSave('failed');
        if (!saveConflict(e))
          // Kept dirty and tried again: a reload after this still finds the last saved text, never less.
          syncTimer.current = setTimeout(() => void sync(), SAVE_RETRY_MS);
      }
      if (seq === checkSeq.current) setCheck({ kind: 'failed', message: failureText(e) });
    }
  };

  /** A save refused because the draft was saved elsewhere: stop saving and ask the author. */
  const saveConflict = (e: unknown): boolean => {
    if (!(e instanceof ApiFailure) || e.code !== 'draft_changed') return false;
    conflicted.current = true;
    setConflict({ updatedAt: Number(e.details.updatedAt ?? 0) });
    return true;
  };

  const keepMine = (): void => {
    if (conflict) base.current = conflict.updatedAt;
    conflicted.current = false;
    setConflict(undefined);
    dirty.current = true;
    void sync();
  };

  const takeTheirs = async (): Promise<void> => {
    conflicted.current = false;
    setConflict(undefined);
    await reloadFromServer();
  };

  /** Saves now what is not saved yet (before save as version, test play, download, the generator). */
  const flushSave = async (): Promise<boolean> => {
    clearTimeout(syncTimer.current);
    if (!dirty.current) {
      await saving.current;
      return true;
    }
    if (conflicted.current) return false;
    dirty.current = false;
    setSave('saving');
    const snapshot = { ...files.current };
    const request = saving.current.then(async () => {
      base.current = await api.saveDraft(id, { files: snapshot, baseUpdatedAt: base.current });
    });
    saving.current = request.catch(() => undefined);
    try {
      await request;
      setSave(dirty.current ? 'unsaved' : 'saved');
      return true;
    } catch (e) {
      dirty.current = true;
      setSave('failed');
      if (!saveConflict(e)) setMessage({ kind: 'error', text: `The draft was not saved: ${failureText(e)}` });
      return false;
    }
  };

  const edited = (file: string, text: string): void => {
    files.current = { ...files.current, [file]: text };
    if (file === 'yare.yaml') setYareText(text);
    dirty.current = true;
    setSave('unsaved');
    clearTimeout(syncTimer.current);
    syncTimer.current = setTimeout(() => void sync(), SYNC_DELAY_MS);
  };

  useEffect(() => {
    api
      .draft(id)
      .then((d) => {
        files.current = { ...d.files };
        setDraft(d);
        setTranscript(d.transcript);
        base.current = d.updatedAt;
        setName(d.name);
        savedName.current = d.name;
        setYareText(d.files['yare.yaml'] ?? '');
        const names = [...MAIN_FILES, ...OTHER_FILES.filter((n) => d.files[n] !== undefined)].filter(
          (n) =>
            n !== 'yare.yaml' ||
            d.files['yare.yaml'] !== undefined ||
            !RULES_FILES.some((r) => d.files[r] !== undefined),
        );
        setFileNames(names);
        setActive(names[0] ?? 'yare.yaml');
        void sync();
      })
      .catch((e) => setLoadError(failureText(e)));
    // A save still pending as the page goes away is sent with keepalive, so it outlives the page.
    const onHide = (): void => {
      if (!dirty.current) return;
      dirty.current = false;
      if (conflicted.current) return;
      void api
        .saveDraft(id, { files: { ...files.current }, baseUpdatedAt: base.current }, true)
        .catch(() => undefined);
    };
    addEventListener('pagehide', onHide);
    return () => {
      removeEventListener('pagehide', onHide);
      onHide();
      clearTimeout(syncTimer.current);
      for (const editor of editors.current.values()) editor.destroy();
      editors.current.clear();
    };
  }, [api, id]);

  const mountEditor = (file: string) => (element: HTMLDivElement | null) => {
    if (element === null || editors.current.has(file)) return;
    const editor = createEditor(element, {
      file,
      text: files.current[file] ?? '',
      label: `${file} editor`,
      onChange: (text) => edited(file, text),
      complete: (text, offset, signal) =>
        api.complete(
          {
            file,
            text,
            offset,
            ...(lastGoodRules.current ? { rules: lastGoodRules.current } : {}),
          },
          signal,
        ),
    });
    editors.current.set(file, editor);
    editor.setProblems(findings.current.filter((p) => p.file === file));
  };

  /** The generator changed the draft on the server: its files replace the editors' text. */
  const reloadFromServer = async (): Promise<void> => {
    const d = await api.draft(id);
    base.current = d.updatedAt;
    for (const [file, text] of Object.entries(d.files)) {
      if (text === undefined) continue;
      files.current = { ...files.current, [file]: text };
      editors.current.get(file)?.setText(text);
    }
    if (d.files['yare.yaml'] !== undefined) setYareText(d.files['yare.yaml']);
    setTranscript(d.transcript);
    dirty.current = false;
    setSave('saved');
    void sync();
  };

  const goToProblem = (p: Finding): void => {
    if (!fileNames.includes(p.file)) return;
    setActive(p.file);
    // The pane becomes visible on the next render; then the cursor moves there.
    setTimeout(() => editors.current.get(p.file)?.goTo(p.line, p.col), 0);
  };

  const saveVersion = async (): Promise<string | undefined> => {
    if (!(await flushSave())) return undefined;
    const result = await api.saveVersion(id);
    setMessage({
      kind: 'ok',
      text: `${result.created ? 'Saved as a new version' : 'This version is already saved'}: ${result.version.name} (${result.version.contentHash.slice(0, 12)})`,
    });
    return result.version.id;
  };

  const act = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setMessage(undefined);
    try {
      await work();
    } catch (e) {
      const problems = e instanceof ApiFailure ? e.problems : [];
      setMessage({
        kind: 'error',
        text: `${failureText(e)}${problems.length > 0 ? `: ${problems.map(formatProblem).join('; ')}` : ''}`,
      });
    } finally {
      setBusy(false);
    }
  };

  const testPlay = () =>
    act(async () => {
      const versionId = await saveVersion();
      if (versionId === undefined) return;
      const sessionId = await api.startSession(versionId);
      navigate(`#/play/${encodeURIComponent(sessionId)}`);
    });

  const download = () =>
    act(async () => {
      if (!(await flushSave())) return;
      const blob = await api.archive(id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'draft'}.zip`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setMessage({ kind: 'ok', text: `Downloaded ${link.download}` });
    });

  /** The open file alone, as it is in the editor (the original offered this per pane). */
  const downloadFile = (): void => {
    const blob = new Blob([files.current[active] ?? ''], { type: 'text/plain;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = active;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const rename = async (): Promise<void> => {
    const wanted = name.trim();
    if (wanted === '' || wanted === savedName.current) return;
    await act(async () => {
      // In the save queue: the new updatedAt must be the base of the next save.
      const request = saving.current.then(async () => {
        base.current = await api.saveDraft(id, { name: wanted });
      });
      saving.current = request.catch(() => undefined);
      await request;
      savedName.current = wanted;
      setMessage({ kind: 'ok', text: `Renamed to ${wanted}.` });
    });
  };

  const remove = () =>
    act(async () => {
      if (!confirm(`Delete the draft “${name}”? Versions saved from it stay in the library.`)) return;
      await api.deleteDraft(id);
      dirty.current = false;
      navigate('#/builder');
    });

  const addFile = (file: string): void => {
    if (file === '' || fileNames.includes(file)) return;
    files.current = { ...files.current, [file]: files.current[file] ?? '' };
    setFileNames([...fileNames, file]);
    setActive(file);
    edited(file, files.current[file] ?? '');
  };

  const onTabKey = (event: KeyboardEvent): void => {
    const at = fileNames.indexOf(active);
    const next =
      event.key === 'ArrowRight'
        ? fileNames[(at + 1) % fileNames.length]
        : event.key === 'ArrowLeft'
          ? fileNames[(at - 1 + fileNames.length) % fileNames.length]
          : event.key === 'Home'
            ? fileNames[0]
            : event.key === 'End'
              ? fileNames[fileNames.length - 1]
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    document.getElementById(`file-tab-${next}`)?.focus();
  };

  if (loadError)
    return (
      <section class="card">
        <p class="error" role="alert">
          {loadError}
        </p>
        <a href="#/builder">Back to the drafts</a>
      </section>
    );
  if (!draft) return <p class="muted">Loading the draft…</p>;

  const result = check.kind === 'done' ? check.result : undefined;
  const all: Finding[] = result
    ? [
        ...result.errors.map((p) => ({ ...p, severity: 'error' as const })),
        ...result.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
      ]
    : [];
  const valid = result?.ok === true;

  return (
    <div class="builder">
      <div class="toolbar builder-bar">
        <a href="#/builder">Drafts</a>
        <label>
          Draft name{' '}
          <input
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            onBlur={() => void rename()}
            data-testid="draft-name"
          />
        </label>
        <span class="muted" data-testid="save-state" aria-live="polite">
          {save === 'saved'
            ? 'Saved'
            : save === 'saving'
              ? 'Saving…'
              : save === 'unsaved'
                ? 'Unsaved changes'
                : 'Not saved'}
        </span>
        <span data-testid="check-state" aria-live="polite" class={valid ? 'ok' : 'muted'}>
          {check.kind === 'checking'
            ? 'Checking…'
            : check.kind === 'failed'
              ? `Check failed: ${check.message}`
              : valid
                ? 'Valid'
                : `${result?.errors.length ?? 0} error(s)`}
        </span>
        <button
          type="button"
          disabled={busy || !valid}
          onClick={() => void act(async () => void (await saveVersion()))}
          data-testid="save-version"
        >
          Save as version
        </button>
        <button
          type="button"
          disabled={busy || !valid}
          onClick={() => void testPlay()}
          data-testid="test-play"
        >
          Test play
        </button>
        <button type="button" disabled={busy} onClick={() => void download()} data-testid="download-zip">
          Download .zip
        </button>
        <button type="button" disabled={busy} onClick={() => void remove()} data-testid="delete-draft">
          Delete draft
        </button>
      </div>
      {conflict ? (
        <div class="notice" role="alert" data-testid="draft-conflict">
          <p>
            This draft was saved elsewhere (another tab or window) after this page read it. Your changes here
            are not saved.
          </p>
          <button type="button" onClick={() => void takeTheirs()} data-testid="conflict-theirs">
            Load the other version
          </button>{' '}
          <button type="button" onClick={keepMine} data-testid="conflict-mine">
            Keep mine (overwrite it)
          </button>
        </div>
      ) : null}
      {message ? (
        <p
          class={message.kind === 'ok' ? 'ok' : 'error'}
          role={message.kind === 'ok' ? 'status' : 'alert'}
          data-testid="builder-message"
        >
          {message.text}
        </p>
      ) : null}
      <div class="builder-main">
        <section class="card builder-files" aria-label="Files">
          <div class="tabs" role="tablist" aria-label="Cartridge files" onKeyDown={onTabKey}>
            {fileNames.map((file) => (
              <button
                key={file}
                type="button"
                role="tab"
                id={`file-tab-${file}`}
                aria-selected={active === file}
                aria-controls={`file-pane-${file}`}
                tabIndex={active === file ? 0 : -1}
                onClick={() => setActive(file)}
                data-testid={`file-tab-${file}`}
              >
                {FILE_LABELS[file] ? `${FILE_LABELS[file]} (${file})` : file}
                {all.some((p) => p.file === file && p.severity === 'error') ? ' ⚠' : ''}
              </button>
            ))}
            <button type="button" onClick={downloadFile} data-testid="download-file">
              Download {active}
            </button>
            <select
              aria-label="Add a file"
              value=""
              onChange={(e) => addFile(e.currentTarget.value)}
              data-testid="add-file"
            >
              <option value="">Add a file…</option>
              {OTHER_FILES.filter((f) => !fileNames.includes(f)).map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          {fileNames.map((file) => (
            <div
              key={file}
              id={`file-pane-${file}`}
              role="tabpanel"
              aria-labelledby={`file-tab-${file}`}
              hidden={active !== file}
              class="builder-editor"
              data-testid={`editor-${file}`}
              ref={mountEditor(file)}
            />
          ))}
        </section>
        <aside class="builder-side">
          <section class="card" aria-labelledby="problems-h">
            <h2 id="problems-h">Problems</h2>
            <ul class="problems" data-testid="problem-list">
              {all.map((p, i) => (
                <li key={i}>
                  <button
                    type="button"
                    class={`problem-link ${p.severity}`}
                    onClick={() => goToProblem(p)}
                    data-testid="problem"
                  >
                    {p.severity === 'warning' ? 'warning: ' : ''}
                    {formatProblem(p)}
                    {p.code ? ` [${p.code}]` : ''}
                  </button>
                </li>
              ))}
              {result && all.length === 0 ? <li class="ok">No problems.</li> : null}
            </ul>
          </section>
          <TryPane api={api} files={files} events={eventNames(yareText)} />
          <RefinePane api={api} id={id} files={files} before={flushSave} onDone={reloadFromServer} />
          <MinigameReference />
          {transcript ? (
            <details class="card" data-testid="transcript">
              <summary>Generator transcript</summary>
              <pre class="transcript">{transcript}</pre>
            </details>
          ) : null}
        </aside>
      </div>
    </div>
  );
}

function TryPane({
  api,
  files,
  events,
}: {
  api: BuilderApi;
  files: { current: BuilderFiles };
  events: readonly string[];
}) {
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
          files: { ...files.current },
          event: event.trim(),
          ...(parsedInputs.value ? { inputs: parsedInputs.value } : {}),
          ...(parsedState.value ? { state: parsedState.value } : {}),
          seed: seedNumber,
        }),
      );
    } catch (failure) {
      setResult(undefined);
      const problems = failure instanceof ApiFailure ? failure.problems : [];
      setError(
        `${failureText(failure)}${problems.length > 0 ? `: ${problems.map(formatProblem).join('; ')}` : ''}`,
      );
    } finally {
      setRunning(false);
    }
  };

  return (
    <section class="card" aria-labelledby="try-h">
      <h2 id="try-h">Try it</h2>
      <form onSubmit={run} class="try-form">
        <label>
          Event
          <input
            list="try-events"
            value={event}
            onInput={(e) => setEvent(e.currentTarget.value)}
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
            value={inputs}
            onInput={(e) => setInputs(e.currentTarget.value)}
            placeholder='{"target": "wolf"}'
            data-testid="try-inputs"
          />
        </label>
        <label>
          State (JSON: the fields that differ from the initial state)
          <textarea
            rows={2}
            value={state}
            onInput={(e) => setState(e.currentTarget.value)}
            placeholder='{"player": {"hp": 3}}'
            data-testid="try-state"
          />
        </label>
        <label>
          Seed
          <input
            type="number"
            min={0}
            value={seed}
            onInput={(e) => setSeed(e.currentTarget.value)}
            data-testid="try-seed"
          />
        </label>
        <button type="submit" disabled={running || event.trim() === ''} data-testid="try-run">
          Run
        </button>
      </form>
      <div aria-live="polite" data-testid="try-result">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        {result ? (
          <div>
            {result.error ? (
              <p class="error">
                {result.error.where ? `${result.error.where}: ` : ''}
                {result.error.message} [{result.error.code}]
              </p>
            ) : null}
            <Notes notes={result.notes} />
            <Rolls rolls={result.rolls} />
            <h3>Changes</h3>
            <ul class="list-plain">
              {(result.changes ?? []).map((c, i) => (
                <li key={i} data-testid="try-change">
                  {c.path}: {c.before === undefined || c.before === null ? '(new)' : JSON.stringify(c.before)}{' '}
                  → {c.op === 'delete' ? '(deleted)' : JSON.stringify(c.after)}
                </li>
              ))}
              {result.ok && (result.changes ?? []).length === 0 ? (
                <li class="muted">The state is unchanged.</li>
              ) : null}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** "Change with the generator": the draft and a change request go to the model; the result replaces it. */
function RefinePane({
  api,
  id,
  files,
  before,
  onDone,
}: {
  api: BuilderApi;
  id: string;
  files: { current: BuilderFiles };
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
      for (const name of MAIN_FILES)
        if (files.current[name] !== undefined) existing[name] = files.current[name];
      let saved = false;
      for await (const e of api.generate({ requirements: request, existing, draftId: id })) {
        if (e.type === 'round')
          setProgress(
            `Round ${e.round}: ${e.kind === 'draft' ? 'the model changes the draft' : `the model repairs ${e.errors} error(s)`}…`,
          );
        else if (e.type === 'saved') saved = true;
        else if (e.type === 'done')
          setProgress(
            e.ok
              ? `Done after ${e.rounds} round(s): the draft is valid.`
              : `Done after ${e.rounds} round(s); the draft still has errors.`,
          );
        else if (e.type === 'error') setError(e.message);
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
          disabled={running || request.trim() === '' || files.current['yare.yaml'] === undefined}
          data-testid="refine-run"
        >
          {running ? 'Changing…' : 'Change the draft'}
        </button>
      </form>
      <p aria-live="polite" class="muted" data-testid="refine-progress">
        {progress}
      </p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </details>
  );
}
