// `mnesos import`: a SillyTavern file in, cartridge files and a loss report out. The container is told by
// its first bytes (PNG signature, zip `PK`, else JSON text), never by the file name:
// - PNG/APNG: the `ccv3` tEXt chunk wins over `chara` (as the V3 spec, SillyTavern and RisuAI agree);
// - CHARX: a zip (zip64 too) with `card.json`, read by the server's capped zip reader; the main icon is the
//   avatar; data before the zip (a self-extracting prefix) is refused;
// - JSON: a card (V1, V2, V3, hybrid) or a World Info file (`{entries: {uid: …}}`, `lorebook_v3`).
// Pure apart from what it is given: the CLI and the upload route do the reading and writing.

import { ArchiveError, endsLikeZip, isZip, readZip } from '../../../adapters/files/index.ts';
import {
  locateJsonPath,
  parseJsonText,
  parseWorldInfoFile,
  toWorldInfoFile,
  type WorldInfoBook,
} from '../../../core/lore/index.ts';
import { looksLikeCard, type NormalizedCard, normalizeCard } from './card.ts';
import { ImportError } from './errors.ts';
import { MAX_CARD_JSON_CHARS, MAX_IMPORT_FILE_BYTES } from './limits.ts';
import { type LossItem, LossReport } from './loss.ts';
import { isPng, readPngChunks, textChunks } from './png.ts';
import { cardToCartridge, type ToCartridgeOptions } from './to-cartridge.ts';

export type ImportKind = 'png' | 'charx' | 'card-json' | 'world-info';

export interface ImportResult {
  readonly kind: ImportKind;
  /** The card's spec (cards only). */
  readonly spec?: NormalizedCard['spec'];
  /** The character's or the book's name. */
  readonly name: string;
  /** The cartridge files to write (a World Info import gives `world_info.json` and, for a new folder, a minimal cartridge). */
  readonly files: Map<string, string | Uint8Array>;
  readonly loss: readonly LossItem[];
  /** For a PNG card: which chunk was read. */
  readonly chunk?: 'ccv3' | 'chara';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64Json(text: string, where: string): string {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact))
    throw new ImportError('IMPORT_BAD_BASE64', where, 'the chunk is not valid base64');
  try {
    return utf8.decode(Buffer.from(compact, 'base64'));
  } catch {
    throw new ImportError('IMPORT_BAD_BASE64', where, 'the decoded chunk is not UTF-8 text');
  }
}

function parseJsonOrThrow(text: string, file: string): unknown {
  if (text.length > MAX_CARD_JSON_CHARS)
    throw new ImportError(
      'IMPORT_TOO_LARGE',
      file,
      `${text.length} characters of JSON; the limit is ${MAX_CARD_JSON_CHARS} (MAX_CARD_JSON_CHARS)`,
    );
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    throw new ImportError('IMPORT_BAD_JSON', `${file}:${parsed.at.line}:${parsed.at.col}`, parsed.message);
  return parsed.value;
}

/** Which card a PNG holds: `ccv3` when present, else `chara`. */
export function cardFromPng(
  bytes: Uint8Array,
  file: string,
): { json: string; chunk: 'ccv3' | 'chara'; where: string } {
  const texts = textChunks(readPngChunks(bytes, file), file);
  const v3 = texts.find((t) => t.keyword.toLowerCase() === 'ccv3' && t.text.trim() !== '');
  const v2 = texts.find((t) => t.keyword.toLowerCase() === 'chara');
  const chosen = v3 ?? v2;
  if (chosen === undefined) {
    const other = texts.map((t) => t.keyword).join(', ');
    throw new ImportError(
      'IMPORT_NO_CARD',
      file,
      `no "chara" or "ccv3" tEXt chunk: this PNG holds no character card${other ? ` (text chunks: ${other})` : ''}`,
    );
  }
  return {
    json: decodeBase64Json(chosen.text, chosen.where),
    chunk: chosen === v3 ? 'ccv3' : 'chara',
    where: chosen.where,
  };
}

