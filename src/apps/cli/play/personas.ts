// `/persona` in the terminal: the player's characters (name, pronouns, a description), kept in the same
// store as the browser's, so a persona made here is offered there too. The chosen persona is the session's
// from the next turn on: its name replaces "the player" in offline narration and reaches the prompts.

import { validatePersona } from '../../../core/cartridge/index.ts';
import type { Persona as StoredPersona, Session, Store } from '../../../adapters/store/index.ts';
import { splitWords } from './words.ts';
import { isRecord } from '../../../core/is-record.ts';

export type PersonaAction =
  | { readonly kind: 'list' }
  | {
      readonly kind: 'new';
      readonly name: string;
      readonly pronouns: Pronouns;
      readonly description?: string;
    }
  | {
      readonly kind: 'edit';
      readonly name: string;
      readonly fields: ReadonlyArray<readonly [string, string]>;
    }
  | { readonly kind: 'use'; readonly name: string | null }
  | { readonly kind: 'delete'; readonly name: string };

export type Pronouns = 'she' | 'he' | 'they' | 'it';

const PRONOUNS: Readonly<Record<Pronouns, readonly [string, string, string, string]>> = {
  she: ['she', 'her', 'her', 'hers'],
  he: ['he', 'him', 'his', 'his'],
  they: ['they', 'them', 'their', 'theirs'],
  it: ['it', 'it', 'its', 'its'],
};

/** Fields `/persona edit` may set; `description` is the persona's background. */
const EDITABLE = ['name', 'pronouns', 'description', 'appearance', 'background', 'personality'] as const;

export const PERSONA_USAGE =
  'usage: /persona | /persona new NAME [she|he|they|it] [-- description] | /persona edit NAME field=value… | /persona use NAME|none | /persona delete NAME';

function isPronouns(word: string): word is Pronouns {
  return Object.hasOwn(PRONOUNS, word);
}

