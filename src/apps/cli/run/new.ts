// The work of `mnesos new <folder> [--template NAME]` (see ../commands/new.ts).

import { scaffoldCartridge } from '../../../tools/authoring/index.ts';
import { UserError } from '../user-error.ts';

export function runNew(folder: string, flags: { template: string }): void {
  const result = scaffoldCartridge(folder, flags.template);
  if (!result.ok) throw new UserError(result.message);
  process.stdout.write(`Created ${folder} from the '${flags.template}' template:\n`);
  for (const file of result.files.filter((f) => !f.startsWith('.schemas/')))
    process.stdout.write(`  ${file}\n`);
  const q = /^[A-Za-z0-9_./-]+$/.test(folder) ? folder : JSON.stringify(folder);
  process.stdout.write(
    `\nNext, try:\n  mnesos test ${q}    # run its scenario tests\n  mnesos play ${q}    # play it in the terminal (offline unless a model is set)\n  mnesos pack ${q}    # make ${q}.zip to upload or share\n`,
  );
}
