// `mnesos export`: a cartridge's character and lore back to SillyTavern. A cartridge that was imported
// keeps its card (`sillytavern-card.json`): every field the engine does not use goes back unchanged, and the
// first message and the lorebook come from the cartridge as it is now. Any other cartridge becomes a
// card named after it: the narrator directive and NPC templates as the description, `first-message.md` as
// the greeting (`alternate_greetings.json` as the alternate greetings, for both kinds), and `world_info.json` (or else each `bot_lore.md` section, keyed by its heading) as the
// lorebook. PNG cards carry both chunks, `chara` (V2) and `ccv3` (V3), as SillyTavern writes them.

import {
  chunkConditionalLore,
  parseJsonText,
  parseWorldInfoFile,
  toCharacterBook,
  toWorldInfoFile,
  type WorldInfoBook,
} from '../../../core/lore/index.ts';
import { ImportError } from './errors.ts';
import { cardText, pronounsResolved } from './export-text.ts';
import { blankPng, withCardChunks } from './png.ts';
import { CARD_COPY_FILE } from './to-cartridge.ts';
import { isRecord as isObject } from '../../../core/is-record.ts';

/** The raw text of a cartridge's files, by name (as read from the folder; persona macros not applied). */
export type CartridgeTexts = ReadonlyMap<string, string>;

type Obj = Record<string, unknown>;

const CHARACTERS_NOTE = "Character's Note";

function jsonFile(texts: CartridgeTexts, name: string): unknown {
  const text = texts.get(name);
  if (text === undefined) return undefined;
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    throw new ImportError('IMPORT_BAD_JSON', `${name}:${parsed.at.line}:${parsed.at.col}`, parsed.message);
  return parsed.value;
}

/** The cartridge's lore as a book: `world_info.json`, or one entry per `bot_lore.md` section. */
export function cartridgeBook(texts: CartridgeTexts, name: string): WorldInfoBook | undefined {
  const world = jsonFile(texts, 'world_info.json');
  if (world !== undefined) {
    const parsed = parseWorldInfoFile(world, name);
    if (!parsed.ok)
      throw new ImportError(
        'IMPORT_BAD_WORLD_INFO',
        `world_info.json: ${parsed.issues[0]!.path}`,
        parsed.issues[0]!.message,
      );
    return parsed.book;
  }
  const lore = texts.get('bot_lore.md');
  if (lore === undefined || lore.trim() === '') return undefined;
  // A section's `when:` line travels as the entry's `extensions.mnesos.when`, not as content.
  const split = chunkConditionalLore(lore);
  const whenOf = new Map(split.conditions.map((c) => [c.chunkId, c.text]));
  const chunks = split.chunks.filter((c) => c.heading !== '');
  if (chunks.length === 0) return undefined;
  const settings = parseWorldInfoFile({ entries: {} }, name);
  if (!settings.ok) return undefined;
  return {
    name,
    settings: settings.book.settings,
    entries: chunks.map((chunk, uid) => ({
      ...emptyEntry(uid),
      keys: [chunk.heading],
      comment: chunk.path.join(' / '),
      content: cardText(chunk.text),
      ...(whenOf.has(chunk.id) ? { when: whenOf.get(chunk.id)! } : {}),
    })),
  };
}

function emptyEntry(uid: number): WorldInfoBook['entries'][number] {
  const parsed = parseWorldInfoFile({ entries: { [uid]: { uid } } }, '');
  if (!parsed.ok) throw new Error('an empty entry always parses');
  return parsed.book.entries[0]!;
}

function yamlDirectives(texts: CartridgeTexts): { narrator: string; npc: string } {
  // The directives file is YAML; a card only needs its text, so the simple `key: "json string"` and block
  // forms are read without a YAML dependency here.
  const text = texts.get('prompt_directives.yaml') ?? '';
  const read = (key: string): string => {
    const quoted = new RegExp(`^${key}:[ \\t]*("(?:[^"\\\\\\n]|\\\\.)*")[ \\t]*$`, 'm').exec(text);
    if (quoted) return JSON.parse(quoted[1]!) as string;
    const block = new RegExp(`^${key}:[ \\t]*[|>][-+]?[ \\t]*\\n((?:[ \\t]+.*\\n?|\\n)*)`, 'm').exec(text);
    if (block) return block[1]!.replace(/^[ \t]{2}/gm, '').trim();
    return '';
  };
  return { narrator: read('narrator'), npc: read('npc') };
}

/** The card fields SillyTavern's V1 reads at the top level. */
const V1_FIELDS = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example'];

