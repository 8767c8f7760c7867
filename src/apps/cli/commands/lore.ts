// `mnesos lore <cartridge> "<text>" [--state f] [--world f] [--json]`: which lore the text brings up and why —
// World Info entries (keys, logic, groups, timed effects from the state, `when` conditions) and the sections of
// bot_lore.md (in play by their `when:` condition, matched by BM25, or excluded by a false condition).
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
    .option(
      '--state <file>',
      'a game state JSON (its _world_info holds the timed effects; when: conditions read it)',
    )
    .option('--world <file>', 'the world ledger when: conditions read, as `turn --json` prints it')
    .option('--seed <n>', 'seed for probability and group rolls', '0')
    .option('--json', 'print the result as JSON')
    .action(
      async (
        cartridge: string,
        text: string,
        flags: { message: string[]; state?: string; world?: string; seed: string; json?: boolean },
      ) => {
        const { runLore } = await import('../run/lore.ts');
        await runLore(cartridge, text, flags);
      },
    );
}
