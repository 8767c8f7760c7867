// `mnesos session verify <id> [--db URL] [--json]`: replays a stored session's records (rules with their
// recorded seeds, ledger batches) and reports any divergence. Exit 0 when clean, 1 when not (or unknown).
// Registration only; the work is in ../run/session-verify.ts, imported when the command runs.

import type { Command } from 'commander';

export function register(program: Command): void {
  const session = program.command('session').description('Inspect stored sessions');
  session
    .command('verify')
    .description("Replay a session's records and report any divergence (exit 1 when there is one)")
    .argument('<id>', 'session id')
    .option('--db <url>', 'database (default MNESOS_DATABASE_URL, else the SQLite file under ./.mnesos)')
    .option('--json', 'print the report as JSON')
    .action(async (id: string, flags: { db?: string; json?: boolean }) => {
      const { runSessionVerify } = await import('../run/session-verify.ts');
      await runSessionVerify(id, flags);
    });
}
