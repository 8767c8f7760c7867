// `mnesos lore <cartridge> "<text>" [--state f] [--json]`: which lore the text brings up and why — World
// Info entries (keys, logic, groups, timed effects from the state) and the BM25 sections of bot_lore.md.
// Registration only; the work is in ../run/lore.ts.

import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('lore')
    .description('Show which lore entries the text activates, and why.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .argument('<text>', "the player's message (earlier messages: --message, oldest first)")
    .option(
      '--message <text>',
      'an earlier story message, oldest first (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--state <file>', 'a game state JSON (its _world_info holds the timed effects)')
    .option('--seed <n>', 'seed for probability and group rolls', '0')
    .option('--json', 'print the result as JSON')
    .action(
      async (
        cartridge: string,
        text: string,
        flags: { message: string[]; state?: string; seed: string; json?: boolean },
      ) => {
        const { runLore } = await import('../run/lore.ts');
        await runLore(cartridge, text, flags);
      },
    );
}
