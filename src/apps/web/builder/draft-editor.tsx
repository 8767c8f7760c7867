// The editor of one draft: its bar (draft-toolbar.tsx), a CodeMirror pane per file (file-panes.tsx), the
// checker's problems, a "try it" pane, an Explore pane, the generator and the mini-game reference. Saving,
// checking and conflicts are the draft session's (draft-session.ts, through use-draft-session.ts); the
// actions here only say what came of them.
import { useApp } from '../app/context.ts';
import { failureWithProblems } from '../lib/errors.ts';
import type { BuilderApi } from './builder-api.ts';
import type { Finding } from './draft-session.ts';
import { eventNames } from './draft-text.ts';
import { ConflictNotice, type DraftActions, DraftToolbar } from './draft-toolbar.tsx';
import { ExplorePane } from './explore-pane.tsx';
import { FilePanes } from './file-panes.tsx';
import { MinigameReference } from './minigame-reference.tsx';
import { ProblemsList } from './problems-list.tsx';
import { RefinePane } from './refine-pane.tsx';
import { archiveName, downloadBlob, saveAsVersion } from './save-version.ts';
import { TryPane } from './try-pane.tsx';
import { useDraftSession } from './use-draft-session.ts';

/** The actions of the bar, each saving first what is not saved; what came of it is the bar's message. */
function useDraftActions(api: BuilderApi, id: string, draft: ReturnType<typeof useDraftSession>) {
  const { navigate } = useApp();
  const { session, view, dispatch } = draft;
  const act = (work: () => Promise<void>) => async (): Promise<void> => {
    dispatch({ type: 'busy', busy: true });
    try {
      await work();
    } catch (e) {
      dispatch({ type: 'message', message: { kind: 'error', text: failureWithProblems(e) } });
    } finally {
      dispatch({ type: 'busy', busy: false });
    }
  };
  /** Saves what is pending; false (with the reason shown) when the draft could not be saved. */
  const flushed = async (): Promise<boolean> => {
    const flush = await session.flush();
    if (flush.failure !== undefined)
      dispatch({ type: 'message', message: { kind: 'error', text: flush.failure } });
    return flush.saved;
  };
  const saveVersion = async (): Promise<string | undefined> => {
    if (!(await flushed())) return undefined;
    const saved = await saveAsVersion(api, id, (question) => window.confirm(question));
    dispatch({
      type: 'message',
      message: { kind: saved.kind === 'saved' ? 'ok' : 'error', text: saved.message },
    });
    return saved.kind === 'saved' ? saved.versionId : undefined;
  };
  const actions: DraftActions = {
    saveVersion: act(async () => void (await saveVersion())),
    testPlay: act(async () => {
      const versionId = await saveVersion();
      if (versionId === undefined) return;
      navigate(`#/play/${encodeURIComponent(await api.startSession(versionId))}`);
    }),
    download: act(async () => {
      if (!(await flushed())) return;
      const name = archiveName(view.name);
      downloadBlob(await api.archive(id), name);
      dispatch({ type: 'message', message: { kind: 'ok', text: `Downloaded ${name}` } });
    }),
    remove: act(async () => {
      if (!confirm(`Delete the draft “${view.name}”? Versions saved from it stay in the library.`)) return;
      await api.deleteDraft(id);
      session.discard();
      navigate('#/builder');
    }),
  };
  const rename = async (): Promise<void> => {
    const wanted = view.name.trim();
    if (wanted === '' || wanted === view.savedName) return;
    await act(async () => {
      if ((await session.rename(wanted)) === 'renamed') dispatch({ type: 'renamed', name: wanted });
    })();
  };
  return { actions, rename, flushed };
}

export function DraftEditor({ api, id }: { api: BuilderApi; id: string }) {
  const draft = useDraftSession(api, id);
  const { session, state, view, dispatch, editors } = draft;
  const { actions, rename, flushed } = useDraftActions(api, id, draft);
  if (view.loadError)
    return (
      <section class="card">
        <p class="error" role="alert">
          {view.loadError}
        </p>
        <a href="#/builder">Back to the drafts</a>
      </section>
    );
  if (!view.draft) return <p class="muted">Loading the draft…</p>;
  // While a check runs (or after it failed) no problem is listed: the last ones may be out of date.
  const shown: readonly Finding[] = state.check.kind === 'done' ? state.findings : [];
  const goTo = (p: Finding): void => {
    if (!view.fileNames.includes(p.file)) return;
    dispatch({ type: 'select', file: p.file });
    // The pane becomes visible on the next render; then the cursor moves there.
    setTimeout(() => editors.current.get(p.file)?.goTo(p.line, p.col), 0);
  };
  const addFile = (file: string): void => {
    if (file === '' || view.fileNames.includes(file)) return;
    dispatch({ type: 'add-file', file });
    session.edited(file, session.files[file] ?? '');
  };
  return (
    <div class="builder">
      <DraftToolbar
        name={view.name}
        onName={(name) => dispatch({ type: 'name-typed', name })}
        onRename={() => void rename()}
        save={state.save}
        check={state.check}
        busy={view.busy}
        actions={actions}
      />
      {state.conflict ? (
        <ConflictNotice onTheirs={() => void draft.reload()} onMine={() => void session.keepMine()} />
      ) : null}
      <BuilderMessage message={view.message} />
      <div class="builder-main">
        <FilePanes
          fileNames={view.fileNames}
          active={view.active}
          findings={shown}
          onSelect={(file) => dispatch({ type: 'select', file })}
          onAdd={addFile}
          onDownloadFile={() =>
            downloadBlob(
              new Blob([session.files[view.active] ?? ''], { type: 'text/plain;charset=utf-8' }),
              view.active,
            )
          }
          mountEditor={draft.mountEditor}
        />
        <aside class="builder-side">
          <ProblemsList checked={state.check.kind === 'done'} findings={shown} onGo={goTo} />
          <TryPane api={api} files={() => session.files} events={eventNames(view.yareText)} />
          <ExplorePane api={api} files={() => session.files} />
          <RefinePane api={api} id={id} files={() => session.files} before={flushed} onDone={draft.reload} />
          <MinigameReference api={api} />
          <Transcript text={view.transcript} />
        </aside>
      </div>
    </div>
  );
}

function BuilderMessage({ message }: { message: { kind: 'ok' | 'error'; text: string } | undefined }) {
  if (!message) return null;
  return (
    <p class={message.kind} role={message.kind === 'ok' ? 'status' : 'alert'} data-testid="builder-message">
      {message.text}
    </p>
  );
}

function Transcript({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <details class="card" data-testid="transcript">
      <summary>Generator transcript</summary>
      <pre class="transcript">{text}</pre>
    </details>
  );
}
