// `mnesos play [cartridge] [--session NAME] [--db URL] [--llm-script f] [--seed N] [--greeting N] [--strict]`: the terminal game.
// Registration only; the game is in ../play/play-command.ts, imported when the command runs (the store
// drivers and model SDKs are not loaded for other commands).

import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { parseSeed } from '../options.ts';
import type { PlayFlags } from '../play/play-command.ts';

export function register(program: Command): void {
  program
    .command('play')
    .description('Play a cartridge in the terminal (offline with no model configured).')
    .argument('[cartridge]', 'cartridge folder or shipped cartridge name (default: the demo, lanternmere)')
    .option('--session <name>', 'resume the session of this name (or id); created when new')
    .option(
      '--db <url>',
      'where sessions are stored: a SQLite file, sqlite:PATH or postgres://… (default ./.mnesos/mnesos.db)',
    )
    .option('--llm-script <file>', 'play scripted model responses from this file (tests and demos)')
    .option(
      '--seed <n>',
      'dice seed of the first turn; later turns count up from it (default: random)',
      parseSeed,
    )
    .option(
      '--greeting <n>',
      'opening message of a new game: 0 = first-message.md (default), n = alternate greeting n',
      parseGreeting,
    )
    .option(
      '--strict',
      "refuse a turn that breaks one of the cartridge's invariants (default: record the breach)",
    )
    .action(async (cartridgeArg: string | undefined, flags: PlayFlags) => {
      const { runPlayCommand } = await import('../play/play-command.ts');
      await runPlayCommand(cartridgeArg, flags);
    });
}

function parseGreeting(raw: string): number {
  if (!/^\d{1,3}$/.test(raw))
    throw new InvalidArgumentError(`the greeting must be a whole number from 0, got '${raw}'`);
  return Number(raw);
}
