// `mnesos eval <cartridge> '<expression>' [--state f] [--seed N]`: prints the value as JSON.

import type { Command } from 'commander';
import { evaluateExpression } from '../../yare/evaluate-text.ts';
import { loadCartridgeArg } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { parseSeed } from '../options.ts';
import { readStateFile } from '../state-file.ts';

export function register(program: Command): void {
  program
    .command('eval')
    .description('Evaluate a YARE expression against a state and print its value as JSON.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .argument('<expression>', "expression, with or without the leading @ (e.g. '@ state.player.hp + 1')")
    .option('--state <file>', 'state JSON (default: the initial state)')
    .option('--seed <n>', 'dice seed', parseSeed, 0)
    .action(async (cartridgeArg: string, expression: string, flags: { state?: string; seed?: number }) => {
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
    });
}
