// The files of a cartridge, and reading them from a folder. This is the only module of the cartridge
// loader that touches the file system; everything else works on a Map of file name to content, which is
// also what an uploaded archive becomes.
//
// A folder is untrusted: a file may be a symbolic link to anywhere (refused when it leaves the folder),
// a directory or a named pipe (refused: reading a pipe would block forever), or far too large (refused by
// its size before reading, and the read itself is bounded in case it grows meanwhile).

import type { Stats } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { type CartridgeCode, cartError, fileStart } from './diagnostics.ts';
import {
  MAX_ALTERNATE_GREETINGS_BYTES,
  MAX_DIRECTIVES_FILE_BYTES,
  MAX_FIRST_MESSAGE_BYTES,
  MAX_INTENTS_FILE_BYTES,
  MAX_LORE_BYTES,
  MAX_YARE_BYTES,
} from './limits.ts';
import { MAX_WORLD_INFO_BYTES } from '../lore/index.ts';
import { errnoCode, isNotFound } from '../errno.ts';

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

/** The spec of a file kind (every kind has exactly one). */
export function specOf(kind: CartridgeFileKind): CartridgeFileSpec {
  const spec = CARTRIDGE_FILES.find((s) => s.kind === kind);
  if (!spec) throw new Error(`no cartridge file of kind ${kind}`);
  return spec;
}

export type FolderReadResult =
  | { ok: true; files: Map<string, Uint8Array>; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[] };

/** Reads the cartridge files that exist in `dir`. Missing files are simply absent from the map. */
export async function readCartridgeFolder(dir: string): Promise<FolderReadResult> {
  let realDir: string;
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      return {
        ok: false,
        errors: [
          cartError(
            'CART_NOT_A_DIRECTORY',
            `'${dir}' is a file, not a cartridge folder. Give the folder that holds yare.yaml and bot_lore.md.`,
            fileStart(dir),
          ),
        ],
      };
    }
    realDir = await realpath(dir);
  } catch (error) {
    const code = errnoCode(error);
    if (code === undefined) throw error;
    return {
      ok: false,
      errors: [
        isNotFound(error)
          ? cartError(
              'CART_NOT_FOUND',
              `No cartridge folder at '${dir}' (${code}). Check the path.`,
              fileStart(dir),
            )
          : cartError(
              'CART_FILE_UNREADABLE',
              `Cannot read the cartridge folder '${dir}' (${code}). Check its permissions.`,
              fileStart(dir),
            ),
      ],
    };
  }

  const files = new Map<string, Uint8Array>();
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const spec of CARTRIDGE_FILES) {
    const path = join(dir, spec.name);
    const read = await readOne(path, realDir, spec.maxBytes);
    switch (read.kind) {
      case 'absent':
        break;
      case 'read':
        files.set(spec.name, read.bytes);
        break;
      case 'refused':
        errors.push(read.error);
        break;
      default: {
        const unreachable: never = read;
        throw new Error(`unreachable ${String(unreachable)}`);
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, files, warnings };
}

type ReadOne =
  | { kind: 'absent' }
  | { kind: 'read'; bytes: Uint8Array }
  | { kind: 'refused'; error: Diagnostic };

async function readOne(path: string, realDir: string, maxBytes: number): Promise<ReadOne> {
  const place = fileStart(path);
  let link: Stats;
  try {
    link = await lstat(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'absent' };
    return refused('CART_FILE_UNREADABLE', `Cannot read ${path} (${fsCode(error)}).`, place);
  }
  let target = path;
  if (link.isSymbolicLink()) {
    try {
      target = await realpath(path);
    } catch (error) {
      return refused(
        'CART_FILE_UNREADABLE',
        `${path} is a symbolic link to nothing (${fsCode(error)}). Replace it with the file itself.`,
        place,
      );
    }
    const inside = relative(realDir, target);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      return refused(
        'CART_SYMLINK_OUTSIDE',
        `${path} is a symbolic link that leads outside the cartridge folder. Copy the file into the folder instead.`,
        place,
      );
    }
  }
  try {
    return await readBounded(path, target, maxBytes);
  } catch (error) {
    return refused('CART_FILE_UNREADABLE', `Cannot read ${path} (${fsCode(error)}).`, place);
  }
}

async function readBounded(path: string, target: string, maxBytes: number): Promise<ReadOne> {
  const place = fileStart(path);
  const info = await stat(target);
  if (!info.isFile()) {
    return refused('CART_NOT_A_FILE', `${path} is not a regular file. It must be a text file.`, place);
  }
  if (info.size > maxBytes) {
    return refused(
      'CART_FILE_TOO_LARGE',
      `${path} is ${info.size} bytes; the limit is ${maxBytes} bytes. Shorten it.`,
      place,
    );
  }
  // Read at most one byte past the limit, so a file that grew after `stat` is still refused, not read whole.
  const handle = await open(target, 'r');
  try {
    const buffer = new Uint8Array(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) {
      return refused('CART_FILE_TOO_LARGE', `${path} is larger than the limit of ${maxBytes} bytes.`, place);
    }
    return { kind: 'read', bytes: buffer.slice(0, filled) };
  } finally {
    await handle.close();
  }
}

function refused(code: CartridgeCode, message: string, place: SourcePlace): ReadOne {
  return { kind: 'refused', error: cartError(code, message, place) };
}

/** A file-system failure's errno code; anything else is not a file-system failure and is rethrown. */
function fsCode(error: unknown): string {
  const code = errnoCode(error);
  if (code === undefined) throw error;
  return code;
}
