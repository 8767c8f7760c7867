// Character cards V1, V2 (`chara_card_v2`) and V3 (`chara_card_v3`), and SillyTavern's hybrids (V1 fields at
// the top level and in `data`): normalised into one shape. `data.*` is preferred, the top level is the
// fallback, as SillyTavern reads cards. Unknown fields are kept (`raw`) so an export can give them back.

import { ImportError } from './errors.ts';
import { MAX_ALTERNATE_GREETINGS, MAX_CARD_FIELD_CHARS } from './limits.ts';
import { isRecord as isObject } from '../../../core/is-record.ts';

export type CardSpec = 'v1' | 'v2' | 'v3';

export interface NormalizedCard {
  readonly spec: CardSpec;
  readonly name: string;
  readonly nickname: string;
  readonly description: string;
  readonly personality: string;
  readonly scenario: string;
  readonly firstMessage: string;
  readonly exampleMessages: string;
  readonly alternateGreetings: readonly string[];
  readonly groupOnlyGreetings: readonly string[];
  readonly systemPrompt: string;
  readonly postHistoryInstructions: string;
  readonly creatorNotes: string;
  readonly tags: readonly string[];
  readonly creator: string;
  readonly characterVersion: string;
  /** `data.character_book` as written (parsed by the World Info reader). */
  readonly characterBook: unknown;
  readonly extensions: Readonly<Record<string, unknown>>;
  /** V3 `assets`, as written. */
  readonly assets: readonly unknown[];
  /** The card object as read (for export: unknown keys survive a round trip). */
  readonly raw: Readonly<Record<string, unknown>>;
}

type Obj = Record<string, unknown>;

/** Pygmalion/"gradio" names SillyTavern maps on import. */
const GRADIO_NAMES: Readonly<Record<string, string>> = {
  name: 'char_name',
  description: 'char_persona',
  first_mes: 'char_greeting',
  scenario: 'world_scenario',
  mes_example: 'example_dialogue',
};

export function looksLikeCard(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (value.spec === 'chara_card_v2' || value.spec === 'chara_card_v3') return true;
  return typeof value.name === 'string' || typeof value.char_name === 'string' || isObject(value.data);
}

export function normalizeCard(value: unknown, file: string): NormalizedCard {
  if (!isObject(value)) throw new ImportError('IMPORT_BAD_CARD', file, 'a character card is a JSON object');
  const { spec, data } = specAndData(value, file);
  const fields = new CardFields(value, data, file);
  const name = fields.text('name', true).trim();
  if (name === '')
    throw new ImportError(
      'IMPORT_BAD_CARD',
      `${file}: ${data ? 'data.' : ''}name`,
      'the character has no name',
    );
  const extensions = data?.extensions ?? value.extensions ?? {};
  if (!isObject(extensions))
    throw new ImportError('IMPORT_BAD_CARD', `${file}: data.extensions`, 'must be an object');
  const assets = data?.assets;
  if (assets !== undefined && assets !== null && !Array.isArray(assets))
    throw new ImportError('IMPORT_BAD_CARD', `${file}: data.assets`, 'must be a list');
  const text = (field: string) => fields.text(field);
  return {
    spec,
    name,
    nickname: text('nickname').trim(),
    description: text('description'),
    personality: text('personality'),
    scenario: text('scenario'),
    firstMessage: text('first_mes'),
    exampleMessages: text('mes_example'),
    alternateGreetings: fields.texts('alternate_greetings', MAX_ALTERNATE_GREETINGS),
    groupOnlyGreetings: fields.texts('group_only_greetings', MAX_ALTERNATE_GREETINGS),
    systemPrompt: text('system_prompt'),
    postHistoryInstructions: text('post_history_instructions'),
    creatorNotes: text('creator_notes') || text('creatorcomment'),
    tags: fields
      .texts('tags', 1_000)
      .map((t) => t.trim())
      .filter((t) => t !== ''),
    creator: text('creator'),
    characterVersion: text('character_version'),
    characterBook: data?.character_book ?? value.character_book ?? undefined,
    extensions,
    assets: Array.isArray(assets) ? assets : [],
    raw: value,
  };
}

/** The card's spec, and its `data` object (V2 and V3 cards must have one; V1 cards have none). */
function specAndData(value: Obj, file: string): { spec: CardSpec; data: Obj | undefined } {
  const spec: CardSpec =
    value.spec === 'chara_card_v3'
      ? 'v3'
      : value.spec === 'chara_card_v2' || isObject(value.data)
        ? 'v2'
        : 'v1';
  if (typeof value.spec === 'string' && spec === 'v2' && value.spec !== 'chara_card_v2')
    throw new ImportError(
      'IMPORT_BAD_CARD',
      `${file}: spec`,
      `unknown card spec ${JSON.stringify(value.spec)}`,
    );
  const data: Obj | undefined = spec === 'v1' ? undefined : isObject(value.data) ? value.data : undefined;
  if (spec !== 'v1' && data === undefined)
    throw new ImportError('IMPORT_BAD_CARD', `${file}: data`, `a ${value.spec} card needs a "data" object`);
  return { spec, data };
}

/** Reads a card's text fields from `data` first, the top level (or its gradio name) second, within limits. */
class CardFields {
  constructor(
    private readonly value: Obj,
    private readonly data: Obj | undefined,
    private readonly file: string,
  ) {}

  text(field: string, required = false): string {
    const { value, data, file } = this;
    const fromData = data?.[field];
    const fromTop =
      value[field] ?? (GRADIO_NAMES[field] === undefined ? undefined : value[GRADIO_NAMES[field]]);
    const chosen = fromData !== undefined && fromData !== null && fromData !== '' ? fromData : fromTop;
    const where = `${file}: ${fromData !== undefined && chosen === fromData ? 'data.' : ''}${field}`;
    if (chosen === undefined || chosen === null) {
      if (required) throw new ImportError('IMPORT_BAD_CARD', where, 'missing');
      return '';
    }
    if (typeof chosen !== 'string')
      throw new ImportError('IMPORT_BAD_CARD', where, `must be text, got ${typeof chosen}`);
    if (chosen.length > MAX_CARD_FIELD_CHARS)
      throw new ImportError(
        'IMPORT_TOO_LARGE',
        where,
        `${chosen.length} characters; the limit is ${MAX_CARD_FIELD_CHARS} (MAX_CARD_FIELD_CHARS)`,
      );
    return chosen;
  }

  texts(field: string, max: number): string[] {
    const { value, data, file } = this;
    const v = data?.[field] ?? value[field];
    if (v === undefined || v === null) return [];
    const where = `${file}: ${data?.[field] !== undefined ? 'data.' : ''}${field}`;
    if (!Array.isArray(v)) throw new ImportError('IMPORT_BAD_CARD', where, 'must be a list of text');
    if (v.length > max)
      throw new ImportError('IMPORT_TOO_LARGE', where, `${v.length} items; the limit is ${max}`);
    return v.map((item, i) => {
      if (typeof item !== 'string') throw new ImportError('IMPORT_BAD_CARD', `${where}.${i}`, 'must be text');
      if (item.length > MAX_CARD_FIELD_CHARS)
        throw new ImportError(
          'IMPORT_TOO_LARGE',
          `${where}.${i}`,
          `${item.length} characters; the limit is ${MAX_CARD_FIELD_CHARS}`,
        );
      return item;
    });
  }
}
