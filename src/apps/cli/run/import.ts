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

export async function runImport(
  file: string,
  folder: string,
  flags: { greeting?: string; force?: boolean; json?: boolean },
): Promise<void> {
  const greeting = Number(flags.greeting ?? '0');
  if (!Number.isInteger(greeting) || greeting < 0)
    throw new UserError(
      `--greeting must be a whole number from 0, got ${JSON.stringify(flags.greeting)}`,
      EXIT.usage,
    );
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
  const bytes = readFileSync(file);
  // Files go through the one safe writer (src/adapters/files/safe-write.ts): no link is followed.
  refuseLinkedFolder(folder);
  const existing = existsSync(join(folder, 'yare.yaml'));
  let result: ReturnType<typeof importSillyTavern>;
  try {
    result = importSillyTavern(bytes, file, { greeting, intoExistingCartridge: existing });
  } catch (error) {
    if (error instanceof ImportError) throw new UserError(`${error.message} [${error.code}]`);
    throw error;
  }
  if (existing && result.kind !== 'world-info')
    throw new UserError(`${folder} already holds a cartridge; import a character card into a new folder`);
  if (!existing && existsSync(folder) && readdirSync(folder).length > 0 && !flags.force)
    throw new UserError(`${folder} is not empty; choose a new folder (or --force to write into it)`);

  // The result must load, with the folder's own files when the World Info goes into an existing cartridge.
  let mergeNote = '';
  let mergedInto = false;
  const combined = new Map<string, string | Uint8Array>();
  if (existing) {
    const read = await readCartridgeFolder(folder);
    if (!read.ok) throw new UserError(read.errors.map(formatDiagnostic).join('\n'));
    for (const [name, content] of read.files) combined.set(name, content);
    const current = read.files.get('world_info.json');
    const incoming = result.files.get('world_info.json');
    if (current !== undefined && incoming !== undefined && !flags.force) {
      let merged: ReturnType<typeof mergeWorldInfo>;
      try {
        merged = mergeWorldInfo(
          Buffer.from(current).toString('utf8'),
          String(incoming),
          join(folder, 'world_info.json'),
        );
      } catch (error) {
        if (error instanceof ImportError) throw new UserError(`${error.message} [${error.code}]`);
        throw error;
      }
      result.files.set('world_info.json', merged.text);
      mergeNote = `- merged into the existing world_info.json: ${merged.added} entries added, ${merged.duplicates} already there (same keys and content) left out; the book's settings are the existing file's (--force replaces the file instead)\n`;
      mergedInto = true;
    }
  }
  for (const [name, content] of result.files) combined.set(name, content);
  const loaded = loadCartridgeFromFiles(combined, result.name, { root: folder });
  if (!loaded.ok)
    throw new UserError(
      `the imported cartridge does not load:\n${loaded.errors.map(formatDiagnostic).join('\n')}`,
    );

  const report =
    formatLossReport(
      `Import of ${file} (${result.kind}${result.spec ? `, card ${result.spec}` : ''}${result.chunk ? `, PNG chunk ${result.chunk}` : ''})`,
      result.loss,
    ) + mergeNote;
  const force = flags.force === true;
  // The merged world_info.json holds the existing file's entries: the import's own to replace.
  for (const [name, content] of result.files)
    writeInside(folder, name, content, {
      force,
      ...(mergedInto && name === 'world_info.json' ? { owns: () => true } : {}),
    });
  // Into an existing cartridge, the report is added after the folder's own (the card's report stays).
  if (existing && existsSync(join(folder, REPORT_FILE))) appendInside(folder, REPORT_FILE, `\n${report}`);
  else writeInside(folder, REPORT_FILE, report, { force });
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
