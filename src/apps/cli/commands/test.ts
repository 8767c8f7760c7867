// `mnesos test <cartridge> [--bless] [--filter TEXT] [--json]`: runs the cartridge's scenario files
// (tests/*.yaml). Exit 0 when every scenario and property passes; 1 when one fails or a file is wrong
// (each failure at its file:line:col); 2 usage. Registration only; the work is in ../run/test.ts.

import type { Command } from 'commander';
import type { TestFlags } from '../run/test.ts';

export function register(program: Command): void {
  program
    .command('test')
    .description("Run a cartridge's scenario tests (tests/*.yaml); --bless records turn transcripts.")
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('--bless', 'write the observed transcripts as the blessed ones')
    .option(
      '--force',
      'with --bless: replace a file at a transcript’s place that is not that scenario’s transcript',
    )
    .option('--filter <text>', 'run only scenarios whose name or file contains this text')
    .option('--json', 'print {"ok","cases","fileErrors","eventsNotRun"} as JSON')
    .action(async (cartridgeArg: string, flags: TestFlags) => {
      const { runTestCommand } = await import('../run/test.ts');
      await runTestCommand(cartridgeArg, flags);
    });
}