function charxCard(
  bytes: Uint8Array,
  file: string,
): { card: unknown; cardText: string; icon?: { bytes: Uint8Array; ext: string } } {
  const byPath = charxEntries(bytes, file);
  const cardBytes = byPath.get('card.json');
  if (cardBytes === undefined)
    throw new ImportError('IMPORT_BAD_CHARX', file, 'no card.json at the root of the CHARX archive');
  let cardText: string;
  try {
    cardText = utf8.decode(cardBytes);
  } catch {
    throw new ImportError('IMPORT_BAD_CHARX', `${file}: card.json`, 'not UTF-8 text');
  }
  const card = parseJsonOrThrow(cardText, `${file}: card.json`);
  const icon = charxIcon(card, byPath);
  return icon === undefined ? { card, cardText } : { card, cardText, icon };
}

/** The CHARX archive's files by path; a bad archive, or two entries of one name, is an ImportError. */
function charxEntries(bytes: Uint8Array, file: string): Map<string, Uint8Array> {
  let entries: ReturnType<typeof readZip>;
  try {
    entries = readZip(bytes);
  } catch (error) {
    if (error instanceof ArchiveError)
      throw new ImportError(
        error.code === 'archive_too_large' ? 'IMPORT_TOO_LARGE' : 'IMPORT_BAD_CHARX',
        `${file}${error.entry ? `: ${error.entry}` : ''}`,
        error.message,
      );
    throw error;
  }
  const byPath = new Map<string, Uint8Array>();
  for (const entry of entries) {
    const path = entry.segments.join('/');
    // Two entries of one name: which one a reader takes differs between readers, so neither is trusted
    // (an upload refuses the same).
    if (byPath.has(path))
      throw new ImportError(
        'IMPORT_BAD_CHARX',
        `${file}: ${path}`,
        'the CHARX archive has two entries of this name',
      );
    byPath.set(path, entry.data);
  }
  return byPath;
}

