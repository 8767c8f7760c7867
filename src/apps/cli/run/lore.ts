// The work of `mnesos lore <cartridge> "<text>"`: what the lore would do for the text, with the timed effects
// of --state and the `when` conditions on --state and --world (src/tools/authoring/lore-report.ts).

import { initialWorld } from '../../../engine/turn/index.ts';
import { explainLore, loreReportJson, loreReportLines } from '../../../tools/authoring/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { readWorldFile } from '../play/world-file.ts';
import { readStateFile } from '../state-file.ts';
import { UserError } from '../user-error.ts';

export async function runLore(
  cartridgeArg: string,
  text: string,
  flags: { message?: string[]; state?: string; world?: string; seed?: string; json?: boolean },
): Promise<void> {
  const seed = Number(flags.seed ?? '0');
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new UserError(`--seed must be a whole number, got ${flags.seed}`, EXIT.usage);
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const report = explainLore({
    cartridge,
    state: readStateFile(flags.state, cartridge.rules),
    world: flags.world === undefined ? initialWorld(cartridge) : readWorldFile(flags.world),
    text,
    messages: flags.message ?? [],
    seed,
  });
  if (flags.json) {
    process.stdout.write(`${toJsonText(loreReportJson(report), 2)}\n`);
    return;
  }
  process.stdout.write(`${loreReportLines(report).join('\n')}\n`);
}
