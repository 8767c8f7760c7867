// Builders for suite data: a principal with a cartridge and a session, and turn content.

import { randomUUID } from 'node:crypto';
import type {
  AppendTurnInput,
  Principal,
  Session,
  Store,
  Turn,
  TurnContent,
} from '../../../src/adapters/store/repository.ts';

export interface Seeded {
  principal: Principal;
  cartridgeVersionId: string;
  session: Session;
  genesis: Turn;
}

let clock = 1_700_000_000_000;
/** Strictly increasing timestamps, so "most recent first" orderings are deterministic. */
export function tick(): number {
  clock += 1;
  return clock;
}

export function content(state: unknown, overrides: Partial<TurnContent> = {}): TurnContent {
  return {
    input: 'look around',
    narration: 'You look.',
    record: { kind: 'test' },
    state,
    seed: 7,
    createdAt: tick(),
    ...overrides,
  };
}

export async function seedSession(store: Store, genesisState: unknown = { hp: 10 }): Promise<Seeded> {
  const principal = await store.createPrincipal({ name: 'player' });
  const version = await store.putCartridgeVersion({
    name: `cart-${randomUUID()}`,
    contentHash: `sha256:${randomUUID().replaceAll('-', '')}`,
    files: { 'yare.yaml': 'version: 1' },
  });
  const created = await store.createSession({
    principalId: principal.id,
    cartridgeVersionId: version.id,
    seed: 42,
    title: 'test run',
    genesis: { ...content(genesisState), input: null, narration: 'It begins.' },
  });
  if (!created.ok) throw new Error(`seedSession: ${created.reason}`);
  return { principal, cartridgeVersionId: version.id, session: created.session, genesis: created.turn };
}

/** Appends and insists it worked: for building trees where the append itself is not under test. */
export async function mustAppend(store: Store, input: AppendTurnInput): Promise<Turn> {
  const result = await store.appendTurn(input);
  if (!result.ok) throw new Error(`append failed: ${result.reason}`);
  return result.turn;
}

/** A straight branch of `length` turns below `parentId`; turn i has state {n: i} and one ledger event. */
export async function appendChain(
  store: Store,
  sessionId: string,
  parentId: string,
  length: number,
): Promise<Turn[]> {
  const turns: Turn[] = [];
  let parent = parentId;
  for (let i = 1; i <= length; i++) {
    const turn = await mustAppend(store, {
      sessionId,
      parentId: parent,
      ...content({ n: i }, { input: `step ${i}`, narration: `narration ${i}`, ledgerEvents: [{ step: i }] }),
    });
    turns.push(turn);
    parent = turn.id;
  }
  return turns;
}

/** What the session's projector stores for a turn, in the snapshot store (a test names it beside the append). */
export interface Projection {
  /** The turn's world, stored whole. */
  worldSnapshot?: unknown;
  /** Pieces of a snapshot: of the new turn's world unless `turnId` names another turn. */
  snapshotPieces?: { turnId?: string; from: number; pieces: readonly string[]; total?: number };
}

/** Appends a turn, then stores its projection as the session does: the append itself carries no snapshot. */
export async function appendProjected(store: Store, input: AppendTurnInput & Projection): Promise<Turn> {
  const { worldSnapshot, snapshotPieces, ...append } = input;
  const turn = await mustAppend(store, append);
  await storeProjection(store, input.sessionId, turn.id, { worldSnapshot, snapshotPieces });
  return turn;
}

/** Stores a projection for `turnId`; fails the test when the snapshot store refuses it. */
export async function storeProjection(
  store: Store,
  sessionId: string,
  turnId: string,
  projection: Projection,
): Promise<void> {
  if (projection.worldSnapshot !== undefined) {
    const stored = await store.putSnapshot(sessionId, turnId, projection.worldSnapshot);
    if (!stored.ok) throw new Error(`putSnapshot: ${stored.reason}`);
  }
  if (projection.snapshotPieces !== undefined) {
    const { turnId: of, ...pieces } = projection.snapshotPieces;
    const stored = await store.putSnapshotPieces(sessionId, { turnId: of ?? turnId, ...pieces });
    if (!stored.ok) throw new Error(`putSnapshotPieces: ${stored.reason}`);
  }
}
