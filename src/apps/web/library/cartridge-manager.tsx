// One cartridge in the library: its metadata and cover, its visibility, its versions with tags and notes,
// archiving and deleting (each delete asks for confirmation first), and replacing one file as a new
// version (problems shown as file:line:col). Only the owner gets the controls that change anything; every
// control is a native button, input or select, so the page works from the keyboard alone.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CartridgeDetail, LibraryVersionView } from '../../contract/index.ts';
import type { LibraryApi } from './library-api.ts';
import { CARTRIDGE_FILE_NAMES, tagsOf } from './listing.ts';
import {
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
} from '../../../adapters/store/library-limits.ts';
import { failedOutcome as failed, type Outcome, OutcomeView, TextField } from './outcome.tsx';
import { formatWhen, isoWhen } from '../lib/when.ts';
import { Checkbox } from '../ui/checkbox.tsx';

/**
 * A delete button that asks first: the first press shows "Confirm" and "Cancel" (focus on Cancel, so a
 * second Enter does not delete by accident); Escape cancels.
 */
function ConfirmDelete(props: { label: string; question: string; testId: string; onConfirm: () => void }) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  const close = (): void => {
    setAsking(false);
    setTimeout(() => opener.current?.focus(), 0);
  };
  if (!asking) {
    return (
      <button type="button" ref={opener} data-testid={props.testId} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <fieldset
      aria-label={props.question}
      style={{ display: 'inline', border: 0, margin: 0, padding: 0 }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <span class="error">{props.question}</span>{' '}
      <button
        type="button"
        class="primary"
        data-testid={`${props.testId}-confirm`}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        Confirm
      </button>{' '}
      <button type="button" ref={cancel} data-testid={`${props.testId}-cancel`} onClick={close}>
        Cancel
      </button>
    </fieldset>
  );
}

export function CartridgeManager(props: {
  api: LibraryApi;
  cartridgeId: string;
  /** The library list changed (metadata, versions, deletion). */
  onChanged: () => void;
  onClose: () => void;
}) {
  const { api, cartridgeId } = props;
  const [detail, setDetail] = useState<CartridgeDetail | undefined>(undefined);
  const [showArchived, setShowArchived] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [cover, setCover] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = async (): Promise<void> => {
    try {
      setDetail(await api.get(cartridgeId, showArchived));
    } catch (e) {
      setOutcome(failed(e));
    }
  };
  useEffect(() => {
    void load();
  }, [cartridgeId, showArchived]);
  // The panel takes the focus once its heading exists, so a keyboard user lands in what they opened.
  const loaded = detail !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const coverStamp = detail?.cartridge.cover?.updatedAt;
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    if (coverStamp === undefined) {
      setCover(undefined);
      return;
    }
    api
      .coverUrl(cartridgeId)
      .then((u) => {
        url = u;
        if (live) setCover(u);
        else URL.revokeObjectURL(u);
      })
      .catch(() => setCover(undefined));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [cartridgeId, coverStamp]);

  /** Runs a change, then reloads this cartridge and the library list. */
  const change = async (work: () => Promise<unknown>, message: string): Promise<boolean> => {
    setOutcome({ kind: 'busy' });
    try {
      await work();
      setOutcome({ kind: 'ok', message });
      await load();
      props.onChanged();
      return true;
    } catch (e) {
      setOutcome(failed(e));
      return false;
    }
  };

  if (detail === undefined) {
    return (
      <section class="card" aria-label="Cartridge" data-testid="cartridge-manager">
        <OutcomeView outcome={outcome} testId="manage-result" />
        <p class="muted">Loading…</p>
      </section>
    );
  }
  const { cartridge, versions } = detail;
  const editable = cartridge.canEdit;

  return (
    <section
      class="card"
      aria-labelledby="manage-h"
      data-testid="cartridge-manager"
      style={{ gridColumn: '1 / -1' }}
    >
      <div class="row" style={{ justifyContent: 'space-between' }}>
        <h2 id="manage-h" tabIndex={-1} ref={heading}>
          {cartridge.title} <span class="muted">({cartridge.name})</span>
        </h2>
        <button type="button" onClick={props.onClose} data-testid="manage-close">
          Close
        </button>
      </div>
      <div class="row" style={{ alignItems: 'flex-start', gap: '1rem' }}>
        {cover ? (
          <img
            src={cover}
            alt={`Cover of ${cartridge.title}`}
            data-testid="cover-image"
            style={{ maxWidth: '160px', maxHeight: '160px', borderRadius: '6px' }}
          />
        ) : null}
        <div style={{ flex: 1 }}>
          <p data-testid="manage-visibility">
            {cartridge.visibility === 'public' ? 'Public: every key may play it' : 'Private: only its owner'}
            {cartridge.archived ? ' · archived: not listed or startable' : ''}
            {cartridge.owner === 'other' ? ' · another player’s cartridge' : ''}
          </p>
          {cartridge.genre ? <p class="muted">Genre: {cartridge.genre}</p> : null}
          {cartridge.tags.length > 0 ? (
            <ul class="chips" aria-label="Tags" style={{ listStyle: 'none', padding: 0 }}>
              {cartridge.tags.map((t) => (
                <li class="chip" key={t}>
                  {t}
                </li>
              ))}
            </ul>
          ) : null}
          {cartridge.description ? <p style={{ whiteSpace: 'pre-wrap' }}>{cartridge.description}</p> : null}
        </div>
      </div>
      <OutcomeView outcome={outcome} testId="manage-result" />
      {editable ? (
        <>
          <label style={{ flexDirection: 'row', alignItems: 'center', gap: '0.5rem' }}>
            <input
              type="checkbox"
              role="switch"
              data-testid="visibility-toggle"
              checked={cartridge.visibility === 'public'}
              aria-checked={cartridge.visibility === 'public'}
              onChange={(e) => {
                const pub = (e.currentTarget as HTMLInputElement).checked;
                void change(
                  () => api.update(cartridge.id, { visibility: pub ? 'public' : 'private' }),
                  pub ? 'Now public' : 'Now private',
                );
              }}
            />
            Public (every key may list and play it)
          </label>
          <MetadataForm
            key={cartridge.updatedAt}
            cartridge={cartridge}
            onSave={(patch) => change(() => api.update(cartridge.id, patch), 'Saved')}
          />
          <CoverForm
            hasCover={cartridge.cover !== null}
            onUpload={(file) => change(() => api.setCover(cartridge.id, file), 'Cover saved')}
            onRemove={() => change(() => api.removeCover(cartridge.id), 'Cover removed')}
          />
          <FileUpdate
            onUpload={async (file, content, tag, notes) => {
              setOutcome({ kind: 'busy' });
              try {
                const result = await api.putFile(cartridge.id, file, content, { tag, notes });
                setOutcome({
                  kind: 'ok',
                  message: result.created
                    ? `New version ${result.version.contentHash.slice(0, 12)} with the new ${file}`
                    : `Those files were already version ${result.version.contentHash.slice(0, 12)}`,
                });
                await load();
                props.onChanged();
                return true;
              } catch (e) {
                setOutcome(failed(e));
                return false;
              }
            }}
          />
        </>
      ) : null}
      <h3>Versions</h3>
      {editable ? (
        <Checkbox
          label="Show archived versions"
          testId="show-archived"
          checked={showArchived}
          onChange={setShowArchived}
        />
      ) : null}
      <ul class="list-plain" data-testid="version-list">
        {versions.map((v) => (
          <VersionItem
            key={`${v.id}:${v.tag}:${v.notes}:${v.archived}`}
            version={v}
            editable={editable}
            onSave={(patch, message) => change(() => api.updateVersion(v.id, patch), message)}
            onDelete={() => change(() => api.deleteVersion(v.id), 'Version deleted')}
          />
        ))}
        {versions.length === 0 ? <li class="muted">No versions listed.</li> : null}
      </ul>
      {editable ? (
        <div class="row" style={{ marginTop: '1rem' }}>
          <button
            type="button"
            data-testid="archive-cartridge"
            onClick={() =>
              void change(
                () => api.update(cartridge.id, { archived: !cartridge.archived }),
                cartridge.archived
                  ? 'Cartridge unarchived'
                  : 'Cartridge archived: no longer listed or startable',
              )
            }
          >
            {cartridge.archived ? 'Unarchive cartridge' : 'Archive cartridge'}
          </button>
          <ConfirmDelete
            label="Delete cartridge"
            question={`Delete ${cartridge.title} and every version?`}
            testId="delete-cartridge"
            onConfirm={() => {
              void (async () => {
                setOutcome({ kind: 'busy' });
                try {
                  await api.remove(cartridge.id);
                  props.onChanged();
                  props.onClose();
                } catch (e) {
                  setOutcome(failed(e));
                }
              })();
            }}
          />
        </div>
      ) : null}
    </section>
  );
}

