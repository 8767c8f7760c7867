// One version of a cartridge in the Library: its tag, hash, times, notes and whether it is archived; for
// the owner, editing its tag and notes, archiving and deleting it.
import { useState } from 'preact/hooks';
import type { LibraryVersionView } from '../../contract/index.ts';
import { MAX_VERSION_NOTES_CHARS, MAX_VERSION_TAG_CHARS } from '../../../adapters/store/library-limits.ts';
import { formatWhen, isoWhen } from '../lib/when.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { TextField } from './outcome.tsx';

type VersionPatch = { tag?: string | null; notes?: string | null; archived?: boolean };
type SaveVersion = (patch: VersionPatch, message: string) => Promise<boolean>;

export function VersionItem(props: {
  version: LibraryVersionView;
  editable: boolean;
  onSave: SaveVersion;
  onDelete: () => void;
}) {
  const v = props.version;
  const [editing, setEditing] = useState(false);
  return (
    <li data-testid="version-item" data-version={v.id} style={{ display: 'grid', gap: '0.25rem' }}>
      <VersionLine version={v} />
      {v.notes ? (
        <span data-testid="version-notes" style={{ whiteSpace: 'pre-wrap' }}>
          {v.notes}
        </span>
      ) : null}
      {props.editable && editing ? (
        <VersionEditForm version={v} onSave={props.onSave} onDone={() => setEditing(false)} />
      ) : null}
      {props.editable && !editing ? (
        <VersionControls
          version={v}
          onEdit={() => setEditing(true)}
          onSave={props.onSave}
          onDelete={props.onDelete}
        />
      ) : null}
    </li>
  );
}

/** The tag (or that there is none), the content hash, when it was made and added, and whether archived. */
function VersionLine({ version: v }: { version: LibraryVersionView }) {
  return (
    <span>
      <strong data-testid="version-tag">{v.tag ?? '(untagged)'}</strong>{' '}
      <code class="muted">{v.contentHash.slice(0, 12)}</code>{' '}
      <span class="muted">
        <time data-testid="version-time" dateTime={isoWhen(v.createdAt)}>
          {formatWhen(v.createdAt)}
        </time>
        {v.addedAt !== v.createdAt ? (
          <>
            {' '}
            (added to the library <time dateTime={isoWhen(v.addedAt)}>{formatWhen(v.addedAt)}</time>)
          </>
        ) : null}
      </span>
      {v.archived ? (
        <span class="chip" data-testid="version-archived">
          archived
        </span>
      ) : null}
    </span>
  );
}

function VersionEditForm(props: { version: LibraryVersionView; onSave: SaveVersion; onDone: () => void }) {
  const [tag, setTag] = useState(props.version.tag ?? '');
  const [notes, setNotes] = useState(props.version.notes ?? '');
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        const patch = {
          tag: tag.trim() === '' ? null : tag.trim(),
          notes: notes.trim() === '' ? null : notes,
        };
        void props.onSave(patch, 'Version saved').then((ok) => {
          if (ok) props.onDone();
        });
      }}
    >
      <TextField
        label="Tag"
        testId="version-tag-input"
        value={tag}
        onChange={setTag}
        maxLength={MAX_VERSION_TAG_CHARS}
      />
      <TextField
        label="Notes"
        testId="version-notes-input"
        value={notes}
        onChange={setNotes}
        maxLength={MAX_VERSION_NOTES_CHARS}
      />
      <button type="submit" data-testid="version-save">
        Save
      </button>
      <button type="button" onClick={props.onDone}>
        Cancel
      </button>
    </form>
  );
}

function VersionControls(props: {
  version: LibraryVersionView;
  onEdit: () => void;
  onSave: SaveVersion;
  onDelete: () => void;
}) {
  const v = props.version;
  const label = v.tag ?? v.contentHash.slice(0, 12);
  return (
    <span class="row">
      <button
        type="button"
        data-testid="version-edit"
        aria-label={`Edit tag and notes of ${label}`}
        onClick={props.onEdit}
      >
        Edit tag and notes
      </button>
      <button
        type="button"
        data-testid="version-archive"
        aria-label={`${v.archived ? 'Unarchive' : 'Archive'} ${label}`}
        onClick={() =>
          void props.onSave({ archived: !v.archived }, v.archived ? 'Version unarchived' : 'Version archived')
        }
      >
        {v.archived ? 'Unarchive' : 'Archive'}
      </button>
      <ConfirmDelete
        label="Delete version"
        question={`Delete version ${label}?`}
        testId="version-delete"
        onConfirm={props.onDelete}
      />
    </span>
  );
}
