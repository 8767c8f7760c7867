// The draft editor's bar: back to the drafts, the draft's name (renamed when the field is left), whether it
// is saved and valid, and its actions (save as version, test play, download, delete).
import type { CheckState, SaveState } from './draft-session.ts';

const SAVE_TEXT: Readonly<Record<SaveState, string>> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  failed: 'Not saved',
};

function checkText(check: CheckState): string {
  switch (check.kind) {
    case 'checking':
      return 'Checking…';
    case 'failed':
      return `Check failed: ${check.message}`;
    case 'done':
      return check.result.ok ? 'Valid' : `${check.result.errors.length} error(s)`;
    default: {
      const unreachable: never = check;
      return String(unreachable);
    }
  }
}

export interface DraftActions {
  readonly saveVersion: () => void;
  readonly testPlay: () => void;
  readonly download: () => void;
  readonly remove: () => void;
}

export function DraftToolbar(props: {
  name: string;
  onName: (name: string) => void;
  onRename: () => void;
  save: SaveState;
  check: CheckState;
  busy: boolean;
  actions: DraftActions;
}) {
  const { busy, check, actions } = props;
  const valid = check.kind === 'done' && check.result.ok;
  return (
    <div class="toolbar builder-bar">
      <a href="#/builder">Drafts</a>
      <label>
        Draft name{' '}
        <input
          value={props.name}
          onInput={(e) => props.onName(e.currentTarget.value)}
          onBlur={props.onRename}
          data-testid="draft-name"
        />
      </label>
      <span class="muted" data-testid="save-state" aria-live="polite">
        {SAVE_TEXT[props.save]}
      </span>
      {/* aria-busy while checking: a screen reader announces the result, not every "Checking…". */}
      <span
        data-testid="check-state"
        aria-live="polite"
        aria-busy={check.kind === 'checking'}
        class={valid ? 'ok' : 'muted'}
      >
        {checkText(check)}
      </span>
      <button
        type="button"
        disabled={busy || !valid}
        onClick={actions.saveVersion}
        data-testid="save-version"
      >
        Save as version
      </button>
      <button type="button" disabled={busy || !valid} onClick={actions.testPlay} data-testid="test-play">
        Test play
      </button>
      <button type="button" disabled={busy} onClick={actions.download} data-testid="download-zip">
        Download .zip
      </button>
      <button type="button" disabled={busy} onClick={actions.remove} data-testid="delete-draft">
        Delete draft
      </button>
    </div>
  );
}

/** A save refused because the draft was saved elsewhere: load the other version, or keep this one. */
export function ConflictNotice(props: { onTheirs: () => void; onMine: () => void }) {
  return (
    <div class="notice" role="alert" data-testid="draft-conflict">
      <p>
        This draft was saved elsewhere (another tab or window) after this page read it. Your changes here are
        not saved.
      </p>
      <button type="button" onClick={props.onTheirs} data-testid="conflict-theirs">
        Load the other version
      </button>{' '}
      <button type="button" onClick={props.onMine} data-testid="conflict-mine">
        Keep mine (overwrite it)
      </button>
    </div>
  );
}
