// The stable error codes of cartridge loading, and small helpers to build diagnostics with them.
// Codes are part of the public contract (`validate --json`, docs/cartridges.md): never rename one.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { lineColAt } from '../lore/index.ts';

export type CartridgeCode =
  // files
  | 'CART_NOT_FOUND'
  | 'CART_NOT_A_DIRECTORY'
  | 'CART_FILE_MISSING'
  | 'CART_NOT_A_FILE'
  | 'CART_SYMLINK_OUTSIDE'
  | 'CART_FILE_UNREADABLE'
  | 'CART_FILE_TOO_LARGE'
  | 'CART_BAD_ENCODING'
  | 'CART_CONTROL_CHARACTER'
  | 'CART_UNSUPPORTED_FILE'
  | 'CART_RULES_AMBIGUOUS'
  // rules written in JavaScript / TypeScript (yare.js, yare.ts)
  | 'CART_RULES_SCRIPT'
  | 'CART_RULES_SCRIPT_SHAPE'
  | 'CART_RULES_SCRIPT_LIMIT'
  // mini-games started by the rules (src/core/minigames manifests)
  | 'CART_MINIGAME_UNKNOWN'
  | 'CART_MINIGAME_CONFIG'
  // YAML
  | 'CART_YAML_SYNTAX'
  | 'CART_YAML_DIRECTIVE'
  | 'CART_MULTIPLE_DOCUMENTS'
  | 'CART_DUPLICATE_KEY'
  | 'CART_BAD_KEY'
  | 'CART_FORBIDDEN_KEY'
  | 'CART_UNKNOWN_TAG'
  | 'CART_ALIAS_LIMIT'
  | 'CART_ALIAS_CYCLE'
  | 'CART_TOO_DEEP'
  | 'CART_TOO_MANY_NODES'
  | 'CART_NON_FINITE'
  | 'CART_UNSAFE_INTEGER'
  // structure
  | 'CART_NOT_A_MAPPING'
  | 'CART_BAD_FIELD'
  // directives
  | 'CART_UNKNOWN_DIRECTIVE'
  | 'CART_DIRECTIVE_RENAMED'
  | 'CART_DIRECTIVE_CONFLICT'
  | 'CART_DIRECTIVE_NOT_STRING'
  | 'CART_DIRECTIVE_TOO_LONG'
  | 'CART_DIRECTIVES_TOO_LONG'
  // injection
  | 'CART_INJECTION'
  | 'CART_INJECTION_SUSPECT'
  // persona
  | 'CART_BAD_PERSONA'
  // intents.yaml
  | 'CART_INTENT_EVENT'
  | 'CART_INTENT_INPUT'
  | 'CART_INTENT_VALUE'
  | 'CART_INTENT_DUPLICATE'
  // world_info.json
  | 'CART_BAD_WORLD_INFO'
  | 'CART_WORLD_INFO_DIFFERS';

export function cartError(code: CartridgeCode, message: string, place?: SourcePlace): Diagnostic {
  return place ? { severity: 'error', code, message, place } : { severity: 'error', code, message };
}

export function cartWarning(code: CartridgeCode, message: string, place?: SourcePlace): Diagnostic {
  return place ? { severity: 'warning', code, message, place } : { severity: 'warning', code, message };
}

/** `file:line:col` of a character offset inside a text that is not YAML (lore, first message). */
export function placeInText(text: string, offset: number, file: string): SourcePlace {
  return { file, ...lineColAt(text, offset) };
}

/** The start of a file, for problems about the file as a whole (missing, too large, wrong type). */
export function fileStart(file: string): SourcePlace {
  return { file, line: 1, col: 1 };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