/** The card's main icon asset (or its first icon) when the archive holds it as an image. */
function charxIcon(
  card: unknown,
  byPath: ReadonlyMap<string, Uint8Array>,
): { bytes: Uint8Array; ext: string } | undefined {
  const assets = (card as { data?: { assets?: unknown } })?.data?.assets;
  if (!Array.isArray(assets)) return undefined;
  const images = assets.filter(
    (a): a is { type: string; uri: string; name?: string; ext?: string } =>
      typeof a === 'object' && a !== null && a.type === 'icon' && typeof a.uri === 'string',
  );
  const main = images.find((a) => a.name === 'main') ?? images[0];
  if (main === undefined) return undefined;
  const path = main.uri.replace(/^(embeded|embedded):\/\//, '').replace(/^__asset:/, '');
  const data = byPath.get(path);
  const ext = (main.ext ?? path.split('.').pop() ?? 'png').toLowerCase();
  if (data === undefined || !/^(png|jpe?g|webp|gif|avif)$/.test(ext)) return undefined;
  return { bytes: data, ext: ext === 'jpeg' ? 'jpg' : ext };
}

export interface ImportOptions extends ToCartridgeOptions {
  /** For a World Info import into an existing cartridge: keep its files, write only `world_info.json`. */
  readonly intoExistingCartridge?: boolean;
}

export function importSillyTavern(
  bytes: Uint8Array,
  file: string,
  options: ImportOptions = {},
): ImportResult {
  if (bytes.length > MAX_IMPORT_FILE_BYTES)
    throw new ImportError(
      'IMPORT_TOO_LARGE',
      file,
      `${bytes.length} bytes; the limit is ${MAX_IMPORT_FILE_BYTES} (MAX_IMPORT_FILE_BYTES)`,
    );
  const loss = new LossReport();
  if (isPng(bytes)) {
    const found = cardFromPng(bytes, file);
    const card = normalizeCard(parseJsonOrThrow(found.json, found.where), found.where);
    const files = cardToCartridge(card, loss, { ...options, image: { bytes, ext: 'png' } });
    return { kind: 'png', spec: card.spec, name: card.name, files, loss: loss.items, chunk: found.chunk };
  }
  if (isZip(bytes)) {
    const { card: raw, icon } = charxCard(bytes, file);
    const card = normalizeCard(raw, `${file}: card.json`);
    const files = cardToCartridge(card, loss, { ...options, ...(icon ? { image: icon } : {}) });
    return { kind: 'charx', spec: card.spec, name: card.name, files, loss: loss.items };
  }
  if (endsLikeZip(bytes) && !/^\uFEFF?\s*[{[]/.test(new TextDecoder().decode(bytes.subarray(0, 16))))
    throw new ImportError(
      'IMPORT_BAD_CHARX',
      file,
      'data before the zip archive (a self-extracting prefix?) is refused; re-zip the CHARX without it',
    );
  return importJson(bytes, file, options, loss);
}

/** A JSON file: a World Info file or a character card. */
function importJson(bytes: Uint8Array, file: string, options: ImportOptions, loss: LossReport): ImportResult {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ImportError('IMPORT_UNKNOWN_FORMAT', file, 'not a PNG, a CHARX (zip) or UTF-8 JSON file');
  }
  if (!/^\uFEFF?\s*[{[]/.test(text))
    throw new ImportError('IMPORT_UNKNOWN_FORMAT', file, 'not a PNG, a CHARX (zip) or a JSON file');
  const value = parseJsonOrThrow(text, file);
  if (isWorldInfoFile(value)) return importWorldInfo(value, text, file, options, loss);
  if (!looksLikeCard(value))
    throw new ImportError(
      'IMPORT_UNKNOWN_FORMAT',
      file,
      'this JSON is neither a character card nor a World Info file',
    );
  const card = normalizeCard(value, file);
  const files = cardToCartridge(card, loss, options);
  return { kind: 'card-json', spec: card.spec, name: card.name, files, loss: loss.items };
}

/** A World Info file as a cartridge's `world_info.json`; its first problem is named at its `file:line:col`. */
function importWorldInfo(
  value: unknown,
  text: string,
  file: string,
  options: ImportOptions,
  loss: LossReport,
): ImportResult {
  const name = file.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  const parsed = parseWorldInfoFile(value, name);
  if (!parsed.ok) {
    const issue = parsed.issues[0]!;
    const at = locateJsonPath(text, issue.path);
    throw new ImportError(
      'IMPORT_BAD_WORLD_INFO',
      `${file}:${at.line}:${at.col}: ${issue.path}`,
      `${issue.message}${parsed.issues.length > 1 ? ` (and ${parsed.issues.length - 1} more problems)` : ''}`,
    );
  }
  for (const note of parsed.notes) loss.add(note.name, note.path, note.message);
  const files = worldInfoCartridge(parsed.book, options.intoExistingCartridge === true);
  return { kind: 'world-info', name: parsed.book.name, files, loss: loss.items };
}

/** A World Info file: `{entries: …}` without a card's fields (Chub adds name and settings), or a lorebook_v3. */
function isWorldInfoFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const file = value as Record<string, unknown>;
  if (file.spec === 'lorebook_v3') return true;
  return 'entries' in file && !('spec' in file) && !('data' in file) && !('first_mes' in file);
}

/** A World Info file alone: `world_info.json`, with a minimal cartridge around it unless one exists. */
function worldInfoCartridge(book: WorldInfoBook, intoExisting: boolean): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  files.set('world_info.json', `${JSON.stringify(toWorldInfoFile(book), null, 4)}\n`);
  if (intoExisting) return files;
  files.set(
    'yare.yaml',
    `# Imported from a SillyTavern World Info file (mnesos import). Add rules and characters below.\nversion: 1\nbot_name: ${JSON.stringify(book.name)}\n`,
  );
  files.set(
    'bot_lore.md',
    `# ${book.name}\n\nThis world's lore is in world_info.json (SillyTavern World Info).\n`,
  );
  return files;
}
