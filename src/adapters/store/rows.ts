// Row → API object mappers, one per table.

import { decodeJson, decodeNullableJson, type JsonValue } from './json.ts';
import type { ApiKey, Principal } from './account-records.ts';
import type { CartridgeVersion, CartridgeVersionSummary } from './library-records.ts';
import type { Persona } from './persona-records.ts';
import type { Save } from './save-records.ts';
import type { Session, Turn, TurnMessage, TurnNode } from './turn-log-records.ts';
import type {
  ApiKeysTable,
  CartridgeVersionsTable,
  PersonasTable,
  PrincipalsTable,
  SavesTable,
  SessionsTable,
  TurnRow,
  TurnsTable,
} from './schema.ts';

export function toPrincipal(row: PrincipalsTable): Principal {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export function toApiKey(row: Omit<ApiKeysTable, 'key_hash'>): ApiKey {
  return {
    id: row.id,
    principalId: row.principal_id,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function toCartridgeSummary(row: Omit<CartridgeVersionsTable, 'files'>): CartridgeVersionSummary {
  return { id: row.id, name: row.name, contentHash: row.content_hash, createdAt: row.created_at };
}

export function toCartridgeVersion(row: CartridgeVersionsTable): CartridgeVersion {
  return { ...toCartridgeSummary(row), files: decodeJson(row.files) };
}

export function toPersona(row: PersonasTable): Persona {
  return {
    id: row.id,
    principalId: row.principal_id,
    name: row.name,
    data: decodeJson(row.data),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toSession(row: SessionsTable): Session {
  return {
    id: row.id,
    principalId: row.principal_id,
    cartridgeVersionId: row.cartridge_version_id,
    personaId: row.persona_id,
    seed: row.seed,
    title: row.title,
    headTurnId: row.head_turn_id,
    turnCount: row.turn_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type TurnNodeRow = Pick<
  TurnsTable,
  'id' | 'session_id' | 'parent_id' | 'depth' | 'sibling_index' | 'seq' | 'created_at'
> &
  Partial<Pick<TurnsTable, 'origin_id'>>;
export type TurnMessageRow = TurnNodeRow & Pick<TurnsTable, 'input' | 'narration'>;

export const TURN_NODE_COLUMNS = [
  'id',
  'session_id',
  'parent_id',
  'depth',
  'sibling_index',
  'seq',
  'created_at',
  'origin_id',
] as const;
export const TURN_MESSAGE_COLUMNS = [...TURN_NODE_COLUMNS, 'input', 'narration'] as const;

export function toTurnNode(row: TurnNodeRow): TurnNode {
  const node: TurnNode = {
    id: row.id,
    sessionId: row.session_id,
    parentId: row.parent_id,
    depth: row.depth,
    siblingIndex: row.sibling_index,
    seq: row.seq,
    createdAt: row.created_at,
  };
  // Only rebased turns carry it, so every other turn reads exactly as before migration 0011.
  if (row.origin_id !== undefined && row.origin_id !== null) node.originId = row.origin_id;
  return node;
}

export function toTurnMessage(row: TurnMessageRow): TurnMessage {
  return { ...toTurnNode(row), input: decodeNullableJson(row.input), narration: row.narration };
}

export function toTurn(row: TurnRow, ledgerEvents: JsonValue[]): Turn {
  return {
    ...toTurnMessage(row),
    seed: row.seed,
    record: decodeJson(row.record),
    state: decodeJson(row.state),
    ledgerEvents,
    idempotencyKey: row.idempotency_key,
  };
}

export function toSave(row: SavesTable): Save {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    name: row.name,
    createdAt: row.created_at,
  };
}
