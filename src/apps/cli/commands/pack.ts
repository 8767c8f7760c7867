// `mnesos pack <cartridge> [-o file.zip]`: the cartridge and its tests as a zip the server accepts.
// Registration only; the work is in ../run/pack.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('pack')
    .description('Pack a cartridge folder (and its tests/) into a zip archive ready to upload.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('-o, --output <file>', 'the archive to write (default: <folder name>.zip)')
    .option('--force', 'replace the archive when the file already exists')
    .action(async (cartridgeArg: string, flags: { output?: string; force?: boolean }) => {
      const { runPack } = await import('../run/pack.ts');
      await runPack(cartridgeArg, flags);
    });
}
