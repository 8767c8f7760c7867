// Library: the cartridges the player may start (their own, the server's, and other players' public ones),
// each with its title, genre, tags and visibility and a "Manage" panel (cartridge-manager.tsx); uploading
// one (its problems listed as file:line:col); a form to start a game (cartridge version, persona, seed) and
// the player's games to resume or delete.
import { useEffect, useState } from 'preact/hooks';
import type {
  CartridgeView,
  CartridgesView,
  LibraryVersionView,
  PersonaView,
  SessionView,
} from '../../contract/index.ts';
import { LibraryApi } from './library-api.ts';
import { byteSize, namesOfVersions } from './listing.ts';
import { seedError } from '../lib/forms.ts';
import { CartridgeManager } from './cartridge-manager.tsx';
import { useApp, useClient } from '../app/context.ts';
import { failedOutcome, type Outcome, OutcomeView } from './outcome.tsx';
import { PersonaManager } from '../personas/persona-manager.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { formatWhen, isoWhen } from '../lib/when.ts';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function Library() {
  const { navigate } = useApp();
  const api = useClient(LibraryApi);
  const [cartridges, setCartridges] = useState<readonly CartridgeView[]>([]);
  const [storage, setStorage] = useState<CartridgesView['storage'] | undefined>(undefined);
  /** Whether the list includes the player's archived cartridges (to manage or unarchive them). */
  const [showArchived, setShowArchived] = useState(false);
  /** The cartridge whose Manage panel is open. */
  const [managing, setManaging] = useState<string | undefined>(undefined);
  const [sessions, setSessions] = useState<readonly SessionView[]>([]);
  /** Where the next page of games starts; null when every game is shown. */
  const [moreSessions, setMoreSessions] = useState<string | null>(null);
  const [personas, setPersonas] = useState<readonly PersonaView[]>([]);
  const [error, setError] = useState('');
  const [upload, setUpload] = useState<Outcome>({ kind: 'idle' });
  const [file, setFile] = useState<File | null>(null);
  /** Cartridge name by version id, for the games list. */
  const [versionNames, setVersionNames] = useState<ReadonlyMap<string, string>>(new Map());

  const refresh = async (): Promise<void> => {
    try {
      // The personas come from the PersonaManager below (its onChanged), which reads them itself.
      const [listed, page] = await Promise.all([api.list(showArchived), api.sessions()]);
      const c = listed.cartridges;
      setCartridges(c);
      setStorage(listed.storage);
      setSessions(page.sessions);
      setMoreSessions(page.nextCursor);
      setError('');
      setVersionNames(await namesOfVersions(c, page.sessions, (id) => api.versions(id)));
    } catch (e) {
      setError(messageOf(e));
    }
  };
  useEffect(() => {
    void refresh();
  }, [showArchived]);

  const showMoreSessions = async (): Promise<void> => {
    if (moreSessions === null) return;
    try {
      const page = await api.sessions(moreSessions);
      const shown = [...sessions, ...page.sessions];
      setSessions(shown);
      setMoreSessions(page.nextCursor);
      setVersionNames(await namesOfVersions(cartridges, shown, (id) => api.versions(id)));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const onUpload = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (!file) return;
    setUpload({ kind: 'busy' });
    try {
      const result = await api.upload(file, file.name);
      setUpload({
        kind: 'ok',
        message: `Added ${result.version.name} (${result.version.contentHash.slice(0, 12)})`,
      });
      await refresh();
    } catch (e) {
      setUpload(failedOutcome(e));
    }
  };

  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="cartridges-h">
        <h2 id="cartridges-h">Cartridges</h2>
        <ErrorAlert text={error} />
        <ul class="list-plain" data-testid="cartridge-list">
          {cartridges.map((c) => (
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
                aria-expanded={managing === c.id}
                aria-label={`${c.canEdit ? 'Manage' : 'Details of'} ${c.title}`}
                onClick={() => setManaging(managing === c.id ? undefined : c.id)}
              >
                {c.canEdit ? 'Manage' : 'Details'}
              </button>
            </li>
          ))}
          {cartridges.length === 0 ? <li class="muted">No cartridges yet.</li> : null}
        </ul>
        <Checkbox
          label="Show my archived cartridges"
          testId="show-archived-cartridges"
          checked={showArchived}
          onChange={setShowArchived}
        />
        {storage ? (
          <p class="muted" data-testid="storage">
            Your storage: {byteSize(storage.usedBytes)} of {byteSize(storage.quotaBytes)} (cartridges{' '}
            {byteSize(storage.cartridgeBytes + storage.coverBytes)}, drafts {byteSize(storage.draftBytes)})
          </p>
        ) : null}
        <form onSubmit={onUpload} class="row" style={{ marginTop: '1rem' }}>
          <label>
            Upload a cartridge (.zip or .tar.gz) or import a SillyTavern card (.png, .json, .charx)
            <input
              type="file"
              accept=".zip,.tar.gz,.tgz,.png,.json,.charx,application/zip,application/gzip"
              data-testid="upload-file"
              onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
            />
          </label>
          <button type="submit" disabled={!file || upload.kind === 'busy'} data-testid="upload-submit">
            Upload
          </button>
        </form>
        <OutcomeView outcome={upload} testId="upload-result" problemsTestId="upload-problems" />
      </section>
      {managing !== undefined ? (
        <CartridgeManager
          key={managing}
          api={api}
          cartridgeId={managing}
          onChanged={() => void refresh()}
          onClose={() => setManaging(undefined)}
        />
      ) : null}
      <NewGame
        cartridges={cartridges.filter((c) => !c.archived)}
        personas={personas}
        onStarted={(id) => navigate(`#/play/${encodeURIComponent(id)}`)}
      />
      <PersonaManager onChanged={setPersonas} />
      <section class="card" aria-labelledby="games-h">
        <h2 id="games-h">Your games</h2>
        <ul class="list-plain games" data-testid="session-list">
          {sessions.map((s) => (
            <li key={s.id} data-testid="session-item">
              <span class="game-title">
                <strong>{s.title ?? versionNames.get(s.cartridgeVersionId) ?? 'Untitled game'}</strong>
                <span class="muted" data-testid="session-cartridge">
                  {versionNames.get(s.cartridgeVersionId) ?? 'cartridge no longer in the library'}
                </span>
              </span>
              <span class="muted" data-testid="session-turns">
                {Math.max(0, s.turnCount - 1)} turn{s.turnCount - 1 === 1 ? '' : 's'}
              </span>
              <span class="muted">
                last played <time dateTime={isoWhen(s.updatedAt)}>{formatWhen(s.updatedAt)}</time>
              </span>
              <a href={`#/play/${encodeURIComponent(s.id)}`}>Resume</a>
              <button
                type="button"
                onClick={async () => {
                  if (!confirm('Delete this game, its turns and saves?')) return;
                  await api.deleteSession(s.id).catch((e) => setError(messageOf(e)));
                  await refresh();
                }}
              >
                Delete
              </button>
            </li>
          ))}
          {sessions.length === 0 ? <li class="muted">No games yet.</li> : null}
        </ul>
        {moreSessions === null ? null : (
          <button type="button" data-testid="more-sessions" onClick={() => void showMoreSessions()}>
            More games
          </button>
        )}
      </section>
    </div>
  );
}

