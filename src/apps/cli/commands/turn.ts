// `mnesos turn <cartridge> --input "…" [--state f] [--messages f] [--world f] [--llm-script f] [--seed N]
// [--json]`: one stateless turn, the MnesOS contract: state (story, world) in; state, story, world and
// record out. Registration only; the work is in ../play/turn-command.ts, imported when the command runs.

import type { Command } from 'commander';
import { parseSeed } from '../options.ts';
import { parseInteractionArg } from '../play/interaction-arg.ts';
import type { TurnFlags } from '../play/turn-command.ts';

export function register(program: Command): void {
  program
    .command('turn')
    .description(
      'Play one stateless turn: state in, state and record out (configured model, --llm-script, or offline).',
    )
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .option('--input <text>', "the player's words")
    .option(
      '--interaction <json>',
      'a mini-game result instead of --input: {"minigame_id","status","metrics","data"}',
      parseInteractionArg,
    )
    .option('--state <file>', 'state JSON to start from (default: the initial state)')
    .option(
      '--messages <file>',
      'the story so far: a JSON array of {role, content} (default: the first message)',
    )
    .option(
      '--world <file>',
      'the world ledger to start from, as --json prints it (default: the starting world)',
    )
    .option('--llm-script <file>', 'play scripted model responses from this file instead of a provider')
    .option('--seed <n>', 'dice seed', parseSeed, 0)
    .option('--json', 'print {"ok","state","world","messages","record"} as JSON')
    .option(
      '--explain',
      'after the turn, print why each prompt section and each piece of it (lore, World Info, facts, messages) is there, what it cost, and what the budget cut',
    )
    .option(
      '--strict',
      'refuse the turn (exit 1, nothing changed) when an event leaves an invariant of the cartridge broken',
    )
    .action(async (cartridgeArg: string, flags: TurnFlags) => {
      // Imported on use: the turn engine and model layer are not loaded for other commands.
      const { runTurnCommand } = await import('../play/turn-command.ts');
      await runTurnCommand(cartridgeArg, flags);
    });
}
