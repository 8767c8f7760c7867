// The work of `mnesos export <cartridge> --card f|--world f`: the cartridge must load; its files are read
// as written (persona macros not applied, so `{{user}}` goes back as a macro).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CARD_COPY_FILE,
  type CartridgeTexts,
  exportCard,
  exportPngCard,
  exportWorldInfo,
  ImportError,
} from '../../../tools/interop/index.ts';
import { writeNamedFile } from '../../../adapters/files/index.ts';
import { loadCartridgeArg, resolveCartridgePath } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

const TEXT_FILES = [
  'prompt_directives.yaml',
  'bot_lore.md',
  'first-message.md',
  'alternate_greetings.json',
  'world_info.json',
  CARD_COPY_FILE,
];

export async function runExport(
  cartridgeArg: string,
  flags: { card?: string; world?: string; force?: boolean },
): Promise<void> {
  // Never through a link, and an existing file only with --force (src/adapters/files/safe-write.ts).
  const write = { force: flags.force === true };
  if (flags.card === undefined && flags.world === undefined)
    throw new UserError('give --card out.png|out.json and/or --world out.json', EXIT.usage);
  if (flags.card !== undefined && !/\.(png|json)$/i.test(flags.card))
    throw new UserError(`--card ${flags.card}: the file name must end in .png or .json`, EXIT.usage);
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const folder = resolveCartridgePath(cartridgeArg);
  const texts = new Map<string, string>();
  for (const name of TEXT_FILES) {
    const path = join(folder, name);
    if (existsSync(path)) texts.set(name, readFileSync(path, 'utf8'));
  }
  const read: CartridgeTexts = texts;
  try {
    if (flags.card !== undefined) {
      if (/\.png$/i.test(flags.card)) {
        const avatarPath = join(folder, 'avatar.png');
        const avatar = existsSync(avatarPath) ? readFileSync(avatarPath) : undefined;
        writeNamedFile(flags.card, exportPngCard(read, cartridge.name, avatar), write);
      } else {
        const spec = /\.v3\.json$/i.test(flags.card) ? 'v3' : 'v2';
        writeNamedFile(
          flags.card,
          `${JSON.stringify(exportCard(read, cartridge.name, spec), null, 4)}\n`,
          write,
        );
      }
      process.stdout.write(`Wrote the character card ${flags.card}\n`);
    }
    if (flags.world !== undefined) {
      writeNamedFile(
        flags.world,
        `${JSON.stringify(exportWorldInfo(read, cartridge.name), null, 4)}\n`,
        write,
      );
      process.stdout.write(`Wrote the World Info file ${flags.world}\n`);
    }
  } catch (error) {
    if (error instanceof ImportError) throw new UserError(`${error.message} [${error.code}]`);
    throw error;
  }
}
