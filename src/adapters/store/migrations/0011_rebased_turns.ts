// Rebased turns share their record. A chat front end that edits or deletes an early message makes the game
// rebase every later turn onto the new history (src/engine/session/rebase.ts): the same narration, rule calls
// and seeds on another parent. Each such turn was a full copy of its record (~4 KB offline, far more with
// models), so one edit of the first line of a 200-turn chat added about a megabyte. From here on a rebased
// turn names the played turn it was made from in `origin_id`, and its payload holds only what differs from
// that turn's (shared-payloads.ts): the record's changed fields, and the state only when it is not the same.

import type { Migration } from './migration.ts';

export const rebasedTurns: Migration = {
  version: 11,
  name: 'rebased_turns',
  async up(db) {
    await db.schema.alterTable('turns').addColumn('origin_id', 'text').execute();
  },
};
