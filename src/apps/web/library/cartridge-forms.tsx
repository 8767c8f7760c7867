// The owner's forms of a cartridge in the Library: its details (title, genre, tags, description), its
// cover, and replacing one of its files as a new version.
import { useState } from 'preact/hooks';
import type { CartridgeDetail } from '../../contract/index.ts';
import {
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
} from '../../../adapters/store/library-limits.ts';
import { CARTRIDGE_FILE_NAMES, tagsOf } from './listing.ts';
import { TextField } from './outcome.tsx';
import { SelectField } from '../ui/select-field.tsx';

export function MetadataForm(props: {
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

export function CoverForm(props: {
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

export function FileUpdate(props: {
  onUpload: (file: string, content: Blob, tag?: string, notes?: string) => Promise<boolean>;
}) {
  const [name, setName] = useState<string>(CARTRIDGE_FILE_NAMES[0]);
  const [file, setFile] = useState<File | null>(null);
  const [tag, setTag] = useState('');
  const [notes, setNotes] = useState('');
  const upload = (e: Event): void => {
    e.preventDefault();
    if (!file) return;
    void props.onUpload(name, file, tag.trim() || undefined, notes.trim() || undefined).then((ok) => {
      if (ok) {
        setTag('');
        setNotes('');
      }
    });
  };
  return (
    <form
      data-testid="file-update"
      style={{ display: 'grid', gap: '0.5rem', marginTop: '0.5rem' }}
      onSubmit={upload}
    >
      <fieldset>
        <legend>Replace one file (a new version)</legend>
        <SelectField
          label="File"
          testId="file-name"
          value={name}
          choices={CARTRIDGE_FILE_NAMES.map((n) => ({ value: n, label: n }))}
          onChange={setName}
        />
        <label>
          New content
          <input
            type="file"
            data-testid="file-content"
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        </label>
        <VersionNoteFields tag={tag} notes={notes} onTag={setTag} onNotes={setNotes} />
        <button type="submit" disabled={!file} data-testid="file-submit">
          Upload file
        </button>
      </fieldset>
    </form>
  );
}

/** The new version's optional tag and notes. */
function VersionNoteFields(props: {
  tag: string;
  notes: string;
  onTag: (tag: string) => void;
  onNotes: (notes: string) => void;
}) {
  return (
    <>
      <TextField
        label="Version tag (optional)"
        testId="file-tag"
        value={props.tag}
        onChange={props.onTag}
        maxLength={MAX_VERSION_TAG_CHARS}
      />
      <TextField
        label="Version notes (optional)"
        testId="file-notes"
        value={props.notes}
        onChange={props.onNotes}
        maxLength={MAX_VERSION_NOTES_CHARS}
      />
    </>
  );
}