function MetadataForm(props: {
  cartridge: CartridgeDetail['cartridge'];
  onSave: (patch: { title: string; description: string; genre: string; tags: string[] }) => Promise<boolean>;
}) {
  const c = props.cartridge;
  const [title, setTitle] = useState(c.title);
  const [description, setDescription] = useState(c.description);
  const [genre, setGenre] = useState(c.genre);
  const [tags, setTags] = useState(c.tags.join(', '));
  return (
    <form
      data-testid="metadata-form"
      style={{ display: 'grid', gap: '0.5rem', marginTop: '0.5rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSave({ title: title.trim(), description, genre: genre.trim(), tags: tagsOf(tags) });
      }}
    >
      <TextField
        label="Title"
        testId="meta-title"
        value={title}
        onChange={setTitle}
        maxLength={MAX_TITLE_CHARS}
        required
      />
      <TextField
        label="Genre"
        testId="meta-genre"
        value={genre}
        onChange={setGenre}
        maxLength={MAX_GENRE_CHARS}
      />
      <TextField label="Tags (comma-separated)" testId="meta-tags" value={tags} onChange={setTags} />
      <label>
        Description
        <textarea
          data-testid="meta-description"
          value={description}
          maxLength={MAX_DESCRIPTION_CHARS}
          rows={3}
          onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit" data-testid="meta-save">
        Save details
      </button>
    </form>
  );
}