export function parsePersonaCommand(rest: string): PersonaAction | { error: string } {
  const [head, description] = splitOnce(rest, ' -- ');
  const words = splitWords(head);
  if (!Array.isArray(words)) return { error: `/persona: ${words.error}` };
  const [verb, ...args] = words;
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'list':
      return { kind: 'list' };
    case 'new': {
      const last = args.at(-1)?.toLowerCase();
      const pronouns: Pronouns = last !== undefined && isPronouns(last) ? last : 'they';
      const nameWords = last !== undefined && isPronouns(last) ? args.slice(0, -1) : args;
      const name = nameWords.join(' ').trim();
      if (name === '') return { error: PERSONA_USAGE };
      return description === undefined
        ? { kind: 'new', name, pronouns }
        : { kind: 'new', name, pronouns, description: description.trim() };
    }
    case 'edit': {
      const fields: [string, string][] = [];
      const nameWords: string[] = [];
      for (const word of args) {
        const eq = word.indexOf('=');
        if (eq > 0) fields.push([word.slice(0, eq).toLowerCase(), word.slice(eq + 1)]);
        else if (fields.length === 0) nameWords.push(word);
        else return { error: `/persona edit: '${word}' is not field=value` };
      }
      if (description !== undefined) fields.push(['description', description.trim()]);
      const bad = fields.find(([key]) => !(EDITABLE as readonly string[]).includes(key));
      if (bad !== undefined)
        return { error: `/persona edit: unknown field '${bad[0]}' (fields: ${EDITABLE.join(', ')})` };
      if (nameWords.length === 0 || fields.length === 0) return { error: PERSONA_USAGE };
      return { kind: 'edit', name: nameWords.join(' '), fields };
    }
    case 'use': {
      const name = args.join(' ').trim();
      if (name === '') return { error: PERSONA_USAGE };
      return { kind: 'use', name: name.toLowerCase() === 'none' ? null : name };
    }
    case 'delete': {
      const name = args.join(' ').trim();
      return name === '' ? { error: PERSONA_USAGE } : { kind: 'delete', name };
    }
    default:
      return { error: PERSONA_USAGE };
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

type PersonaData = Record<string, string>;

function dataOf(persona: StoredPersona): PersonaData {
  const data = persona.data;
  return isRecord(data) ? { ...(data as PersonaData) } : {};
}

function setPronouns(data: PersonaData, pronouns: string): string | undefined {
  const key = pronouns.toLowerCase();
  if (!isPronouns(key)) return `pronouns must be one of: ${Object.keys(PRONOUNS).join(', ')}`;
  [data.pronoun_sub, data.pronoun_obj, data.pronoun_poss, data.pronoun_poss_obj] = PRONOUNS[key];
  return undefined;
}

function problems(data: PersonaData): string | undefined {
  const found = validatePersona(data);
  return found.length === 0 ? undefined : found.map((d) => d.message).join(' ');
}

/** Runs a `/persona` action against the store; returns the lines to show. */
export class PlayPersonas {
  constructor(
    private readonly store: Store,
    private readonly principalId: string,
    private readonly sessionId: string,
  ) {}

  async #find(name: string): Promise<StoredPersona | undefined> {
    const all = await this.store.listPersonas(this.principalId);
    const wanted = name.toLowerCase();
    return all.find((p) => p.name.toLowerCase() === wanted);
  }

  async run(action: PersonaAction, session: Session): Promise<string> {
    switch (action.kind) {
      case 'list':
        return this.#list(session);
      case 'new':
        return this.#create(action);
      case 'edit':
        return this.#edit(action);
      case 'use':
        return this.#use(action.name);
      case 'delete':
        return this.#delete(action.name);
      default: {
        const unreachable: never = action;
        return String(unreachable);
      }
    }
  }

  async #list(session: Session): Promise<string> {
    const all = await this.store.listPersonas(this.principalId);
    if (all.length === 0)
      return 'No personas yet. /persona new NAME [she|he|they] [-- description] makes one.';
    const lines = all.map((p) => {
      const data = dataOf(p);
      const chosen = p.id === session.personaId ? ' (playing)' : '';
      const about = data.background ? ` — ${data.background}` : '';
      return `${p.name} (${data.pronoun_sub ?? 'they'}/${data.pronoun_obj ?? 'them'})${chosen}${about}`;
    });
    return [...lines, PERSONA_USAGE].join('\n');
  }

  async #create(action: Extract<PersonaAction, { kind: 'new' }>): Promise<string> {
    if ((await this.#find(action.name)) !== undefined)
      return `There is already a persona named ${action.name}.`;
    const data: PersonaData = { name: action.name };
    setPronouns(data, action.pronouns);
    if (action.description !== undefined && action.description !== '') data.background = action.description;
    const bad = problems(data);
    if (bad !== undefined) return bad;
    const created = await this.store.createPersona({
      principalId: this.principalId,
      name: action.name,
      data,
    });
    if (!created.ok) return `Could not create the persona: ${created.reason}.`;
    return `Created ${action.name}. /persona use ${action.name} to play them in this game.`;
  }

  async #edit(action: Extract<PersonaAction, { kind: 'edit' }>): Promise<string> {
    const persona = await this.#find(action.name);
    if (persona === undefined) return `No persona named ${action.name}.`;
    const data = dataOf(persona);
    for (const [key, value] of action.fields) {
      if (key === 'pronouns') {
        const bad = setPronouns(data, value);
        if (bad !== undefined) return bad;
      } else if (key === 'description') data.background = value;
      else data[key] = value;
    }
    const bad = problems(data);
    if (bad !== undefined) return bad;
    await this.store.updatePersona(persona.id, this.principalId, { name: data.name, data });
    return `Saved ${data.name}.`;
  }

  /** Plays a persona (null: nobody in particular) in this session from the next turn on. */
  async #use(name: string | null): Promise<string> {
    const persona = name === null ? null : await this.#find(name);
    if (persona === undefined) return `No persona named ${name}. /persona lists them.`;
    const result = await this.store.setSessionPersona(this.sessionId, this.principalId, persona?.id ?? null);
    if (result === undefined || result === 'persona-not-found') return 'That persona cannot be used here.';
    return persona === null
      ? 'You play nobody in particular from the next turn on.'
      : `You play ${persona.name} from the next turn on.`;
  }

  async #delete(name: string): Promise<string> {
    const persona = await this.#find(name);
    if (persona === undefined) return `No persona named ${name}.`;
    await this.store.deletePersona(persona.id, this.principalId);
    return `Deleted ${persona.name}.`;
  }
}
