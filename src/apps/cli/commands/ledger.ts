// `mnesos ledger check <events.json> [--world world.json] [--cartridge dir] [--json]`: would this batch of
// world events apply? `mnesos ledger show <session>`: the world of a stored session at one of its turns.
// Registration only; the work is in ../run/ledger-check.ts and ../run/ledger-show.ts, imported when run.

import type { Command } from 'commander';
import type { CheckOptions } from '../run/ledger-check.ts';
import type { ShowOptions } from '../run/ledger-show.ts';

export function register(program: Command): void {
  const ledger = program.command('ledger').description('Inspect and check world-ledger events.');
  ledger
    .command('check')
    .description(
      'Would this batch of world events apply? (events.json: a JSON array of {"event_type": …, …fields})',
    )
    .argument('<events.json>', 'a JSON array of ledger events')
    .option(
      '--world <file>',
      "the world to check against (JSON as stateAt returns it); default: the cartridge's starting world, or empty",
    )
    .option('--cartridge <dir>', "use the write policy of this cartridge's yare.yaml")
    .option('--json', 'print one JSON object')
    .action(async (eventsPath: string, options: CheckOptions) => {
      const { runLedgerCheck } = await import('../run/ledger-check.ts');
      process.exitCode = runLedgerCheck(eventsPath, options, (line) => {
        process.stdout.write(`${line}\n`);
      });
    });
  ledger
    .command('show')
    .description(
      'Print the world of a stored session at a turn: scene, entities, facts, relationships, threads.',
    )
    .argument('<session>', 'the session id')
    .option(
      '--turn <n|id>',
      "a depth on the head's branch (0: the starting world) or a turn id; default: the head",
    )
    .option(
      '--db <url>',
      'the database: sqlite:PATH, a file path or postgres://…; default MNESOS_DATABASE_URL, else ./.mnesos/mnesos.db',
    )
    .option('--principal <id>', 'the owner of the session (default: the local user, local-user)')
    .option('--json', 'print one JSON object: {ok, session, turn: {id, depth}, world}')
    .action(async (sessionId: string, options: ShowOptions) => {
      const { runLedgerShow } = await import('../run/ledger-show.ts');
      process.exitCode = await runLedgerShow(sessionId, options, (line) => {
        process.stdout.write(`${line}\n`);
      });
    });
}