function CoverForm(props: {
  hasCover: boolean;
  onUpload: (file: File) => Promise<boolean>;
  onRemove: () => Promise<boolean>;
}) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <form
      class="row"
      style={{ marginTop: '0.5rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        if (file) void props.onUpload(file);
      }}
    >
      <label>
        Cover image (PNG, JPEG, WebP or GIF, up to 256 KiB)
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          data-testid="cover-file"
          onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
        />
      </label>
      <button type="submit" disabled={!file} data-testid="cover-submit">
        Set cover
      </button>
      {props.hasCover ? (
        <button type="button" data-testid="cover-remove" onClick={() => void props.onRemove()}>
          Remove cover
        </button>
      ) : null}
    </form>
  );
}

function FileUpdate(props: {
  onUpload: (file: string, content: Blob, tag?: string, notes?: string) => Promise<boolean>;
}) {
  const [name, setName] = useState<string>(CARTRIDGE_FILE_NAMES[0]);
  const [file, setFile] = useState<File | null>(null);
  const [tag, setTag] = useState('');
  const [notes, setNotes] = useState('');
  return (
    <form
      data-testid="file-update"
      style={{ display: 'grid', gap: '0.5rem', marginTop: '0.5rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        if (!file) return;
        void props.onUpload(name, file, tag.trim() || undefined, notes.trim() || undefined).then((ok) => {
          if (ok) {
            setTag('');
            setNotes('');
          }
        });
      }}
    >
      <fieldset>
        <legend>Replace one file (a new version)</legend>
        <label>
          File
          <select
            data-testid="file-name"
            value={name}
            onChange={(e) => setName((e.currentTarget as HTMLSelectElement).value)}
          >
            {CARTRIDGE_FILE_NAMES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          New content
          <input
            type="file"
            data-testid="file-content"
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        </label>
        <TextField
          label="Version tag (optional)"
          testId="file-tag"
          value={tag}
          onChange={setTag}
          maxLength={MAX_VERSION_TAG_CHARS}
        />
        <TextField
          label="Version notes (optional)"
          testId="file-notes"
          value={notes}
          onChange={setNotes}
          maxLength={MAX_VERSION_NOTES_CHARS}
        />
        <button type="submit" disabled={!file} data-testid="file-submit">
          Upload file
        </button>
      </fieldset>
    </form>
  );
}

function VersionItem(props: {
  version: LibraryVersionView;
  editable: boolean;
  onSave: (
    patch: { tag?: string | null; notes?: string | null; archived?: boolean },
    message: string,
  ) => Promise<boolean>;
  onDelete: () => void;
}) {
  const v = props.version;
  const [editing, setEditing] = useState(false);
  const [tag, setTag] = useState(v.tag ?? '');
  const [notes, setNotes] = useState(v.notes ?? '');
  const label = v.tag ?? v.contentHash.slice(0, 12);
  return (
    <li data-testid="version-item" data-version={v.id} style={{ display: 'grid', gap: '0.25rem' }}>
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
      {v.notes ? (
        <span data-testid="version-notes" style={{ whiteSpace: 'pre-wrap' }}>
          {v.notes}
        </span>
      ) : null}
      {props.editable && editing ? (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void props
              .onSave(
                { tag: tag.trim() === '' ? null : tag.trim(), notes: notes.trim() === '' ? null : notes },
                'Version saved',
              )
              .then((ok) => {
                if (ok) setEditing(false);
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
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      {props.editable && !editing ? (
        <span class="row">
          <button
            type="button"
            data-testid="version-edit"
            aria-label={`Edit tag and notes of ${label}`}
            onClick={() => setEditing(true)}
          >
            Edit tag and notes
          </button>
          <button
            type="button"
            data-testid="version-archive"
            aria-label={`${v.archived ? 'Unarchive' : 'Archive'} ${label}`}
            onClick={() =>
              void props.onSave(
                { archived: !v.archived },
                v.archived ? 'Version unarchived' : 'Version archived',
              )
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
      ) : null}
    </li>
  );
}
