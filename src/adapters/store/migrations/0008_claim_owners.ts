// Who holds each Idempotency-Key claim, and whether that process still lives.
//
// A claim used to be judged by its age alone: a replica killed mid-turn left a claim that blocked a retry
// with the same key until CLAIM_STALE_MS had passed. Now each process that claims keys registers itself in
// `claim_owners` and refreshes `heartbeat_at` while it holds claims; a claim whose owner's heartbeat is
// older than the lease (or whose owner row is gone: it shut down) is taken over at once. `owner_id` is
// null on claims written before this migration (judged by age, as before).

import type { Migration } from './migration.ts';

export const claimOwners: Migration = {
  version: 8,
  name: 'claim_owners',
  async up(db) {
    await db.schema
      .createTable('claim_owners')
      .addColumn('owner_id', 'text', (c) => c.primaryKey())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('turn_claims').addColumn('owner_id', 'text').execute();
  },
};
