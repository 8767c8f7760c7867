// `mnesos explore <cartridge> [--runs N] [--depth D] [--seed S] [--state F] [--json] [--write-failures DIR]`:
// seeded random playthroughs of a cartridge (docs/explore.md). Exit 0 when nothing broke, 1 when a
// violation was found (or the cartridge does not load), 2 for a usage error; `--json` prints exactly one
// JSON document whatever the outcome. Registration only; the work is in ../run/explore.ts.

import type { Command, CommanderError } from 'commander';
import { EXIT } from '../exit-codes.ts';
import type { ExploreFlags } from '../run/explore.ts';

/** `--json` on the command line: a usage error commander finds is answered in JSON too. */
const wantsJson = (): boolean => process.argv.includes('--json');

export function register(program: Command): void {
  program
    .command('explore')
    .description(
      'Play a cartridge at random (seeded): report runtime errors, budget hits, broken invariants, fields out of bounds, notes that cannot render, and what was never reached.',
    )
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('--runs <n>', 'random playthroughs (default 100, at most 10000)')
    .option('--depth <n>', 'steps per playthrough (default 30, at most 1000)')
    .option('--seed <n>', 'the seed of every choice (default 1): the same seed gives the same report')
    .option('--state <file>', 'state JSON every playthrough starts from (over the defaults)')
    .option('--json', 'print the report as one JSON document')
    .option(
      '--write-failures <dir>',
      'write each violation, shrunk, as a scenario file mnesos test runs (it fails while the bug is there)',
    )
    .option('--force', 'with --write-failures: replace files in the folder that explore did not write')
    .configureOutput({
      writeErr: (text) => {
        if (!wantsJson()) process.stderr.write(text);
      },
    })
    .exitOverride((error: CommanderError) => {
      if (wantsJson() && error.exitCode !== EXIT.ok) {
        const message = error.message.replace(/^error: /, '');
        process.stdout.write(`${JSON.stringify({ ok: false, error: { kind: 'usage', message } })}\n`);
      }
      throw error;
    })
    .action(async (cartridgeArg: string, flags: ExploreFlags) => {
      const { runExploreCommand } = await import('../run/explore.ts');
      await runExploreCommand(cartridgeArg, flags);
    });
}
