// `mnesos session verify <id> [--db URL] [--json]`: replays a stored session's records (rules with their
// recorded seeds, ledger batches) and reports any divergence. Exit 0 when clean, 1 when not (or unknown).

import type { Command } from 'commander';
import { CartridgeLibrary } from '../../session/library.ts';
import { verifySession } from '../../session/verify.ts';
import { openStore } from '../../store/open.ts';
import { EXIT } from '../exit-codes.ts';

export function register(program: Command): void {
  const session = program.command('session').description('Inspect stored sessions');
  session
    .command('verify')
    .description("Replay a session's records and report any divergence (exit 1 when there is one)")
    .argument('<id>', 'session id')
    .option('--db <url>', 'database (default MNESOS_DATABASE_URL, else the SQLite file under ./.mnesos)')
    .option('--json', 'print the report as JSON')
    .action(async (id: string, flags: { db?: string; json?: boolean }) => {
      const store = await openStore(flags.db ?? process.env.MNESOS_DATABASE_URL);
      try {
        const report = await verifySession(store, new CartridgeLibrary(store), id);
        if (report === undefined) {
          process.stderr.write(`session ${id} not found\n`);
          process.exitCode = EXIT.user;
          return;
        }
        if (flags.json) process.stdout.write(`${JSON.stringify(report)}\n`);
        else {
          for (const d of report.divergences) {
            process.stdout.write(`turn ${d.seq ?? '?'} (${d.turnId ?? '-'}): ${d.kind}: ${d.message}\n`);
          }
          process.stdout.write(
            `${report.ok ? 'ok' : 'DIVERGED'}: ${report.turns} turns, ${report.branches} branch(es), ${report.divergences.length} divergence(s)\n`,
          );
        }
        process.exitCode = report.ok ? EXIT.ok : EXIT.user;
      } finally {
        await store.close();
      }
    });
}
