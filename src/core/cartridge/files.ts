// The files of a cartridge: their names, kinds and size limits. The loader works on a Map of file name to
// content (what a folder or an uploaded archive becomes); reading a folder is src/adapters/files'.

import {
  MAX_ALTERNATE_GREETINGS_BYTES,
  MAX_DIRECTIVES_FILE_BYTES,
  MAX_FIRST_MESSAGE_BYTES,
  MAX_INTENTS_FILE_BYTES,
  MAX_LORE_BYTES,
  MAX_YARE_BYTES,
} from './limits.ts';
import { MAX_WORLD_INFO_BYTES } from '../lore/index.ts';

export type CartridgeFileKind =
  | 'yare'
  | 'yareJs'
  | 'yareTs'
  | 'lore'
  | 'directives'
  | 'firstMessage'
  | 'alternateGreetings'
  | 'intents'
  | 'worldInfo';

export interface CartridgeFileSpec {
  readonly kind: CartridgeFileKind;
  readonly name: string;
  readonly required: boolean;
  readonly maxBytes: number;
  /** What the file is for, used in "missing" messages. */
  readonly purpose: string;
}

export const CARTRIDGE_FILES: readonly CartridgeFileSpec[] = [
  { kind: 'yare', name: 'yare.yaml', required: true, maxBytes: MAX_YARE_BYTES, purpose: 'the rules' },
  // The rules may instead be a JavaScript or TypeScript module (src/core/cartridge/js-rules): exactly one of
  // the three rules files. yare.yaml stays `required` so a folder with none says what to create.
  {
    kind: 'yareJs',
    name: 'yare.js',
    required: false,
    maxBytes: MAX_YARE_BYTES,
    purpose: 'the rules in JavaScript',
  },
  {
    kind: 'yareTs',
    name: 'yare.ts',
    required: false,
    maxBytes: MAX_YARE_BYTES,
    purpose: 'the rules in TypeScript',
  },
  { kind: 'lore', name: 'bot_lore.md', required: true, maxBytes: MAX_LORE_BYTES, purpose: 'the world lore' },
  {
    kind: 'directives',
    name: 'prompt_directives.yaml',
    required: false,
    maxBytes: MAX_DIRECTIVES_FILE_BYTES,
    purpose: 'the directives for the director, npc and narrator models',
  },
  {
    kind: 'firstMessage',
    name: 'first-message.md',
    required: false,
    maxBytes: MAX_FIRST_MESSAGE_BYTES,
    purpose: 'the opening message',
  },
  {
    kind: 'alternateGreetings',
    name: 'alternate_greetings.json',
    required: false,
    maxBytes: MAX_ALTERNATE_GREETINGS_BYTES,
    purpose: 'other opening messages a new game may start with',
  },
  {
    kind: 'intents',
    name: 'intents.yaml',
    required: false,
    maxBytes: MAX_INTENTS_FILE_BYTES,
    purpose: 'the inputs intent phrases imply',
  },
  {
    kind: 'worldInfo',
    name: 'world_info.json',
    required: false,
    maxBytes: MAX_WORLD_INFO_BYTES,
    purpose: 'SillyTavern World Info entries',
  },
];

/**
 * Files an imported character card leaves beside the cartridge files (docs/sillytavern.md): its avatar and
 * the card itself, which `mnesos export` gives back. Not cartridge files (the engine never reads them), but
 * part of the folder `mnesos pack` shares.
 */
export const COMPANION_FILES: readonly string[] = [
  'avatar.png',
  'avatar.jpg',
  'avatar.webp',
  'avatar.gif',
  'avatar.avif',
  'sillytavern-card.json',
];

/** The spec of a file kind (every kind has exactly one). */
export function specOf(kind: CartridgeFileKind): CartridgeFileSpec {
  const spec = CARTRIDGE_FILES.find((s) => s.kind === kind);
  if (!spec) throw new Error(`no cartridge file of kind ${kind}`);
  return spec;
}
