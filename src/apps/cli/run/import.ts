// The work of `mnesos import <file> <folder>`: read the file (size checked first), import it, check that the
// result loads as a cartridge, then write the files and the loss report. Nothing is written when any step
// fails, and existing files are never overwritten without --force: a World Info file imported into a
// cartridge that already has one is merged into it (--force replaces it), and its report is appended to
// the folder's import-report.md, so the card's own report is kept.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendInside,
  loadCartridgeFromFiles,
  readCartridgeFolder,
  refuseLinkedFolder,
  writeInside,
} from '../../../adapters/files/index.ts';
import { formatDiagnostic } from '../../../core/diagnostics.ts';
import {
  formatLossReport,
  ImportError,
  importSillyTavern,
  MAX_IMPORT_FILE_BYTES,
  mergeWorldInfo,
  REPORT_FILE,
} from '../../../tools/interop/index.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { UserError } from '../user-error.ts';

type ImportFlags = { greeting?: string; force?: boolean; json?: boolean };
type Imported = ReturnType<typeof importSillyTavern>;

function parseGreeting(text: string | undefined): number {
  const greeting = Number(text ?? '0');
  if (!Number.isInteger(greeting) || greeting < 0)
    throw new UserError(`--greeting must be a whole number from 0, got ${JSON.stringify(text)}`, EXIT.usage);
  return greeting;
}

/** The file's bytes, its size checked against MAX_IMPORT_FILE_BYTES before it is read. */
function readImportFile(file: string): Buffer {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new UserError(`${file}: cannot read (${(error as Error).message})`);
  }
  if (size > MAX_IMPORT_FILE_BYTES)
    throw new UserError(
      `${file}: ${size} bytes; the limit is ${MAX_IMPORT_FILE_BYTES} (MAX_IMPORT_FILE_BYTES)`,
    );
  return readFileSync(file);
}

/** An ImportError from `work` as a UserError naming its code. */
function orUserError<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ImportError) throw new UserError(`${error.message} [${error.code}]`);
    throw error;
  }
}

/** Refuses a card into an existing cartridge, and a new cartridge into a non-empty folder without --force. */
function checkTarget(folder: string, existing: boolean, result: Imported, flags: ImportFlags): void {
  if (existing && result.kind !== 'world-info')
    throw new UserError(`${folder} already holds a cartridge; import a character card into a new folder`);
  if (!existing && existsSync(folder) && readdirSync(folder).length > 0 && !flags.force)
    throw new UserError(`${folder} is not empty; choose a new folder (or --force to write into it)`);
}

/** The files the cartridge will have, and whether the imported World Info was merged into the folder's own. */
interface Combined {
  readonly files: Map<string, string | Uint8Array>;
  readonly mergeNote: string;
  readonly mergedInto: boolean;
}

/**
 * The folder's own files under the imported ones. Into an existing cartridge with a world_info.json (and no
 * --force), the imported book is merged into it, and `result.files` holds the merged file.
 */
async function combineWithFolder(folder: string, result: Imported, flags: ImportFlags): Promise<Combined> {
  const files = new Map<string, string | Uint8Array>();
  const read = await readCartridgeFolder(folder);
  if (!read.ok) throw new UserError(read.errors.map(formatDiagnostic).join('\n'));
  for (const [name, content] of read.files) files.set(name, content);
  const current = read.files.get('world_info.json');
  const incoming = result.files.get('world_info.json');
  let mergeNote = '';
  let mergedInto = false;
  if (current !== undefined && incoming !== undefined && !flags.force) {
    const merged = orUserError(() =>
      mergeWorldInfo(
        Buffer.from(current).toString('utf8'),
        String(incoming),
        join(folder, 'world_info.json'),
      ),
    );
    result.files.set('world_info.json', merged.text);
    mergeNote = `- merged into the existing world_info.json: ${merged.added} entries added, ${merged.duplicates} already there (same keys and content) left out; the book's settings are the existing file's (--force replaces the file instead)\n`;
    mergedInto = true;
  }
  for (const [name, content] of result.files) files.set(name, content);
  return { files, mergeNote, mergedInto };
}

/** Writes the imported files and the loss report (appended after the folder's own, into an existing one). */
function writeImport(
  folder: string,
  result: Imported,
  report: string,
  where: { existing: boolean; mergedInto: boolean; force: boolean },
): void {
  const { existing, mergedInto, force } = where;
  // The merged world_info.json holds the existing file's entries: the import's own to replace.
  for (const [name, content] of result.files)
    writeInside(folder, name, content, {
      force,
      ...(mergedInto && name === 'world_info.json' ? { owns: () => true } : {}),
    });
  // Into an existing cartridge, the report is added after the folder's own (the card's report stays).
  if (existing && existsSync(join(folder, REPORT_FILE))) appendInside(folder, REPORT_FILE, `\n${report}`);
  else writeInside(folder, REPORT_FILE, report, { force });
}

export async function runImport(file: string, folder: string, flags: ImportFlags): Promise<void> {
  const greeting = parseGreeting(flags.greeting);
  const bytes = readImportFile(file);
  // Files go through the one safe writer (src/adapters/files/safe-write.ts): no link is followed.
  refuseLinkedFolder(folder);
  const existing = existsSync(join(folder, 'yare.yaml'));
  const result = orUserError(() =>
    importSillyTavern(bytes, file, { greeting, intoExistingCartridge: existing }),
  );
  checkTarget(folder, existing, result, flags);
  // The result must load, with the folder's own files when the World Info goes into an existing cartridge.
  const combined: Combined = existing
    ? await combineWithFolder(folder, result, flags)
    : { files: new Map(result.files), mergeNote: '', mergedInto: false };
  const loaded = loadCartridgeFromFiles(combined.files, result.name, { root: folder });
  if (!loaded.ok)
    throw new UserError(
      `the imported cartridge does not load:\n${loaded.errors.map(formatDiagnostic).join('\n')}`,
    );
  const report =
    formatLossReport(
      `Import of ${file} (${result.kind}${result.spec ? `, card ${result.spec}` : ''}${result.chunk ? `, PNG chunk ${result.chunk}` : ''})`,
      result.loss,
    ) + combined.mergeNote;
  writeImport(folder, result, report, {
    existing,
    mergedInto: combined.mergedInto,
    force: flags.force === true,
  });
  if (flags.json) {
    process.stdout.write(
      `${toJsonText({ ok: true, kind: result.kind, spec: result.spec ?? null, chunk: result.chunk ?? null, name: result.name, folder, files: [...result.files.keys(), REPORT_FILE], loss: result.loss }, 2)}\n`,
    );
    return;
  }
  process.stdout.write(
    `Imported "${result.name}" into ${folder} (${[...result.files.keys()].join(', ')}).\n\n${report}`,
  );
  for (const w of loaded.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
}
