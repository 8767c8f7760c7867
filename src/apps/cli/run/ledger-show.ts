// `mnesos ledger show <session> [--turn N|ID] [--db URL] [--principal ID] [--json]`: the world of a stored
// session at one of its turns — scene, entities, facts, relationships, threads. The world is the replay of
// the branch's committed batches (re-validated under the cartridge's policy, so a tampered database shows
// up as an error). The database is `--db`, else MNESOS_DATABASE_URL, else the SQLite file
// `./.mnesos/mnesos.db`; a SQLite file that does not exist is an error (showing never creates a database).

import { existsSync } from 'node:fs';
import { formatWorld } from '../../../core/ledger/index.ts';
import {
  cartridgeLedger,
  CartridgeLibrary,
  isSessionError,
  SessionService,
  worldFromRows,
} from '../../../engine/session/index.ts';
import { openStore, parseDatabaseUrl, type Store, StoreInputError } from '../../../adapters/store/index.ts';
import { EXIT } from '../exit-codes.ts';

/** The principal the local server plays as (server/auth.ts `localPrincipal`). */
export const LOCAL_PRINCIPAL_ID = 'local-user';

export interface ShowOptions {
  /** A depth on the branch ending at the session's head (0: the starting world), or a turn id. */
  readonly turn?: string;
  readonly db?: string;
  readonly principal?: string;
  readonly json?: boolean;
}

class ShowError extends Error {}

async function openExisting(url: string | undefined): Promise<Store> {
  let target: ReturnType<typeof parseDatabaseUrl>;
  try {
    target = parseDatabaseUrl(url);
  } catch (error) {
    if (error instanceof StoreInputError) throw new ShowError(error.message);
    throw error;
  }
  if (target.kind === 'sqlite' && target.path !== ':memory:' && !existsSync(target.path)) {
    throw new ShowError(
      `no database at ${target.path}; give --db URL or set MNESOS_DATABASE_URL to the one your sessions are in`,
    );
  }
  return openStore(url);
}

async function show(sessionId: string, options: ShowOptions, env: NodeJS.ProcessEnv) {
  const store = await openExisting(options.db ?? env.MNESOS_DATABASE_URL);
  try {
    const principal = options.principal ?? LOCAL_PRINCIPAL_ID;
    const service = new SessionService({ store, library: new CartridgeLibrary(store), models: () => null });
    let session: Awaited<ReturnType<SessionService['getSession']>>;
    try {
      session = await service.getSession(principal, sessionId);
    } catch (error) {
      if (isSessionError(error) && error.code === 'not-found') {
        throw new ShowError(
          `session ${sessionId} not found for principal ${principal} (another owner? use --principal)`,
        );
      }
      throw error;
    }
    const lineage = (await store.getLineage(sessionId, session.headTurnId)) ?? [];
    let turnId = session.headTurnId;
    if (options.turn !== undefined) {
      if (/^\d+$/.test(options.turn)) {
        const node = lineage[Number(options.turn)];
        if (node === undefined) {
          throw new ShowError(
            `--turn ${options.turn}: the session's head is at depth ${lineage.length - 1} (0 is the starting world)`,
          );
        }
        turnId = node.id;
      } else turnId = options.turn;
    }
    // Showing is a check too: the branch's batches are replayed and re-validated under the cartridge's
    // policy (as `session verify` does), not read from the snapshots play trusts, so a tampered row shows.
    const { cartridge } = await service.cartridgeOf(session);
    const rows = await store.getLedgerLog(sessionId, turnId);
    if (rows === undefined)
      throw new ShowError(`--turn ${options.turn}: turn ${turnId} not found in this session`);
    const replayed = worldFromRows(rows, cartridgeLedger(cartridge).policy);
    const turn = await store.getTurn(sessionId, turnId);
    if (!replayed.ok) {
      const reasons = replayed.errors.map((e) => `${e.code}: ${e.message}`).join('; ');
      throw new ShowError(
        `the ledger of session ${sessionId} does not replay at depth ${replayed.turn ?? '?'}: ${reasons}`,
      );
    }
    return { sessionId, turn: { id: turnId, depth: turn?.depth ?? rows.length }, world: replayed.world };
  } finally {
    await store.close();
  }
}

/** Prints the world; returns the exit code (0, or 1 for an unknown session/turn or an unreadable database). */
export async function runLedgerShow(
  sessionId: string,
  options: ShowOptions,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const shown = await show(sessionId, options, env);
    if (options.json) {
      out(JSON.stringify({ ok: true, session: shown.sessionId, turn: shown.turn, world: shown.world }));
    } else {
      out(`Session ${shown.sessionId}, turn ${shown.turn.depth} (${shown.turn.id})`);
      for (const line of formatWorld(shown.world)) out(line);
    }
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ShowError)) throw error;
    if (options.json) out(JSON.stringify({ ok: false, error: error.message }));
    else out(`error: ${error.message}`);
    return EXIT.user;
  }
}
