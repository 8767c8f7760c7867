// `mnesos new <folder> [--template NAME]`: a small, playable, commented cartridge that validates and passes
// its own tests. Registration only; the work is in ../run/new.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('new')
    .description('Create a new cartridge folder from a template (minimal, combat, eldoria).')
    .argument('<folder>', 'the folder to create (must not exist, or be empty)')
    .option('--template <name>', 'the template to start from', 'minimal')
    .action(async (folder: string, flags: { template: string }) => {
      const { runNew } = await import('../run/new.ts');
      runNew(folder, flags);
    });
}
