// Per-principal model settings (base URL, model per role, temperature): one JSON row per principal,
// written by `PUT /v1/settings`. API keys never go here; they stay in the server's environment.

import type { Migration } from './migration.ts';

export const modelSettings: Migration = {
  version: 2,
  name: 'model_settings',
  async up(db) {
    await db.schema
      .createTable('model_settings')
      .addColumn('principal_id', 'text', (c) =>
        c.primaryKey().references('principals.id').onDelete('cascade'),
      )
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