function NewGame(props: {
  cartridges: readonly CartridgeView[];
  personas: readonly PersonaView[];
  onStarted: (id: string) => void;
}) {
  const api = useClient(LibraryApi);
  const [cartridge, setCartridge] = useState('');
  const [versions, setVersions] = useState<readonly LibraryVersionView[]>([]);
  const [version, setVersion] = useState('');
  const [persona, setPersona] = useState('');
  const [seed, setSeed] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  /** A cartridge id (another player's public cartridge has no name of the caller's to go by). */
  const chosen = cartridge || props.cartridges[0]?.id || '';
  const chosenTitle = props.cartridges.find((c) => c.id === chosen)?.title ?? chosen;
  useEffect(() => {
    if (!chosen) return;
    api
      .versions(chosen)
      .then((v) => {
        setVersions(v);
        setVersion(v[0]?.id ?? ''); // newest first
      })
      .catch(() => setVersions([]));
  }, [chosen]);

  const seedProblem = seedError(seed);

  const start = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (seedProblem || !chosen) return;
    setBusy(true);
    setError('');
    try {
      const { session } = await api.createSession({
        cartridge: version || chosen,
        ...(persona ? { personaId: persona } : {}),
        ...(seed.trim() === '' ? {} : { seed: Number(seed) }),
        // An untitled game is named after its cartridge, so the games list says what it is.
        title: title.trim() === '' ? chosenTitle : title.trim(),
      });
      props.onStarted(session.id);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="new-game-h">
      <h2 id="new-game-h">New game</h2>
      <form onSubmit={start} style={{ display: 'grid', gap: '0.5rem' }}>
        <label>
          Cartridge
          <select
            data-testid="new-cartridge"
            value={chosen}
            onChange={(e) => setCartridge((e.currentTarget as HTMLSelectElement).value)}
          >
            {props.cartridges.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Version
          <select
            data-testid="new-version"
            value={version}
            onChange={(e) => setVersion((e.currentTarget as HTMLSelectElement).value)}
          >
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.contentHash.slice(0, 12)} — {formatWhen(v.createdAt)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Persona
          <select
            data-testid="new-persona"
            value={persona}
            onChange={(e) => setPersona((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">(none)</option>
            {props.personas.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Seed (optional)
          <input
            data-testid="new-seed"
            inputMode="numeric"
            value={seed}
            aria-invalid={seedProblem ? 'true' : 'false'}
            aria-describedby="seed-error"
            onInput={(e) => setSeed((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <span id="seed-error" class="error">
          {seedProblem}
        </span>
        <label>
          Title (optional)
          <input
            value={title}
            maxLength={200}
            onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button
          type="submit"
          class="primary"
          disabled={busy || !chosen || seedProblem !== ''}
          data-testid="start-game"
        >
          Start game
        </button>
        <ErrorAlert text={error} />
      </form>
    </section>
  );
}
