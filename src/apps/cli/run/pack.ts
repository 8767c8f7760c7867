// The work of `mnesos pack <cartridge> [-o file.zip]` (see ../commands/pack.ts). The cartridge must load;
// the archive is read back with the upload's reader (src/adapters/files/archive) and loaded again before it is written.

import { basename } from 'node:path';
import { packCartridge } from '../../../tools/authoring/index.ts';
import { loadCartridgeFromFiles, readArchive, writeNamedFile } from '../../../adapters/files/index.ts';
import { formatDiagnostic } from '../../../core/diagnostics.ts';
import { loadCartridgeArg, resolveCartridgePath } from '../cartridge-arg.ts';
import { UserError } from '../user-error.ts';

export async function runPack(
  cartridgeArg: string,
  flags: { output?: string; force?: boolean },
): Promise<void> {
  const dir = resolveCartridgePath(cartridgeArg);
  await loadCartridgeArg(dir);
  const packed = packCartridge(dir);
  if (!packed.ok) throw new UserError(`${dir}: ${packed.message}`);
  const reread = loadCartridgeFromFiles(readArchive(packed.bytes), basename(dir));
  if (!reread.ok) throw new UserError(reread.errors.map(formatDiagnostic).join('\n'));
  const output = flags.output ?? `${basename(dir)}.zip`;
  // Never through a link, and an existing file only with --force (src/adapters/files/safe-write.ts).
  writeNamedFile(output, packed.bytes, { force: flags.force === true });
  process.stdout.write(
    `Wrote ${output} (${packed.bytes.byteLength} bytes, ${packed.files.length} files: ${packed.files.join(', ')})\n`,
  );
}
