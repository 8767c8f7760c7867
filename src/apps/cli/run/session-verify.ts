// The work of `mnesos session verify <id> [--db URL] [--json]`: replays a stored session's records and
// reports any divergence. Exit 0 when clean, 1 when not (or unknown).

import { CartridgeLibrary, verifySession } from '../../../engine/session/index.ts';
import { openStore } from '../../../adapters/store/index.ts';
import { EXIT } from '../exit-codes.ts';

export async function runSessionVerify(id: string, flags: { db?: string; json?: boolean }): Promise<void> {
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
}
