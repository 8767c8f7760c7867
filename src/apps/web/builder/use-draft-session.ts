// The draft editor's state in Preact: the draft session (draft-session.ts: saving, checking, conflicts),
// the editor view's reducer (draft-view-state.ts), and the CodeMirror editors by file, which follow the
// session's findings and take the files it replaces. Reads the draft once; saves what is pending as the
// page goes.

import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { failureText } from '../lib/errors.ts';
import type { BuilderApi } from './builder-api.ts';
import { DraftSession, type DraftSessionState } from './draft-session.ts';
import { draftViewReducer, initialDraftView } from './draft-view-state.ts';
import { type BuilderEditor, createEditor } from './editor.ts';

export function useDraftSession(api: BuilderApi, id: string) {
  const [view, dispatch] = useReducer(draftViewReducer, initialDraftView);
  const editors = useRef(new Map<string, BuilderEditor>());
  const session = useMemo(
    () =>
      new DraftSession(api, id, {
        changed: (state) => setState(state),
        replaced: (files) => {
          for (const [file, text] of Object.entries(files))
            if (text !== undefined) editors.current.get(file)?.setText(text);
        },
      }),
    [api, id],
  );
  const [state, setState] = useState<DraftSessionState>(session.state);

  useEffect(() => {
    api
      .draft(id)
      .then((draft) => {
        // The session holds the files before the panes that mount the editors from them render.
        void session.opened(draft.files, draft.updatedAt);
        dispatch({ type: 'loaded', draft });
      })
      .catch((e) => dispatch({ type: 'load-failed', message: failureText(e) }));
    const onHide = (): void => session.leave();
    addEventListener('pagehide', onHide);
    return () => {
      removeEventListener('pagehide', onHide);
      session.leave();
      for (const editor of editors.current.values()) editor.destroy();
      editors.current.clear();
    };
  }, [session]);

  // The editors show the last check's findings of their own file.
  useEffect(() => {
    for (const [file, editor] of editors.current)
      editor.setProblems(state.findings.filter((p) => p.file === file));
  }, [state.findings]);

  /** Mounts the editor of `file` in its pane (once), wired to the session and the language server. */
  const mountEditor = (file: string) => (element: HTMLDivElement | null) => {
    if (element === null || editors.current.has(file)) return;
    const rules = () => (session.lastGoodRules ? { rules: session.lastGoodRules } : {});
    const editor = createEditor(element, {
      file,
      text: session.files[file] ?? '',
      label: `${file} editor`,
      onChange: (text) => {
        session.edited(file, text);
        dispatch({ type: 'edited', file, text });
      },
      onSave: () => void session.sync(),
      hover: (text, offset) => api.hover({ file, text, offset, ...rules() }),
      complete: (text, offset, signal) => api.complete({ file, text, offset, ...rules() }, signal),
    });
    editors.current.set(file, editor);
    editor.setProblems(session.state.findings.filter((p) => p.file === file));
  };

  /** The draft was changed on the server (the generator, the other save): the editors take its files. */
  const reload = async (): Promise<void> => {
    const { transcript } = await session.reload();
    dispatch({ type: 'replaced', yareText: session.files['yare.yaml'], transcript });
  };

  return { session, state, view, dispatch, editors, mountEditor, reload };
}
