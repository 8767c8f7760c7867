// `mnesos eval <cartridge> '<expression>' [--state f] [--seed N]`: prints the value as JSON.
// Registration only; the work is in ../run/eval.ts, imported when the command runs.

import type { Command } from 'commander';
import { parseSeed } from '../options.ts';

export function register(program: Command): void {
  program
    .command('eval')
    .description('Evaluate a YARE expression against a state and print its value as JSON.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .argument('<expression>', "expression, with or without the leading @ (e.g. '@ state.player.hp + 1')")
    .option('--state <file>', 'state JSON (default: the initial state)')
    .option('--seed <n>', 'dice seed', parseSeed, 0)
    .action(async (cartridgeArg: string, expression: string, flags: { state?: string; seed?: number }) => {
      const { runEval } = await import('../run/eval.ts');
      await runEval(cartridgeArg, expression, flags);
    });
}
