// The work of `mnesos eval <cartridge> '<expression>' [--state f] [--seed N]`: prints the value as JSON.

import { evaluateExpression } from '../../../core/yare/index.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { readStateFile } from '../state-file.ts';

export async function runEval(
  cartridgeArg: string,
  expression: string,
  flags: { state?: string; seed?: number },
): Promise<void> {
  const cartridge = await loadCartridgeArg(cartridgeArg);
  const state = readStateFile(flags.state, cartridge.rules);
  const result = evaluateExpression(cartridge.rules, state, expression, { seed: flags.seed ?? 0 });
  if (!result.ok) {
    const col = result.error.column !== undefined ? ` (column ${result.error.column})` : '';
    process.stderr.write(`<expression>${col}: ${result.error.message} [${result.error.code}]\n`);
    process.exitCode = EXIT.user;
    return;
  }
  process.stdout.write(`${toJsonText(result.value)}\n`);
}
