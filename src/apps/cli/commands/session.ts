// `mnesos session verify <id> [--db URL] [--json]`: replays a stored session's records (rules with their
// recorded seeds, ledger batches) and reports any divergence. Exit 0 when clean, 1 when not (or unknown).
// `mnesos session speak <id> --out FILE` reads a turn aloud into a WAV file (docs/voices.md).
// Registration only; the work is in ../run/session-verify.ts and ../run/session-speak.ts, imported when the
// command runs.

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
  session
    .command('speak')
    .description(
      "Read a turn's narration aloud into a WAV file (MNESOS_SPEECH_URL, else espeak-ng; docs/voices.md)",
    )
    .argument('<id>', 'session id')
    .requiredOption('--out <file>', 'the WAV file to write')
    .option('--turn <id>', "the turn to read (default: the session's head)")
    .option('--db <url>', 'database (default MNESOS_DATABASE_URL, else the SQLite file under ./.mnesos)')
    .action(async (id: string, flags: { out: string; turn?: string; db?: string }) => {
      const { runSessionSpeak } = await import('../run/session-speak.ts');
      await runSessionSpeak(id, flags);
    });
}
