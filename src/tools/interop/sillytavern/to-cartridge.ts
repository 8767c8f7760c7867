// A normalised card as a cartridge folder: the character as an NPC (`yare.yaml`), its description,
// personality and scenario in the directives (within the directive limits and the injection check; what
// does not fit or is refused there goes to the lore, and the loss report says so), the chosen greeting as
// `first-message.md` and the others as `alternate_greetings.json` (selectable at game start), the example messages as the NPC's style guidance, the lorebook (and the Character's
// Note) as `world_info.json`, the avatar as `avatar.<ext>`, and the card itself as `sillytavern-card.json`
// so an export gives back what the loader does not use.

import { checkInjection } from '../../../core/cartridge/index.ts';
import { sanitizeForPrompt } from '../../../core/text-policy.ts';
import { MAX_DIRECTIVE_CHARS, MAX_FIRST_MESSAGE_BYTES } from '../../../core/cartridge/limits.ts';
import {
  parseCharacterBook,
  toWorldInfoFile,
  WORLD_INFO_ROLES,
  type WorldInfoBook,
  type WorldInfoEntry,
} from '../../../core/lore/index.ts';
import type { NormalizedCard } from './card.ts';
import { ImportError } from './errors.ts';
import type { LossReport } from './loss.ts';
import { resolveCardMacros } from './macros.ts';

export const CARD_COPY_FILE = 'sillytavern-card.json';
export const REPORT_FILE = 'import-report.md';

/** Room a directive keeps for `{{user}}` growing into a persona name (at most 100 characters). */
const PERSONA_GROWTH = 93;
const DIRECTIVE_ROOM = { narrator: 3_400, npc: 3_400, director: 2_400 } as const;

export interface ToCartridgeOptions {
  /** 0 = `first_mes`, 1.. = `alternate_greetings[n-1]`. */
  readonly greeting?: number;
  /** The avatar image and its extension. */
  readonly image?: { readonly bytes: Uint8Array; readonly ext: string };
}

function slug(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(s) ? s.slice(0, 60) : `character${s === '' ? '' : `_${s.slice(0, 50)}`}`;
}

/** Length once `{{user}}` becomes the longest persona name. */
function grownLength(text: string): number {
  return text.length + (text.match(/\{\{user\}\}/gi)?.length ?? 0) * PERSONA_GROWTH;
}

function cutTo(text: string, room: number): string {
  if (grownLength(text) <= room) return text;
  let end = Math.max(0, room - 1);
  while (end > 0 && grownLength(`${text.slice(0, end)}…`) > room) end -= 50;
  return `${text.slice(0, Math.max(0, end))}…`;
}

export function cardToCartridge(
  card: NormalizedCard,
  loss: LossReport,
  options: ToCartridgeOptions = {},
): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  const display = sanitizeForPrompt(card.nickname || card.name);
  const macros = (text: string, place: string) => resolveCardMacros(text, display, loss, place);
  const text: CardText = {
    description: macros(card.description, 'data.description').trim(),
    personality: macros(card.personality, 'data.personality').trim(),
    scenario: macros(card.scenario, 'data.scenario').trim(),
    examples: macros(card.exampleMessages, 'data.mes_example').trim(),
  };
  const safe = safeForDirectives(text, loss);
  files.set('prompt_directives.yaml', directivesFile(display, safe, loss));
  const summary = cutTo((safe.description || safe.personality || display).replace(/\s+/g, ' '), 280);
  files.set('yare.yaml', rulesFile(card.name, summary));
  files.set('bot_lore.md', loreFile(display, text));
  for (const [name, content] of greetingFiles(card, loss, macros, options.greeting ?? 0))
    files.set(name, content);

  const book = worldInfoOf(card, loss, macros);
  if (book !== undefined) files.set('world_info.json', `${JSON.stringify(toWorldInfoFile(book), null, 4)}\n`);

  if (options.image !== undefined) files.set(`avatar.${options.image.ext}`, options.image.bytes);
  files.set(CARD_COPY_FILE, `${JSON.stringify(card.raw, null, 4)}\n`);
  reportCardFields(card, loss);
  return files;
}