/** The card as a V2/V3 object (SillyTavern's hybrid: V1 fields also at the top level). */
export function exportCard(texts: CartridgeTexts, cartridgeName: string, spec: 'v2' | 'v3' = 'v2'): Obj {
  const kept = jsonFile(texts, CARD_COPY_FILE);
  const raw: Obj = isObject(kept) ? structuredClone(kept) : {};
  const data: Obj = isObject(raw.data) ? (raw.data as Obj) : {};
  const book = cartridgeBook(texts, `${cartridgeName}'s Lorebook`);
  const first = texts.get('first-message.md');
  if (isObject(kept)) {
    // Back to the card's own fields, from the V1 top level when it had no data.
    for (const field of V1_FIELDS) {
      if (data[field] === undefined && typeof raw[field] === 'string') data[field] = raw[field];
    }
  } else setCartridgeFields(data, texts, cartridgeName);
  // The cartridge's current greetings, as SillyTavern shows them (export-text.ts); an imported card's own
  // greeting is not hard-wrapped, so only the macros change there.
  const asCard = (text: string) => (isObject(kept) ? pronounsResolved(text).trim() : cardText(text));
  if (first !== undefined) data.first_mes = asCard(first);
  const alternates = alternateGreetingsOf(texts);
  if (alternates !== undefined) data.alternate_greetings = alternates.map(asCard);
  setCharacterBook(data, book);
  for (const [key, value] of Object.entries(cardDefaults(cartridgeName)))
    if (data[key] === undefined) data[key] = value;
  if (spec === 'v3' && !Array.isArray(data.group_only_greetings)) data.group_only_greetings = [];
  const card: Obj = { ...raw };
  for (const field of V1_FIELDS) card[field] = data[field];
  card.spec = spec === 'v3' ? 'chara_card_v3' : 'chara_card_v2';
  card.spec_version = spec === 'v3' ? '3.0' : '2.0';
  card.data = data;
  return card;
}

/** A cartridge that was never a card: its name, and its narrator and NPC directives as the card's texts. */
function setCartridgeFields(data: Obj, texts: CartridgeTexts, cartridgeName: string): void {
  const directives = yamlDirectives(texts);
  data.name = cartridgeName;
  data.description = cardText(directives.narrator);
  data.personality = cardText(directives.npc);
  data.scenario = '';
  data.mes_example = '';
  data.creator_notes = 'Exported from a MnesOS cartridge.';
}

/** The cartridge's book as the card's, without the Character's Note entry when the card keeps its own note. */
function setCharacterBook(data: Obj, book: WorldInfoBook | undefined): void {
  const hasNote = isObject(data.extensions) && isObject((data.extensions as Obj).depth_prompt);
  const entries =
    book?.entries.filter(
      (e) => !(hasNote && e.comment === CHARACTERS_NOTE && e.position === 'at_depth' && e.constant),
    ) ?? [];
  if (book !== undefined && entries.length > 0) data.character_book = toCharacterBook({ ...book, entries });
  else delete data.character_book;
}

/** The V2 fields a card must have, as they are when nothing fills them. */
function cardDefaults(cartridgeName: string): Obj {
  return {
    name: cartridgeName,
    description: '',
    personality: '',
    scenario: '',
    first_mes: '',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
  };
}

/** A PNG card: the cartridge's avatar (or a blank image) with `chara` (V2) and `ccv3` (V3) chunks. */
export function exportPngCard(
  texts: CartridgeTexts,
  cartridgeName: string,
  avatar: Uint8Array | undefined,
): Uint8Array {
  const v2 = exportCard(texts, cartridgeName, 'v2');
  const v3 = { ...exportCard(texts, cartridgeName, 'v3') };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
  return withCardChunks(avatar ?? blankPng(), 'avatar.png', [
    { keyword: 'chara', text: encode(v2) },
    { keyword: 'ccv3', text: encode(v3) },
  ]);
}

/** The cartridge's lore as a SillyTavern World Info file. */
export function exportWorldInfo(texts: CartridgeTexts, cartridgeName: string): Obj {
  const book = cartridgeBook(texts, cartridgeName);
  return toWorldInfoFile(book ?? { name: cartridgeName, entries: [], settings: emptySettings() });
}

function emptySettings(): WorldInfoBook['settings'] {
  const parsed = parseWorldInfoFile({ entries: {} }, '');
  if (!parsed.ok) throw new Error('an empty book always parses');
  return parsed.book.settings;
}

/** `alternate_greetings.json` when it is an array of texts (the loader refuses anything else). */
function alternateGreetingsOf(texts: CartridgeTexts): string[] | undefined {
  const text = texts.get('alternate_greetings.json');
  if (text === undefined) return undefined;
  const parsed = parseJsonText(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return undefined;
  return parsed.value.filter((item): item is string => typeof item === 'string');
}
