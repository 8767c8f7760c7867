import { init } from './0001_init.ts';
import { modelSettings } from './0002_model_settings.ts';
import { ownersAndClaims } from './0003_owners_and_claims.ts';
import { worldSnapshots } from './0004_world_snapshots.ts';
import { library } from './0005_library.ts';
import { drafts } from './0006_drafts.ts';
import { snapshotPieces } from './0007_snapshot_pieces.ts';
import { claimOwners } from './0008_claim_owners.ts';
import { table } from './0009_table.ts';
import { turnPictures } from './0010_turn_pictures.ts';
import { rebasedTurns } from './0011_rebased_turns.ts';
import type { Migration } from './migration.ts';

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  init,
  modelSettings,
  ownersAndClaims,
  worldSnapshots,
  library,
  drafts,
  snapshotPieces,
  claimOwners,
  table,
  turnPictures,
  rebasedTurns,
];
