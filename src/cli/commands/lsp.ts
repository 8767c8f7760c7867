// `mnesos lsp --stdio`: the language server for cartridge authors (docs/authoring.md shows VS Code and
// Neovim setups). Registration only; the work is in ../run/lsp.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('lsp')
    .description('Run the language server for cartridge files over stdio (for editors).')
    .option('--stdio', 'speak the Language Server Protocol on stdin/stdout (the only transport)')
    .action(async () => {
      const { runLsp } = await import('../run/lsp.ts');
      await runLsp();
    });
}