/** The card's prose fields, macros resolved. */
interface CardText {
  readonly description: string;
  readonly personality: string;
  readonly scenario: string;
  readonly examples: string;
}

/**
 * Directives are instructions the engine checks strictly; card text that trips the injection check stays
 * in the lore (story content), where it is fenced off as data: here it becomes empty.
 */
function safeForDirectives(text: CardText, loss: LossReport): CardText {
  const safe = (value: string, field: string): string => {
    const finding = value === '' ? undefined : checkInjection(value);
    if (finding === undefined) return value;
    loss.add(
      `${field} not in directives`,
      `data.${field}`,
      `kept in bot_lore.md only: it ${finding.message}`,
    );
    return '';
  };
  return {
    description: safe(text.description, 'description'),
    personality: safe(text.personality, 'personality'),
    scenario: safe(text.scenario, 'scenario'),
    examples: safe(text.examples, 'mes_example'),
  };
}

function directivesFile(display: string, safe: CardText, loss: LossReport): string {
  const fitted = (text: string, room: number, field: string): string => {
    const out = cutTo(text, room);
    if (out !== text)
      loss.add(
        `${field} shortened in directives`,
        `data.${field}`,
        `cut to fit the directive limit (${MAX_DIRECTIVE_CHARS} characters); the full text is in bot_lore.md`,
      );
    return out;
  };
  const joined = (parts: string[], separator: string) => parts.filter((p) => p !== '').join(separator);
  const narrator = fitted(
    joined(
      [
        `The story is a conversation between the player and ${display}. Portray ${display} faithfully.`,
        safe.description && `${display}'s description: ${safe.description}`,
        safe.personality && `${display}'s personality: ${safe.personality}`,
        safe.scenario && `Scenario: ${safe.scenario}`,
      ],
      '\n\n',
    ),
    DIRECTIVE_ROOM.narrator,
    'description',
  );
  const npc = fitted(
    joined(
      [
        `${display} is the main character the player meets.`,
        safe.personality && `Personality: ${safe.personality}`,
        safe.examples && `How ${display} talks (style examples, not events):\n${safe.examples}`,
      ],
      '\n\n',
    ),
    DIRECTIVE_ROOM.npc,
    'mes_example',
  );
  const director = fitted(
    joined(
      [
        `The player talks with ${display}; most turns need no rule events.`,
        safe.scenario && `Scenario: ${safe.scenario}`,
      ],
      '\n',
    ),
    DIRECTIVE_ROOM.director,
    'scenario',
  );
  return `director: ${JSON.stringify(director)}\nnpc: ${JSON.stringify(npc)}\nnarrator: ${JSON.stringify(narrator)}\n`;
}

/** The character as an NPC template; the author adds rules below. */
function rulesFile(name: string, summary: string): string {
  return [
    '# Imported from a SillyTavern character card (mnesos import). The character is an NPC; add rules below.',
    'version: 1',
    `bot_name: ${JSON.stringify(name)}`,
    'npc_templates:',
    `  ${slug(name)}:`,
    '    type: name',
    `    description: ${JSON.stringify(summary)}`,
    '    credit: 5',
    '',
  ].join('\n');
}

function loreFile(display: string, text: CardText): string {
  const lore: string[] = [`# ${display}`, '', text.description || '(no description)'];
  if (text.personality !== '') lore.push('', '## Personality', '', text.personality);
  if (text.scenario !== '') lore.push('', '## Scenario', '', text.scenario);
  if (text.examples !== '') lore.push('', '## Example dialogue', '', text.examples);
  return `${lore.join('\n')}\n`;
}

