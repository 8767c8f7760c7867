// Personas: the player's characters (name, pronouns, a description), created, edited and deleted here (in
// the Library and in Settings) and chosen when a game starts or from the play screen. The chosen persona's
// name replaces "the player" in the story and reaches the models' prompts.
import { useEffect, useState } from 'preact/hooks';
import {
  MAX_PERSONA_NAME_CHARS,
  MAX_PERSONA_TEXT_CHARS,
  MAX_PERSONA_VOICE_CHARS,
} from '../../../core/cartridge/limits.ts';
import type { PersonaView } from '../../contract/index.ts';
import { type PersonaFields, PersonasApi } from './personas-api.ts';
import { failureText } from '../lib/errors.ts';
import { useApp, useClient } from '../app/context.ts';
import { PersonIcon } from '../ui/icons.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';

const PRONOUNS = {
  she: ['she', 'her', 'her', 'hers'],
  he: ['he', 'him', 'his', 'his'],
  they: ['they', 'them', 'their', 'theirs'],
  it: ['it', 'it', 'its', 'its'],
} as const;
type PronounSet = keyof typeof PRONOUNS;

function pronounsOf(persona: PersonaView): PronounSet {
  const found = (Object.keys(PRONOUNS) as PronounSet[]).find((k) => PRONOUNS[k][0] === persona.pronoun_sub);
  return found ?? 'they';
}

/** The optional fields the form edits: an edit that leaves one empty removes it (fieldsOf omits it). */
const FORM_OPTIONAL_CLEARED = { background: null, voice: null } as const;

function fieldsOf(name: string, pronouns: PronounSet, description: string, voice: string): PersonaFields {
  const [sub, obj, poss, possObj] = PRONOUNS[pronouns];
  return {
    name: name.trim(),
    pronoun_sub: sub,
    pronoun_obj: obj,
    pronoun_poss: poss,
    pronoun_poss_obj: possObj,
    ...(description.trim() === '' ? {} : { background: description.trim() }),
    ...(voice.trim() === '' ? {} : { voice: voice.trim() }),
  };
}

export function PersonaManager(props: { onChanged?: (personas: readonly PersonaView[]) => void }) {
  const api = useClient(PersonasApi);
  const [personas, setPersonas] = useState<readonly PersonaView[]>([]);
  const [editing, setEditing] = useState<PersonaView | 'new' | null>(null);
  const [problem, setProblem] = useState('');

  const refresh = async (): Promise<void> => {
    try {
      const list = await api.list();
      setPersonas(list);
      props.onChanged?.(list);
    } catch (e) {
      setProblem(failureText(e));
    }
  };
  useEffect(() => {
    void refresh();
  }, []);

  return (
    <section class="card" aria-labelledby="personas-h" data-testid="personas">
      <h2 id="personas-h">
        <PersonIcon /> Personas
      </h2>
      <p class="muted">Who you play. The name and description reach the story and the models.</p>
      <ul class="list-plain" data-testid="persona-list">
        {personas.map((p) => (
          <li key={p.id} data-testid="persona-item">
            <strong>{p.name}</strong>
            <span class="muted">
              {p.pronoun_sub}/{p.pronoun_obj}
              {p.background ? ` — ${p.background}` : ''}
            </span>
            <button type="button" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
              Edit
            </button>
            <button
              type="button"
              aria-label={`Delete ${p.name}`}
              data-testid="persona-delete"
              onClick={async () => {
                if (!confirm(`Delete the persona ${p.name}? Games that use it keep playing without it.`))
                  return;
                try {
                  await api.remove(p.id);
                  await refresh();
                } catch (e) {
                  setProblem(failureText(e));
                }
              }}
            >
              Delete
            </button>
          </li>
        ))}
        {personas.length === 0 ? <li class="muted">No personas yet.</li> : null}
      </ul>
      {editing === null ? (
        <button type="button" data-testid="persona-new" onClick={() => setEditing('new')}>
          New persona
        </button>
      ) : (
        <PersonaForm
          key={editing === 'new' ? 'new' : editing.id}
          persona={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSave={async (fields) => {
            try {
              if (editing === 'new') await api.create(fields);
              else await api.update(editing.id, { ...FORM_OPTIONAL_CLEARED, ...fields });
              setEditing(null);
              setProblem('');
              await refresh();
            } catch (e) {
              setProblem(failureText(e));
            }
          }}
        />
      )}
      <ErrorAlert text={problem} testId="persona-error" />
    </section>
  );
}

function PersonaForm(props: {
  persona: PersonaView | null;
  onSave: (fields: PersonaFields) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.persona?.name ?? '');
  const [pronouns, setPronouns] = useState<PronounSet>(props.persona ? pronounsOf(props.persona) : 'they');
  const [description, setDescription] = useState(props.persona?.background ?? '');
  const [voice, setVoice] = useState(props.persona?.voice ?? '');
  const { info } = useApp();
  const nameProblem = name.trim() === '' ? 'A persona needs a name.' : '';
  return (
    <form
      class="persona-form"
      data-testid="persona-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (nameProblem) return;
        void props.onSave(fieldsOf(name, pronouns, description, voice));
      }}
    >
      <label>
        Name
        <input
          data-testid="persona-name"
          value={name}
          maxLength={MAX_PERSONA_NAME_CHARS}
          aria-invalid={nameProblem ? 'true' : 'false'}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <label>
        Pronouns
        <select
          data-testid="persona-pronouns"
          value={pronouns}
          onChange={(e) => setPronouns((e.currentTarget as HTMLSelectElement).value as PronounSet)}
        >
          {(Object.keys(PRONOUNS) as PronounSet[]).map((k) => (
            <option key={k} value={k}>
              {PRONOUNS[k].slice(0, 2).join('/')}
            </option>
          ))}
        </select>
      </label>
      <label>
        Description
        <textarea
          data-testid="persona-description"
          rows={3}
          value={description}
          maxLength={MAX_PERSONA_TEXT_CHARS}
          onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      {info.speech === true ? (
        <label>
          Voice (your lines read aloud; a voice name of the server's speech provider)
          <input
            data-testid="persona-voice"
            value={voice}
            maxLength={MAX_PERSONA_VOICE_CHARS}
            onInput={(e) => setVoice((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
      ) : null}
      <div class="row">
        <button type="submit" class="primary" data-testid="persona-save" disabled={nameProblem !== ''}>
          Save persona
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
