// One cartridge in the library: its metadata and cover, its visibility, its versions with tags and notes,
// archiving and deleting (each delete asks for confirmation first), and replacing one file as a new
// version (problems shown as file:line:col). Only the owner gets the controls that change anything; every
// control is a native button, input or select, so the page works from the keyboard alone.
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { CartridgeDetail } from '../../contract/index.ts';
import { Checkbox } from '../ui/checkbox.tsx';
import { CoverForm, FileUpdate, MetadataForm } from './cartridge-forms.tsx';
import { ConfirmDelete } from './confirm-delete.tsx';
import type { LibraryApi } from './library-api.ts';
import { failedOutcome, OutcomeView } from './outcome.tsx';
import { useCartridgeDetail } from './use-cartridge-detail.ts';
import { VersionItem } from './version-item.tsx';

type Cartridge = CartridgeDetail['cartridge'];
type Change = ReturnType<typeof useCartridgeDetail>['change'];

export function CartridgeManager(props: {
  api: LibraryApi;
  cartridgeId: string;
  /** The library list changed (metadata, versions, deletion). */
  onChanged: () => void;
  onClose: () => void;
}) {
  const { api } = props;
  const manage = useCartridgeDetail(api, props.cartridgeId, props.onChanged);
  const { detail, outcome, change } = manage;
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel takes the focus once its heading exists, so a keyboard user lands in what they opened.
  const loaded = detail !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  if (detail === undefined) return <ManagerLoading outcome={outcome} />;
  const { cartridge, versions } = detail;
  const editable = cartridge.canEdit;
  const remove = async (): Promise<void> => {
    manage.setOutcome({ kind: 'busy' });
    try {
      await api.remove(cartridge.id);
      props.onChanged();
      props.onClose();
    } catch (e) {
      manage.setOutcome(failedOutcome(e));
    }
  };
  return (
    <section
      class="card"
      aria-labelledby="manage-h"
      data-testid="cartridge-manager"
      style={{ gridColumn: '1 / -1' }}
    >
      <ManagerHeading cartridge={cartridge} headingRef={heading} onClose={props.onClose} />
      <CartridgeSummary cartridge={cartridge} cover={manage.cover} />
      <OutcomeView outcome={outcome} testId="manage-result" />
      {editable ? <OwnerForms api={api} cartridge={cartridge} change={change} /> : null}
      <VersionsSection api={api} manage={manage} versions={versions} editable={editable} />
      {editable ? <CartridgeEnd api={api} cartridge={cartridge} change={change} onDelete={remove} /> : null}
    </section>
  );
}

/** The panel while the cartridge is read (or could not be: the outcome says why). */
function ManagerLoading({ outcome }: { outcome: ReturnType<typeof useCartridgeDetail>['outcome'] }) {
  return (
    <section class="card" aria-label="Cartridge" data-testid="cartridge-manager">
      <OutcomeView outcome={outcome} testId="manage-result" />
      <p class="muted">Loading…</p>
    </section>
  );
}

/** The cartridge's title and name (given the focus as the panel opens), and the button that closes it. */
function ManagerHeading(props: {
  cartridge: Cartridge;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onClose: () => void;
}) {
  return (
    <div class="row" style={{ justifyContent: 'space-between' }}>
      <h2 id="manage-h" tabIndex={-1} ref={props.headingRef}>
        {props.cartridge.title} <span class="muted">({props.cartridge.name})</span>
      </h2>
      <button type="button" onClick={props.onClose} data-testid="manage-close">
        Close
      </button>
    </div>
  );
}

/** The versions, each with its tag and notes (the owner may show archived ones, edit and delete them). */
function VersionsSection({
  api,
  manage,
  versions,
  editable,
}: {
  api: LibraryApi;
  manage: ReturnType<typeof useCartridgeDetail>;
  versions: CartridgeDetail['versions'];
  editable: boolean;
}) {
  const { change } = manage;
  return (
    <>
      <h3>Versions</h3>
      {editable ? (
        <Checkbox
          label="Show archived versions"
          testId="show-archived"
          checked={manage.showArchived}
          onChange={manage.setShowArchived}
        />
      ) : null}
      <ul class="list-plain" data-testid="version-list">
        {versions.map((v) => (
          <VersionItem
            key={`${v.id}:${v.tag}:${v.notes}:${v.archived}`}
            version={v}
            editable={editable}
            onSave={(patch, message) => change(() => api.updateVersion(v.id, patch), message)}
            onDelete={() => void change(() => api.deleteVersion(v.id), 'Version deleted')}
          />
        ))}
        {versions.length === 0 ? <li class="muted">No versions listed.</li> : null}
      </ul>
    </>
  );
}

/** The cover, visibility, genre, tags and description, as everyone who may see the cartridge sees them. */
function CartridgeSummary({ cartridge, cover }: { cartridge: Cartridge; cover: string | undefined }) {
  return (
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
  );
}

/** The owner's controls: the Public switch, the details, the cover, and replacing one file. */
function OwnerForms({ api, cartridge, change }: { api: LibraryApi; cartridge: Cartridge; change: Change }) {
  const isPublic = cartridge.visibility === 'public';
  return (
    <>
      <label style={{ flexDirection: 'row', alignItems: 'center', gap: '0.5rem' }}>
        <input
          type="checkbox"
          role="switch"
          data-testid="visibility-toggle"
          checked={isPublic}
          aria-checked={isPublic}
          onChange={(e) => {
            const pub = e.currentTarget.checked;
            const visibility = pub ? 'public' : 'private';
            void change(() => api.update(cartridge.id, { visibility }), pub ? 'Now public' : 'Now private');
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
        onUpload={(file, content, tag, notes) =>
          change(
            () =>
              api.putFile(cartridge.id, file, content, {
                ...(tag ? { tag } : {}),
                ...(notes ? { notes } : {}),
              }),
            (result) =>
              result.created
                ? `New version ${result.version.contentHash.slice(0, 12)} with the new ${file}`
                : `Those files were already version ${result.version.contentHash.slice(0, 12)}`,
          )
        }
      />
    </>
  );
}

/** Archiving the cartridge (or taking it back) and deleting it, after confirming. */
function CartridgeEnd(props: {
  api: LibraryApi;
  cartridge: Cartridge;
  change: Change;
  onDelete: () => void;
}) {
  const { cartridge } = props;
  return (
    <div class="row" style={{ marginTop: '1rem' }}>
      <button
        type="button"
        data-testid="archive-cartridge"
        onClick={() =>
          void props.change(
            () => props.api.update(cartridge.id, { archived: !cartridge.archived }),
            cartridge.archived ? 'Cartridge unarchived' : 'Cartridge archived: no longer listed or startable',
          )
        }
      >
        {cartridge.archived ? 'Unarchive cartridge' : 'Archive cartridge'}
      </button>
      <ConfirmDelete
        label="Delete cartridge"
        question={`Delete ${cartridge.title} and every version?`}
        testId="delete-cartridge"
        onConfirm={() => void props.onDelete()}
      />
    </div>
  );
}
