// `world_info.json`: a SillyTavern World Info file (or a `lorebook_v3`) inside a cartridge. When present, its
// entries are activated by their keys every turn, as SillyTavern does (src/core/lore/world-info-activation.ts), beside the
// BM25 lookup over `bot_lore.md`. Problems name their place (`world_info.json:12:7`); options that behave
// differently from SillyTavern are warnings.

import type { Diagnostic } from '../diagnostics.ts';
import { locateJsonPath, parseJsonText, parseWorldInfoFile, type WorldInfoBook } from '../lore/index.ts';
import { cartError, cartWarning } from './diagnostics.ts';
import { applyPersonaMacros, type Persona } from './persona.ts';

export function loadWorldInfo(
  text: string,
  file: string,
  bookName: string,
  persona: Persona | undefined,
): { book: WorldInfoBook | undefined; diagnostics: Diagnostic[] } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      book: undefined,
      diagnostics: [cartError('CART_BAD_WORLD_INFO', parsed.message, { file, ...parsed.at })],
    };
  }
  const read = parseWorldInfoFile(parsed.value, bookName);
  if (!read.ok) {
    return {
      book: undefined,
      diagnostics: read.issues.map((issue) =>
        cartError('CART_BAD_WORLD_INFO', `${issue.path}: ${issue.message}`, {
          file,
          ...locateJsonPath(text, issue.path),
        }),
      ),
    };
  }
  const diagnostics = read.notes.map((note) =>
    cartWarning('CART_WORLD_INFO_DIFFERS', `${note.path}: ${note.message}`, {
      file,
      ...locateJsonPath(text, note.path),
    }),
  );
  const macro = (s: string) => applyPersonaMacros(s, persona);
  const book: WorldInfoBook = {
    ...read.book,
    entries: read.book.entries.map((entry) => ({
      ...entry,
      content: macro(entry.content),
      keys: entry.keys.map(macro),
      secondaryKeys: entry.secondaryKeys.map(macro),
    })),
  };
  return { book, diagnostics };
}
