// What the draft editor shows besides the session's save and check (draft-session.ts): the draft as read,
// the files open as tabs and the active one, the name field, the last action's message, whether an action
// runs, the rules' text (for "try it"'s events) and the generator's transcript. One reducer, so a change
// that touches several fields (a draft read, a file added) is one step.

import type { DraftView } from '../../contract/index.ts';
import { MAIN_FILES, OTHER_FILES, RULES_FILES } from './draft-files.ts';

export interface DraftViewState {
  readonly draft: DraftView | undefined;
  readonly loadError: string;
  readonly fileNames: readonly string[];
  readonly active: string;
  /** The name field as typed; `savedName` is the draft's name as last saved (leaving it unchanged saves nothing). */
  readonly name: string;
  readonly savedName: string;
  readonly message: { readonly kind: 'ok' | 'error'; readonly text: string } | undefined;
  readonly busy: boolean;
  readonly yareText: string;
  readonly transcript: string | null;
}

export type DraftViewAction =
  | { readonly type: 'loaded'; readonly draft: DraftView }
  | { readonly type: 'load-failed'; readonly message: string }
  | { readonly type: 'select'; readonly file: string }
  | { readonly type: 'add-file'; readonly file: string }
  | { readonly type: 'name-typed'; readonly name: string }
  | { readonly type: 'renamed'; readonly name: string }
  | { readonly type: 'message'; readonly message: DraftViewState['message'] }
  | { readonly type: 'busy'; readonly busy: boolean }
  | { readonly type: 'edited'; readonly file: string; readonly text: string }
  | { readonly type: 'replaced'; readonly yareText: string | undefined; readonly transcript: string | null };

export const initialDraftView: DraftViewState = {
  draft: undefined,
  loadError: '',
  fileNames: [],
  active: 'yare.yaml',
  name: '',
  savedName: '',
  message: undefined,
  busy: false,
  yareText: '',
  transcript: null,
};

/**
 * The tabs a draft opens with: the main files, then the others it has; no `yare.yaml` tab when the rules
 * are in `yare.js` or `yare.ts` only.
 */
export function openFiles(files: DraftView['files']): string[] {
  return [...MAIN_FILES, ...OTHER_FILES.filter((n) => files[n] !== undefined)].filter(
    (n) =>
      n !== 'yare.yaml' ||
      files['yare.yaml'] !== undefined ||
      !RULES_FILES.some((r) => files[r] !== undefined),
  );
}

export function draftViewReducer(state: DraftViewState, action: DraftViewAction): DraftViewState {
  switch (action.type) {
    case 'loaded': {
      const fileNames = openFiles(action.draft.files);
      return {
        ...state,
        draft: action.draft,
        fileNames,
        active: fileNames[0] ?? 'yare.yaml',
        name: action.draft.name,
        savedName: action.draft.name,
        yareText: action.draft.files['yare.yaml'] ?? '',
        transcript: action.draft.transcript,
      };
    }
    case 'load-failed':
      return { ...state, loadError: action.message };
    case 'select':
      return state.fileNames.includes(action.file) ? { ...state, active: action.file } : state;
    case 'add-file':
      if (action.file === '' || state.fileNames.includes(action.file)) return state;
      return { ...state, fileNames: [...state.fileNames, action.file], active: action.file };
    case 'name-typed':
      return { ...state, name: action.name };
    case 'renamed':
      return {
        ...state,
        savedName: action.name,
        message: { kind: 'ok', text: `Renamed to ${action.name}.` },
      };
    case 'message':
      return { ...state, message: action.message };
    case 'busy':
      return action.busy ? { ...state, busy: true, message: undefined } : { ...state, busy: false };
    case 'edited':
      return action.file === 'yare.yaml' ? { ...state, yareText: action.text } : state;
    case 'replaced':
      return {
        ...state,
        ...(action.yareText === undefined ? {} : { yareText: action.yareText }),
        transcript: action.transcript,
      };
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}
