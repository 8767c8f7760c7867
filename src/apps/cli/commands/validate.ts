// `mnesos validate <cartridge> [--json]` (README.md, the command-line contract): exit 0 when the cartridge
// loads, printing any warnings; else exit 1 with one `file:line:col: message` line per error. `--json`
// prints `{"ok","errors":[{"file","line","col","code","message"}],"warnings":[…]}` instead.
// Registration only; the work is in ../run/validate.ts, imported when the command runs.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('validate')
    .description('Check a cartridge: every error with file:line:col; exit 0 when it is valid.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('--json', 'print the result as JSON')
    .option('--strict', 'fail (exit 1) on warnings too, lint findings included')
    .action(async (cartridgeArg: string, flags: { json?: boolean; strict?: boolean }) => {
      const { runValidate } = await import('../run/validate.ts');
      await runValidate(cartridgeArg, flags);
    });
}
