// `mnesos run-event <cartridge> <event> [--input k=v]... [--state f] [--seed N] [--json]`: runs one event and
// prints its notes and the state diff. Registration only; the work is in ../run/run-event.ts, imported when
// the command runs.

import type { Command } from 'commander';
import { collectKeyValue, parseSeed } from '../options.ts';
import type { RunEventFlags } from '../run/run-event.ts';

export function register(program: Command): void {
  program
    .command('run-event')
    .description('Run one event of a cartridge and print its notes and the state diff.')
    .argument('<cartridge>', 'cartridge folder (or the name of a shipped cartridge)')
    .argument('<event>', 'event name')
    .option(
      '--input <key=value>',
      'an input of the event (repeatable); JSON values allowed',
      collectKeyValue,
      {},
    )
    .option('--state <file>', 'state JSON to start from (default: the initial state)')
    .option('--seed <n>', 'dice seed', parseSeed, 0)
    .option('--json', 'print {"ok","notes","state","rolls","error?"} as JSON')
    .action(async (cartridgeArg: string, eventName: string, flags: RunEventFlags) => {
      const { runRunEvent } = await import('../run/run-event.ts');
      await runRunEvent(cartridgeArg, eventName, flags);
    });
}
