// Reads for operator tools that work on a session by id alone (`session verify`), never for request
// handlers: those always scope by principal (`getSession(id, principalId)`).

import type { StoreContext } from './context.ts';
import type { Session } from './turn-log-records.ts';
import { toSession } from './rows.ts';

export async function findSessionForAudit(ctx: StoreContext, id: string): Promise<Session | undefined> {
  const row = await ctx.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSession(row);
}
