// A shared table: several principals playing one session (docs/multiplayer.md).
//
// `session_tables`: a session that became a table (its first invitation opened it). Its turn order (`free`:
// first come, first played, the others queued; `rounds`: every member submits, the round plays as one turn),
// the round being collected, whether invitations are closed, and the counter of its live events.
// `session_members`: who sits at it, the owner included (role `owner`; `gm` may steer like the owner), each
// playing one character (an identifier unique in the session, the key of `players.<character>` in the state).
// `session_invites`: invitation codes, stored as sha256 digests like API keys, with an expiry and a use count.
// `table_events`: what happened at the table, numbered per session, so a member's live stream catches up from
// `Last-Event-ID`; only the newest few hundred of a session are kept.
// `turn_queue`: free order's queue, one ticket per waiting turn request, held by a process (its claim owner:
// a ticket whose process is gone is dropped). `round_actions`: the actions of the round being collected.
//
// Version 9: the ninth migration.

import type { Migration } from './migration.ts';

export const table: Migration = {
  version: 9,
  name: 'table',
  async up(db) {
    await db.schema
      .createTable('session_tables')
      .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
      .addColumn('turn_order', 'text', (c) => c.notNull())
      .addColumn('round', 'bigint', (c) => c.notNull())
      .addColumn('invites_closed', 'integer', (c) => c.notNull())
      .addColumn('event_seq', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('session_members')
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('character', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('persona_id', 'text')
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('session_members_pk', ['session_id', 'principal_id'])
      .addUniqueConstraint('session_members_character', ['session_id', 'character'])
      .execute();
    await db.schema
      .createIndex('session_members_principal')
      .on('session_members')
      .columns(['principal_id', 'session_id'])
      .execute();
    await db.schema
      .createTable('session_invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('max_uses', 'integer')
      .addColumn('uses', 'integer', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('session_invites_session')
      .on('session_invites')
      .columns(['session_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('table_events')
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('table_events_pk', ['session_id', 'seq'])
      .execute();
    await db.schema
      .createTable('turn_queue')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('position', 'bigint', (c) => c.notNull())
      .addColumn('principal_id', 'text', (c) => c.notNull())
      .addColumn('character', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('queued_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('turn_queue_position', ['session_id', 'position'])
      .execute();
    await db.schema
      .createTable('round_actions')
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('round', 'bigint', (c) => c.notNull())
      .addColumn('principal_id', 'text', (c) => c.notNull())
      .addColumn('character', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('whisper', 'integer', (c) => c.notNull())
      .addColumn('submitted_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('round_actions_pk', ['session_id', 'round', 'principal_id'])
      .execute();
  },
};
