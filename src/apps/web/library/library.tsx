// Library: the cartridges the player may start (their own, the server's, and other players' public ones),
// each with its title, genre, tags and visibility and a "Manage" panel (cartridge-manager.tsx); uploading
// one (its problems listed as file:line:col); a form to start a game (new-game.tsx) and the player's games
// to resume or delete.
import { useState } from 'preact/hooks';
import type { CartridgeView, PersonaView } from '../../contract/index.ts';
import { useApp, useClient } from '../app/context.ts';
import { PersonaManager } from '../personas/persona-manager.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { CartridgeManager } from './cartridge-manager.tsx';
import { GamesList } from './games-list.tsx';
import { LibraryApi } from './library-api.ts';
import { byteSize } from './listing.ts';
import { NewGame } from './new-game.tsx';
import { UploadForm } from './upload-form.tsx';
import { useLibraryLists } from './use-library-lists.ts';

export function Library() {
  const { navigate } = useApp();
  const api = useClient(LibraryApi);
  /** Whether the list includes the player's archived cartridges (to manage or unarchive them). */
  const [showArchived, setShowArchived] = useState(false);
  /** The cartridge whose Manage panel is open. */
  const [managing, setManaging] = useState<string | undefined>(undefined);
  const [personas, setPersonas] = useState<readonly PersonaView[]>([]);
  const lists = useLibraryLists(api, showArchived);
  const { cartridges, storage } = lists;
  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="cartridges-h">
        <h2 id="cartridges-h">Cartridges</h2>
        <ErrorAlert text={lists.error} />
        <CartridgeList cartridges={cartridges} managing={managing} onManage={setManaging} />
        <Checkbox
          label="Show my archived cartridges"
          testId="show-archived-cartridges"
          checked={showArchived}
          onChange={setShowArchived}
        />
        {storage ? (
          <p class="muted" data-testid="storage">
            Your storage: {byteSize(storage.usedBytes)} of {byteSize(storage.quotaBytes)} (cartridges{' '}
            {byteSize(storage.cartridgeBytes + storage.coverBytes)}, drafts {byteSize(storage.draftBytes)},
            pictures {byteSize(storage.pictureBytes)})
          </p>
        ) : null}
        <UploadForm api={api} onUploaded={lists.refresh} />
      </section>
      {managing !== undefined ? (
        <CartridgeManager
          key={managing}
          api={api}
          cartridgeId={managing}
          onChanged={() => void lists.refresh()}
          onClose={() => setManaging(undefined)}
        />
      ) : null}
      <NewGame
        cartridges={cartridges.filter((c) => !c.archived)}
        personas={personas}
        onStarted={(id) => navigate(`#/play/${encodeURIComponent(id)}`)}
      />
      <PersonaManager onChanged={setPersonas} />
      <GamesList api={api} lists={lists} />
    </div>
  );
}

/** The cartridges, each with what it is, whose it is and a button to manage it (or see its details). */
function CartridgeList(props: {
  cartridges: readonly CartridgeView[];
  managing: string | undefined;
  onManage: (id: string | undefined) => void;
}) {
  return (
    <ul class="list-plain" data-testid="cartridge-list">
      {props.cartridges.map((c) => (
        <li key={c.id} data-testid="cartridge-item" data-cartridge={c.name}>
          <strong data-testid="cartridge-title">{c.title}</strong>
          {c.title !== c.name ? <span class="muted">{c.name}</span> : null}
          {c.genre ? (
            <span class="muted" data-testid="cartridge-genre">
              {c.genre}
            </span>
          ) : null}
          <span class="muted" data-testid="cartridge-visibility">
            {c.visibility}
            {c.owner === 'other' ? ', shared by another player' : ''}
          </span>
          <span class="muted">
            {c.versionCount} version{c.versionCount === 1 ? '' : 's'}
          </span>
          {c.archived ? (
            <span class="chip" data-testid="cartridge-archived">
              archived
            </span>
          ) : null}
          <button
            type="button"
            data-testid="cartridge-manage"
            aria-expanded={props.managing === c.id}
            aria-label={`${c.canEdit ? 'Manage' : 'Details of'} ${c.title}`}
            onClick={() => props.onManage(props.managing === c.id ? undefined : c.id)}
          >
            {c.canEdit ? 'Manage' : 'Details'}
          </button>
        </li>
      ))}
      {props.cartridges.length === 0 ? <li class="muted">No cartridges yet.</li> : null}
    </ul>
  );
}
