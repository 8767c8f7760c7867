// `mnesos import <file> <folder> [--greeting N] [--force] [--json]`: a SillyTavern character card (PNG,
// APNG, CHARX, V1/V2/V3 JSON) or World Info file as a cartridge folder, with a loss report printed and
// written to the folder (docs/sillytavern.md). Registration only; the work is in ../run/import.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('import')
    .description(
      'Import a SillyTavern character card or World Info file as a cartridge (prints a loss report).',
    )
    .argument('<file>', 'a card (.png, .json, .charx) or a World Info file (.json)')
    .argument(
      '<folder>',
      'the cartridge folder to create (a World Info file may go into an existing cartridge)',
    )
    .option('--greeting <n>', 'which greeting opens the game: 0 = first_mes, 1.. = alternate greetings', '0')
    .option('--force', 'overwrite files the import writes when they already exist')
    .option('--json', 'print the result as JSON')
    .action(
      async (file: string, folder: string, flags: { greeting: string; force?: boolean; json?: boolean }) => {
        const { runImport } = await import('../run/import.ts');
        await runImport(file, folder, flags);
      },
    );
}