/** The chosen greeting as the first message; the others, in the card's order, can open a new game instead. */
function greetingFiles(
  card: NormalizedCard,
  loss: LossReport,
  macros: (text: string, place: string) => string,
  chosen: number,
): Map<string, string> {
  const greetings = [card.firstMessage, ...card.alternateGreetings];
  if (!Number.isInteger(chosen) || chosen < 0 || chosen >= greetings.length) {
    throw new ImportError(
      'IMPORT_BAD_CARD',
      'data.alternate_greetings',
      `greeting ${chosen} does not exist: the card has ${greetings.length} (0 = first_mes, 1..${greetings.length - 1} = alternate greetings)`,
    );
  }
  const placeOf = (index: number) =>
    index === 0 ? 'data.first_mes' : `data.alternate_greetings.${index - 1}`;
  // A greeting over the first-message limit is cut (whole 256-character steps) and the report says so.
  const greetingText = (index: number): string => {
    let text = macros(greetings[index]!, placeOf(index)).trim();
    if (Buffer.byteLength(text, 'utf8') <= MAX_FIRST_MESSAGE_BYTES) return text;
    while (Buffer.byteLength(`${text}…`, 'utf8') > MAX_FIRST_MESSAGE_BYTES)
      text = text.slice(0, text.length - 256);
    loss.add(
      index === 0 ? 'first_mes shortened' : 'alternate greeting shortened',
      placeOf(index),
      `cut to ${MAX_FIRST_MESSAGE_BYTES} bytes (the first-message limit)`,
    );
    return `${text}…`;
  };
  const files = new Map<string, string>();
  const first = greetingText(chosen);
  if (first !== '') files.set('first-message.md', first);
  const others = greetings
    .map((_, index) => index)
    .filter((index) => index !== chosen)
    .map(greetingText)
    .filter((text) => text !== '');
  if (others.length > 0) files.set('alternate_greetings.json', `${JSON.stringify(others, null, 2)}\n`);
  return files;
}

/** The embedded book, plus the Character's Note (`extensions.depth_prompt`) as a constant @depth entry. */
function worldInfoOf(
  card: NormalizedCard,
  loss: LossReport,
  macros: (text: string, place: string) => string,
): WorldInfoBook | undefined {
  let book = embeddedBook(card, loss);
  const note = characterNote(card, Math.max(-1, ...(book?.entries.map((e) => e.uid) ?? [])) + 1);
  if (note !== undefined) {
    if (book === undefined) {
      const empty = parseCharacterBook({ entries: [] }, `${card.name}'s Lorebook`);
      if (!empty.ok) throw new Error('an empty book always parses');
      book = empty.book;
    }
    book = { ...book, entries: [...book.entries, note] };
  }
  if (book === undefined) return undefined;
  return {
    ...book,
    entries: book.entries.map((entry) => ({
      ...entry,
      content: macros(entry.content, `world info entry ${entry.uid}`),
      keys: entry.keys.map((k) => macros(k, `world info entry ${entry.uid} keys`)),
      secondaryKeys: entry.secondaryKeys.map((k) => macros(k, `world info entry ${entry.uid} keys`)),
    })),
  };
}

/** The card's embedded book (`data.character_book`), its notes in the loss report; a bad book throws. */
function embeddedBook(card: NormalizedCard, loss: LossReport): WorldInfoBook | undefined {
  if (card.characterBook === undefined || card.characterBook === null) return undefined;
  const parsed = parseCharacterBook(card.characterBook, `${card.name}'s Lorebook`, 'data.character_book');
  if (!parsed.ok) {
    const issue = parsed.issues[0]!;
    throw new ImportError(
      'IMPORT_BAD_WORLD_INFO',
      issue.path,
      `${issue.message}${parsed.issues.length > 1 ? ` (and ${parsed.issues.length - 1} more)` : ''}`,
    );
  }
  for (const note of parsed.notes) loss.add(note.name, note.path, note.message);
  return parsed.book;
}

/** The Character's Note (`extensions.depth_prompt`) as a constant @depth entry, or undefined without one. */
function characterNote(card: NormalizedCard, uid: number): WorldInfoEntry | undefined {
  const depthPrompt = card.extensions.depth_prompt as
    | { prompt?: unknown; depth?: unknown; role?: unknown }
    | undefined;
  if (!depthPrompt || typeof depthPrompt.prompt !== 'string' || depthPrompt.prompt.trim() === '')
    return undefined;
  const depth =
    typeof depthPrompt.depth === 'number' && Number.isInteger(depthPrompt.depth) && depthPrompt.depth >= 0
      ? Math.min(depthPrompt.depth, 1000)
      : 4;
  return {
    ...CHARACTER_NOTE_ENTRY,
    uid,
    content: depthPrompt.prompt,
    depth,
    role: WORLD_INFO_ROLES.find((r) => r === depthPrompt.role) ?? 'system',
  };
}

