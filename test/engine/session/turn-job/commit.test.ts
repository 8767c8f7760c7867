// The commit stage alone, on a real SQLite file: a context read from the store by hand and a record from the
// turn engine directly (neither prepare nor the run stage), appended as exactly one turn; refused without
// writing when the head moved or the parent is gone; a committed key answers with the first turn.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyRecord } from '../../../../src/engine/session/records.ts';
import { commitTurn } from '../../../../src/engine/session/turn-job/commit.ts';
import type { TurnContext } from '../../../../src/engine/session/turn-job/types.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import { runTurn } from '../../../../src/engine/turn/run-turn.ts';
import type { TurnRecord } from '../../../../src/engine/turn/types.ts';
import { fixture } from '../helpers.ts';
import { contextAtHead, stageEnv } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-commit-'));
const stores: Store[] = [];
let n = 0;
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setup(idempotencyKey?: string) {
  n += 1;
  const store = await openStore(join(dir, `c${n}.db`));
  stores.push(store);
  const f = await fixture(store);
  const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
    cartridgeVersion: f.version.id,
    seed: 3,
  });
  const context = await contextAtHead(store, f.library, f.principal.id, session.id, {
    turn: { input: 'check pack' },
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
  return { f, session, genesis, context, env: stageEnv(store, f.library), record: await recordOf(context) };
}

/** The engine's record for the context, played directly (offline). */
async function recordOf(context: TurnContext): Promise<TurnRecord> {
  for await (const event of runTurn({
    cartridge: context.cartridge,
    state: context.state,
    messages: context.messages,
    input: 'check pack',
    seed: context.seed,
    models: null,
    world: context.before.world,
    ledgerTurn: context.ledgerTurn,
  })) {
    if (event.type === 'done') return event.record;
  }
  throw new Error('the engine gave no record');
}

describe('commit stage', () => {
  it('appends exactly one turn: the context id, parent and seed, the record without its world, the new head', async () => {
    const { f, session, genesis, context, env, record } = await setup();
    const committed = await commitTurn(env, context, record);
    if (committed.kind !== 'committed') throw new Error(`expected committed, got ${committed.kind}`);
    const tree = await f.store.listTree(session.id);
    expect(tree.map((t) => t.id)).toEqual([genesis.id, context.turnId]);
    const stored = await f.store.getTurn(session.id, context.turnId);
    expect(stored?.parentId).toBe(genesis.id);
    expect(stored?.seed).toBe(7);
    expect(stored?.state).toEqual(record.stateAfter);
    expect(stored?.narration).toBe(record.narration);
    const kept = classifyRecord(stored?.record);
    if (kept?.kind !== 'turn') throw new Error(`expected a turn record, got ${kept?.kind}`);
    expect(kept.ledger).not.toHaveProperty('worldAfter');
    expect((await f.store.getSession(session.id, f.principal.id))?.headTurnId).toBe(context.turnId);
    expect(env.worlds.get(context.turnId)?.world).toBe(record.ledger.worldAfter);
    expect(env.worlds.get(context.turnId)?.sinceSnapshotTurns).toBe(1);
  });

  it('a head that moved since the context was read is a conflict, and nothing is written', async () => {
    const { f, session, context, env, record } = await setup();
    const other = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } });
    const refused = await commitTurn(env, context, record);
    expect(refused.kind).toBe('refused');
    if (refused.kind !== 'refused') return;
    expect(refused.error.code).toBe('conflict');
    expect(refused.error.details).toEqual({ headTurnId: other.turn.id });
    expect((await f.store.listTree(session.id)).length).toBe(2);
    expect(env.worlds.get(context.turnId)).toBeUndefined();
  });

  it('a parent that is not in the session is not found, and nothing is written', async () => {
    const { f, session, context, env, record } = await setup();
    const refused = await commitTurn(env, { ...context, parentId: 'gone' }, record);
    expect(refused.kind === 'refused' && refused.error.message).toBe('turn gone not found');
    expect((await f.store.listTree(session.id)).length).toBe(1);
  });

  it('a second commit with a key already committed is replayed: the first turn, no second row', async () => {
    const { f, session, context, env, record } = await setup('k');
    const first = await commitTurn(env, context, record);
    const again = await commitTurn(env, { ...context, turnId: 'another-id' }, record);
    expect(first.kind).toBe('committed');
    expect(again.kind).toBe('replayed');
    if (first.kind === 'refused' || again.kind === 'refused') return;
    expect(again.turn.id).toBe(first.turn.id);
    expect((await f.store.listTree(session.id)).length).toBe(2);
    expect(env.worlds.get('another-id')).toBeUndefined();
  });

  it('stores a world snapshot when the branch reaches maxTurns since the last one, not a turn before', async () => {
    const { f, session, context, record } = await setup();
    const rule = { ratio: 1_000, minEventChars: 1_000_000, maxTurns: 3 };
    const justBefore = stageEnv(f.store, f.library, { snapshotRule: rule });
    const before1 = { ...context.before, sinceSnapshotTurns: 1 };
    await commitTurn(justBefore, { ...context, before: before1 }, record);
    expect(justBefore.worlds.get(context.turnId)?.sinceSnapshotTurns).toBe(2);
    const next = await contextAtHead(f.store, f.library, f.principal.id, session.id, context.request);
    const atLimit = stageEnv(f.store, f.library, { snapshotRule: rule });
    const before2 = { ...next.before, sinceSnapshotTurns: 2 };
    await commitTurn(atLimit, { ...next, before: before2 }, record);
    expect(atLimit.worlds.get(next.turnId)?.sinceSnapshotTurns).toBe(0);
    const base = await f.store.getWorldBase(session.id, next.turnId);
    expect(base?.snapshot?.depth).toBe(2);
  });
});
