// The builder (loaded as its own chunk, see app/builder-route.tsx): the drafts screen (drafts.tsx) and
// the editor of one draft — a CodeMirror pane per file, the checker's findings as you type (squiggles and
// a problems list), completion, a "try it" pane (try-pane.tsx), an Explore pane (explore-pane.tsx), the generator (refine-pane.tsx),
// save as version, test play and download. Every edit is saved on the server shortly after it is made (and as the page
// unloads), so a reload never loses a draft.
import './builder.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { safeParse } from 'zod/mini';
import { draftChangedDetails, type DraftView, nameTakenDetails } from '../../contract/index.ts';
import { BuilderApi, type BuilderFiles, type CheckView } from './builder-api.ts';
import { type BuilderEditor, createEditor } from './editor.ts';
import { FILE_LABELS, MAIN_FILES, OTHER_FILES, RULES_FILES } from './draft-files.ts';
import { joinedCartridge, rememberJoin } from './draft-joins.ts';
import { eventNames } from './draft-text.ts';
import { ApiFailure, failureText, failureWithProblems, formatProblem, type Problem } from '../lib/errors.ts';
import { Drafts } from './drafts.tsx';
import { MinigameReference } from './minigame-reference.tsx';
import { ExplorePane } from './explore-pane.tsx';
import { RefinePane } from './refine-pane.tsx';
import { TryPane } from './try-pane.tsx';
import { useApp, useClient } from '../app/context.ts';
/** Milliseconds after the last keystroke before the draft is saved and checked (one request). */
export const SYNC_DELAY_MS = 400;
/** Milliseconds before a failed save (a network blip, the rate limit) is tried again. */
export const SAVE_RETRY_MS = 5_000;

type Finding = Problem & { readonly severity: 'error' | 'warning' };

export function Builder({ draftId }: { draftId?: string | undefined }) {
  const api = useClient(BuilderApi);
  return draftId ? <DraftEditor key={draftId} api={api} id={draftId} /> : <Drafts api={api} />;
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
    const details = safeParse(draftChangedDetails, e.details);
    setConflict({ updatedAt: details.success ? details.data.updatedAt : 0 });
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
      onSave: () => void sync(),
      hover: (text, offset) =>
        api.hover({
          file,
          text,
          offset,
          ...(lastGoodRules.current ? { rules: lastGoodRules.current } : {}),
        }),
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
    let result: Awaited<ReturnType<typeof api.saveVersion>>;
    try {
      result = await api.saveVersion(id, joinedCartridge(id));
    } catch (e) {
      const details =
        e instanceof ApiFailure && e.code === 'name_taken'
          ? safeParse(nameTakenDetails, e.details)
          : undefined;
      if (!details?.success) throw e;
      const taken = details.data.name;
      // Never join another cartridge unasked: the player chooses, and Cancel keeps the two apart.
      const join = window.confirm(
        `You already have a cartridge named “${taken}”, the name this draft gives in yare.yaml (bot_name).\n\nOK: add this draft to “${taken}” as its next version.\nCancel: keep them apart (give the draft a bot_name of its own, then save again).`,
      );
      if (!join) {
        setMessage({
          kind: 'error',
          text: `Not saved: “${taken}” is already one of your cartridges. Change bot_name in yare.yaml to keep this draft apart, or save again and choose to add it as a new version.`,
        });
        return undefined;
      }
      result = await api.saveVersion(id, taken);
    }
    rememberJoin(id, result.version.name);
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
      setMessage({ kind: 'error', text: failureWithProblems(e) });
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
        base.current = await api.saveDraft(id, { name: wanted, baseUpdatedAt: base.current });
      });
      saving.current = request.catch(() => undefined);
      try {
        await request;
      } catch (e) {
        if (saveConflict(e)) return;
        throw e;
      }
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
        {/* aria-busy while checking: a screen reader announces the result, not every "Checking…". */}
        <span
          data-testid="check-state"
          aria-live="polite"
          aria-busy={check.kind === 'checking'}
          class={valid ? 'ok' : 'muted'}
        >
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
          <ExplorePane api={api} files={files} />
          <RefinePane api={api} id={id} files={files} before={flushSave} onDone={reloadFromServer} />
          <MinigameReference api={api} />
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
