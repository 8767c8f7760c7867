// `mnesos export <cartridge> --card out.png|out.json` and/or `--world out.json`: a cartridge's character and
// lore back to SillyTavern. Registration only; the work is in ../run/export.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('export')
    .description('Export a cartridge as a SillyTavern character card (PNG or JSON) and/or World Info file.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option(
      '--card <file>',
      'write a character card: .png (chara + ccv3 chunks) or .json (V2; .v3.json for V3)',
    )
    .option('--world <file>', 'write the lore as a SillyTavern World Info file')
    .option('--force', 'replace the card or World Info file when it already exists')
    .action(async (cartridge: string, flags: { card?: string; world?: string; force?: boolean }) => {
      const { runExport } = await import('../run/export.ts');
      await runExport(cartridge, flags);
    });
}
