// The form that starts a game: a cartridge, one of its versions (newest first), a persona, an optional seed
// (checked before it is sent) and title; an untitled game is named after its cartridge.
import { useEffect, useState } from 'preact/hooks';
import type { CartridgeView, LibraryVersionView, PersonaView } from '../../contract/index.ts';
import { useClient } from '../app/context.ts';
import { seedError } from '../lib/forms.ts';
import { formatWhen } from '../lib/when.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { LibraryApi } from './library-api.ts';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The versions of the chosen cartridge (a cartridge id), newest first, and the one chosen of them. */
function useVersions(api: LibraryApi, cartridgeId: string) {
  const [versions, setVersions] = useState<readonly LibraryVersionView[]>([]);
  const [version, setVersion] = useState('');
  useEffect(() => {
    if (!cartridgeId) return;
    api
      .versions(cartridgeId)
      .then((v) => {
        setVersions(v);
        setVersion(v[0]?.id ?? ''); // newest first
      })
      .catch(() => setVersions([]));
  }, [cartridgeId]);
  return { versions, version, setVersion };
}

interface NewGameProps {
  cartridges: readonly CartridgeView[];
  personas: readonly PersonaView[];
  onStarted: (id: string) => void;
}

/** The form's state: the choices, seed and title, and `start`, which creates the game. */
function useNewGame(props: NewGameProps) {
  const api = useClient(LibraryApi);
  const [cartridge, setCartridge] = useState('');
  const [persona, setPersona] = useState('');
  const [seed, setSeed] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  /** A cartridge id (another player's public cartridge has no name of the caller's to go by). */
  const chosen = cartridge || props.cartridges[0]?.id || '';
  const chosenTitle = props.cartridges.find((c) => c.id === chosen)?.title ?? chosen;
  const { versions, version, setVersion } = useVersions(api, chosen);
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
  const choices = { chosen, setCartridge, versions, version, setVersion, persona, setPersona };
  return { ...choices, seed, setSeed, seedProblem, title, setTitle, error, busy, start };
}

export function NewGame(props: NewGameProps) {
  const form = useNewGame(props);
  return (
    <section class="card" aria-labelledby="new-game-h">
      <h2 id="new-game-h">New game</h2>
      <form onSubmit={form.start} style={{ display: 'grid', gap: '0.5rem' }}>
        <GameChoices form={form} cartridges={props.cartridges} personas={props.personas} />
        <label>
          Seed (optional)
          <input
            data-testid="new-seed"
            inputMode="numeric"
            value={form.seed}
            aria-invalid={form.seedProblem ? 'true' : 'false'}
            aria-describedby="seed-error"
            onInput={(e) => form.setSeed(e.currentTarget.value)}
          />
        </label>
        <span id="seed-error" class="error">
          {form.seedProblem}
        </span>
        <label>
          Title (optional)
          <input value={form.title} maxLength={200} onInput={(e) => form.setTitle(e.currentTarget.value)} />
        </label>
        <button
          type="submit"
          class="primary"
          disabled={form.busy || !form.chosen || form.seedProblem !== ''}
          data-testid="start-game"
        >
          Start game
        </button>
        <ErrorAlert text={form.error} />
      </form>
    </section>
  );
}

/** The cartridge, its version and the persona. */
function GameChoices({
  form,
  cartridges,
  personas,
}: {
  form: ReturnType<typeof useNewGame>;
  cartridges: readonly CartridgeView[];
  personas: readonly PersonaView[];
}) {
  return (
    <>
      <SelectField
        label="Cartridge"
        testId="new-cartridge"
        value={form.chosen}
        choices={cartridges.map((c) => ({ value: c.id, label: c.title }))}
        onChange={form.setCartridge}
      />
      <SelectField
        label="Version"
        testId="new-version"
        value={form.version}
        choices={form.versions.map((v) => ({
          value: v.id,
          label: `${v.contentHash.slice(0, 12)} — ${formatWhen(v.createdAt)}`,
        }))}
        onChange={form.setVersion}
      />
      <SelectField
        label="Persona"
        testId="new-persona"
        value={form.persona}
        choices={[{ value: '', label: '(none)' }, ...personas.map((p) => ({ value: p.id, label: p.name }))]}
        onChange={form.setPersona}
      />
    </>
  );
}