/** The Character's Note entry's fixed fields: always on, at a depth, outside the budget and recursion. */
const CHARACTER_NOTE_ENTRY: Omit<WorldInfoEntry, 'uid' | 'content' | 'depth' | 'role'> = {
  keys: [],
  secondaryKeys: [],
  selective: false,
  selectiveLogic: 'and_any',
  comment: "Character's Note",
  constant: true,
  disable: false,
  order: 100,
  position: 'at_depth',
  outletName: '',
  probability: 100,
  useProbability: false,
  groups: [],
  groupOverride: false,
  groupWeight: 100,
  useGroupScoring: null,
  scanDepth: null,
  caseSensitive: null,
  matchWholeWords: null,
  excludeRecursion: false,
  preventRecursion: true,
  delayUntilRecursion: 0,
  sticky: 0,
  cooldown: 0,
  delay: 0,
  ignoreBudget: true,
  triggers: [],
  forceActivate: false,
  forceSkip: false,
};

/** Card fields and extensions the cartridge does not use. */
function reportCardFields(card: NormalizedCard, loss: LossReport): void {
  reportUnusedTexts(card, loss);
  reportExtensions(card.extensions, loss);
  reportAssets(card.assets, loss);
  if (card.spec === 'v3' && card.nickname !== '' && card.nickname !== card.name)
    loss.add(
      'nickname',
      'data.nickname',
      `{{char}} became the nickname "${card.nickname}" (as the V3 spec says; SillyTavern uses the name)`,
    );
}

/** The card's prompts and greetings the engine has no place for. */
function reportUnusedTexts(card: NormalizedCard, loss: LossReport): void {
  if (card.systemPrompt.trim() !== '')
    loss.add(
      'system_prompt',
      'data.system_prompt',
      "not used: the engine's own prompts run the game (kept in sillytavern-card.json)",
    );
  if (card.postHistoryInstructions.trim() !== '')
    loss.add(
      'post_history_instructions',
      'data.post_history_instructions',
      'not used (kept in sillytavern-card.json)',
    );
  if (card.groupOnlyGreetings.length > 0)
    loss.add(
      'group_only_greetings',
      'data.group_only_greetings',
      'there are no group chats',
      card.groupOnlyGreetings.length,
    );
}

/** Extensions the cartridge does not run (the Character's Note is read by worldInfoOf). */
function reportExtensions(ext: NormalizedCard['extensions'], loss: LossReport): void {
  if (Array.isArray(ext.regex_scripts) && ext.regex_scripts.length > 0)
    loss.add(
      'extensions.regex_scripts',
      'data.extensions.regex_scripts',
      'SillyTavern regex scripts are not run',
      ext.regex_scripts.length,
    );
  if (typeof ext.world === 'string' && ext.world.trim() !== '')
    loss.add(
      'extensions.world',
      'data.extensions.world',
      `the linked World Info file "${ext.world}" is not inside the card; import it into this folder with mnesos import <file> <folder>`,
    );
  const handled = new Set(['depth_prompt', 'regex_scripts', 'world', 'talkativeness', 'fav']);
  for (const key of Object.keys(ext)) {
    if (!handled.has(key))
      loss.add(`extensions.${key}`, `data.extensions.${key}`, 'not used (kept for export)');
  }
}

/** Every asset but the main icon (used as the cartridge image). */
function reportAssets(assets: NormalizedCard['assets'], loss: LossReport): void {
  assets.forEach((asset, i) => {
    const type =
      typeof asset === 'object' && asset !== null ? String((asset as { type?: unknown }).type) : 'unknown';
    const name =
      typeof asset === 'object' && asset !== null ? String((asset as { name?: unknown }).name) : '';
    if (type === 'icon' && (name === 'main' || assets.length === 1)) return;
    loss.add(`asset ${type}`, `data.assets.${i}`, 'only the main icon is used (as the cartridge image)');
  });
}
