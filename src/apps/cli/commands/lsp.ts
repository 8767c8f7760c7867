// `mnesos lsp --stdio`: the language server for cartridge authors (docs/authoring.md shows VS Code and
// Neovim setups). Registration only; the work is in ../run/lsp.ts.

import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export function register(program: Command): void {
  program
    .command('lsp')
    .description('Run the language server for cartridge files over stdio (for editors).')
    .option('--stdio', 'speak the Language Server Protocol on stdin/stdout (the only transport)')
    .action(async (flags: { stdio?: boolean }) => {
      if (!flags.stdio)
        throw new UserError('mnesos lsp speaks over stdio only: run mnesos lsp --stdio', EXIT.usage);
      const { runLsp } = await import('../run/lsp.ts');
      await runLsp();
    });
}
