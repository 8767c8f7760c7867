// Rebased turns (migration 0011), run unchanged against SQLite and PostgreSQL: a chain stored with a new turn
// or alone, in one transaction, each turn sharing its origin's record; and turns located by id across a
// principal's sessions (how a chat front end's anchors are read).

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import { MAX_LOCATED_TURNS, MAX_REBASED_PER_APPEND } from '../../../src/adapters/store/limits.ts';
import { REBASE_ROWS_PER_INSERT } from '../../../src/adapters/store/rebased.ts';
import type { RebasedTurnInput, Store, Turn } from '../../../src/adapters/store/repository.ts';
import { content, mustAppend, seedSession, tick } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

/** A record the size of a model turn's, so sharing it shows. */
function bigRecord(i: number) {
  return { kind: 'turn', input: { text: `step ${i}` }, prompts: 'p'.repeat(20_000), stateAfter: { n: i } };
}

export function rebasedSuite(harness: StoreHarness): void {
  let store: Store;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl());
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
  });

  /** A session with a played branch of `n` turns whose records are big. */
  async function played(n: number) {
    const seeded = await seedSession(store);
    const turns: Turn[] = [];
    let parent = seeded.genesis.id;
    for (let i = 1; i <= n; i++) {
      const turn = await mustAppend(store, {
        sessionId: seeded.session.id,
        parentId: parent,
        ...content({ n: i }, { input: `step ${i}`, narration: `narration ${i}`, record: bigRecord(i) }),
      });
      turns.push(turn);
      parent = turn.id;
    }
    return { ...seeded, turns };
  }

  /** The rebase of `origin` with another input (and, when given, another state). */
  function rebase(origin: Turn, input: string, state: unknown = origin.state): RebasedTurnInput {
    const record = { ...(origin.record as Record<string, unknown>), input: { text: input } };
    return {
      id: randomUUID(),
      originId: origin.id,
      input,
      narration: origin.narration,
      record,
      state,
      ledgerEvents: [{ rebased: input }],
      seed: origin.seed,
      createdAt: tick(),
    };
  }

  describe('a rebase stored with a new turn', () => {
    it('places the chain under the parent, the turn under its last, and moves the head, in one append', async () => {
      const { session, genesis, turns } = await played(3);
      const chain = [rebase(turns[0]!, 'step one, edited'), rebase(turns[1]!, 'step 2', { n: 20 })];
      const result = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: turns[2]!.id,
        rebased: chain,
        ...content({ n: 30 }, { input: 'new', narration: 'the new turn' }),
      });
      if (!result.ok) throw new Error(result.reason);
      const [a, b] = chain;
      expect(result.turn).toMatchObject({ parentId: b!.id, depth: 3, seq: 6, siblingIndex: 0 });
      const first = await store.getTurn(session.id, a!.id);
      // The edited message is a sibling of the turn it was made from, and reads back whole.
      expect(first).toMatchObject({
        parentId: genesis.id,
        depth: 1,
        siblingIndex: 1,
        seq: 4,
        originId: turns[0]!.id,
      });
      expect(first!.record).toEqual(a!.record);
      expect(first!.state).toEqual(turns[0]!.state);
      expect(first!.ledgerEvents).toEqual([{ rebased: 'step one, edited' }]);
      const second = await store.getTurn(session.id, b!.id);
      expect(second).toMatchObject({ parentId: a!.id, depth: 2, siblingIndex: 0, seq: 5 });
      expect(second!.state).toEqual({ n: 20 });
      expect(second!.record).toEqual(b!.record);
      expect((await store.getSession(session.id, session.principalId))!).toMatchObject({
        headTurnId: result.turn.id,
        turnCount: 7,
      });
      // Every reader sees the whole payload: hydration, a branch read, the lineage's origins.
      const hydrated = await store.hydrate(session.id, b!.id);
      expect(hydrated!.state).toEqual({ n: 20 });
      expect(hydrated!.turn.record).toEqual(b!.record);
      const branch = await store.getBranch(session.id, result.turn.id, { limit: 10, maxChars: 1_000_000 });
      expect(branch!.turns.map((t) => t.record)).toEqual([
        genesis.record,
        a!.record,
        b!.record,
        result.turn.record,
      ]);
      const lineage = await store.getLineage(session.id, result.turn.id);
      expect(lineage!.map((t) => t.originId)).toEqual([undefined, turns[0]!.id, turns[1]!.id, undefined]);
      const children = await store.listChildren(session.id, genesis.id);
      expect(children.map((c) => c.originId)).toEqual([undefined, turns[0]!.id]);
    });

    it('stores only what differs: a branch read counts a shared record as its patch', async () => {
      const { session, genesis, turns } = await played(2);
      const chain = turns.map((t, i) => rebase(t, `edited ${i}`));
      const result = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        rebased: chain,
        ...content({ n: 9 }, { input: 'new' }),
      });
      if (!result.ok) throw new Error(result.reason);
      // getBranch's budget counts characters as stored: the two 20,000-character records are not stored
      // again, so a budget far under one of them still reaches back through both rebased turns.
      const budget = { limit: 10, maxChars: 2_000 };
      const branch = await store.getBranch(session.id, result.turn.id, budget);
      expect(branch!.turns.map((t) => t.id)).toEqual([
        genesis.id,
        chain[0]!.id,
        chain[1]!.id,
        result.turn.id,
      ]);
      expect(branch!.turns[1]!.record).toEqual(chain[0]!.record);
      // The played branch, stored whole, does not fit the same budget past its newest turn.
      const original = await store.getBranch(session.id, turns[1]!.id, budget);
      expect(original!.turns.map((t) => t.id)).toEqual([turns[1]!.id]);
    });

    it('stores nothing when the append is refused (a moved head): the chain goes with its turn or not at all', async () => {
      const { session, genesis, turns } = await played(2);
      const before = await store.listTree(session.id);
      const result = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        rebased: [rebase(turns[0]!, 'x'), rebase(turns[1]!, 'y')],
        ...content({ n: 9 }),
      });
      expect(result).toMatchObject({ ok: false, reason: 'conflict' });
      expect(await store.listTree(session.id)).toEqual(before);
    });

    it('refuses an origin of another session, and one that is itself a rebase, before writing anything', async () => {
      const { session, genesis, turns } = await played(1);
      const other = await played(1);
      await expect(
        store.appendTurn({
          sessionId: session.id,
          parentId: genesis.id,
          rebased: [rebase(other.turns[0]!, 'x')],
          ...content({ n: 1 }),
        }),
      ).rejects.toThrow(/appendTurn\.rebased\[0\]\.originId: .* is not a turn of session/);
      const stored = await store.appendRebased({
        sessionId: session.id,
        parentId: genesis.id,
        turns: [rebase(turns[0]!, 'x')],
      });
      if (!stored.ok) throw new Error(stored.reason);
      const copy = { ...rebase(turns[0]!, 'y'), originId: stored.turn.id };
      await expect(
        store.appendRebased({ sessionId: session.id, parentId: genesis.id, turns: [copy] }),
      ).rejects.toThrow(StoreInputError);
    });

    it('writes a long chain in batches that give the event loop back, in one transaction no reader sees a part of', async () => {
      // A store of its own, logging its statements beside the event loop's turns.
      const log: string[] = [];
      const logged = await harness.open(await harness.freshUrl(), {
        onQuery: (text) => {
          // A batch of the chain: an insert of many turn rows.
          if (/^insert into "turns" .*\), \(/is.test(text)) log.push('insert turns');
          else if (/^select .* from "sessions"/is.test(text) && !/for update/i.test(text)) log.push('read');
        },
      });
      try {
        const seeded = await seedSession(logged);
        const origin = await mustAppend(logged, {
          sessionId: seeded.session.id,
          parentId: seeded.genesis.id,
          ...content({ n: 1 }, { input: 'step 1', record: bigRecord(1) }),
        });
        const length = REBASE_ROWS_PER_INSERT * 3;
        const chain = Array.from({ length }, (_, i) => rebase(origin, `copy ${i}`));
        let writing = true;
        const counts = new Set<number>();
        const reads: Promise<void>[] = [];
        const ticker = (): void => {
          if (!writing) return;
          log.push('tick');
          // Another request reading the session meanwhile: it sees all of the chain and its turn, or none.
          reads.push(
            logged.getSession(seeded.session.id, seeded.principal.id).then((s) => {
              counts.add(s!.turnCount);
            }),
          );
          setImmediate(ticker);
        };
        setImmediate(ticker);
        const result = await logged.appendTurn({
          sessionId: seeded.session.id,
          parentId: seeded.genesis.id,
          rebased: chain,
          ...content({ n: 2 }, { input: 'new' }),
        });
        writing = false;
        await Promise.all(reads);
        if (!result.ok) throw new Error(result.reason);
        const inserts = log.flatMap((entry, i) => (entry === 'insert turns' ? [i] : []));
        expect(inserts).toHaveLength(3);
        // The loop turned between the batches…
        const between = log.slice(inserts[0], inserts.at(-1));
        expect(between).toContain('tick');
        // …and every read saw the session before or after, never a part of the chain: on SQLite no read ran
        // inside the transaction (it holds the one connection), on PostgreSQL reads ran on other clients.
        if (harness.name === 'sqlite') expect(between).not.toContain('read');
        else expect(between).toContain('read');
        expect(counts.size).toBeGreaterThan(0);
        expect([...counts].every((n) => n === 2 || n === 2 + length + 1)).toBe(true);
        expect((await logged.getSession(seeded.session.id, seeded.principal.id))!.turnCount).toBe(
          2 + length + 1,
        );
      } finally {
        await logged.close();
      }
    });

    it(`stores MAX_REBASED_PER_APPEND turns in one append and refuses one more`, async () => {
      const { session, genesis, turns } = await played(1);
      const many = (n: number) => Array.from({ length: n }, (_, i) => rebase(turns[0]!, `copy ${i}`));
      const at = await store.appendRebased({
        sessionId: session.id,
        parentId: genesis.id,
        turns: many(MAX_REBASED_PER_APPEND),
      });
      if (!at.ok) throw new Error(at.reason);
      expect(at.turn.depth).toBe(MAX_REBASED_PER_APPEND);
      const before = (await store.listTree(session.id)).length;
      await expect(
        store.appendRebased({
          sessionId: session.id,
          parentId: genesis.id,
          turns: many(MAX_REBASED_PER_APPEND + 1),
        }),
      ).rejects.toThrow(/MAX_REBASED_PER_APPEND = 1000/);
      expect((await store.listTree(session.id)).length).toBe(before);
    }, 120_000);
  });

  describe('a rebase stored alone', () => {
    it('moves the head to its last turn; a moved head stores nothing', async () => {
      const { session, genesis, turns } = await played(2);
      const refused = await store.appendRebased({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        turns: [rebase(turns[0]!, 'a')],
      });
      expect(refused).toMatchObject({ ok: false, reason: 'conflict' });
      const chain = [rebase(turns[0]!, 'a'), rebase(turns[1]!, 'b')];
      const stored = await store.appendRebased({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: turns[1]!.id,
        turns: chain,
      });
      if (!stored.ok) throw new Error(stored.reason);
      expect(stored.turn).toMatchObject({
        id: chain[1]!.id,
        parentId: chain[0]!.id,
        depth: 2,
        originId: turns[1]!.id,
      });
      expect(stored.turn.record).toEqual(chain[1]!.record);
      expect((await store.getSession(session.id, session.principalId))!.headTurnId).toBe(chain[1]!.id);
      await expect(
        store.appendRebased({ sessionId: session.id, parentId: genesis.id, turns: [] }),
      ).rejects.toThrow(/appendRebased\.turns: must not be empty/);
    });
  });

  describe('locating turns by id', () => {
    it("finds the principal's turns in any of their sessions, never another principal's", async () => {
      const one = await played(2);
      const two = await seedSession(store);
      const twoTurn = await mustAppend(store, {
        sessionId: two.session.id,
        parentId: two.genesis.id,
        ...content({}),
      });
      const mine = await store.locateTurns(one.principal.id, [one.turns[1]!.id, twoTurn.id, 'no-such-turn']);
      expect(mine.map((t) => [t.id, t.sessionId, t.parentId])).toEqual([
        [one.turns[1]!.id, one.session.id, one.turns[0]!.id],
      ]);
      const theirs = await store.locateTurns(two.principal.id, [twoTurn.id, one.turns[0]!.id]);
      expect(theirs.map((t) => t.id)).toEqual([twoTurn.id]);
    });

    it(`looks up MAX_LOCATED_TURNS ids and refuses one more`, async () => {
      const one = await played(1);
      const ids = (n: number) => [
        one.turns[0]!.id,
        ...Array.from({ length: n - 1 }, (_, i) => `missing-${i}`),
      ];
      expect((await store.locateTurns(one.principal.id, ids(MAX_LOCATED_TURNS))).map((t) => t.id)).toEqual([
        one.turns[0]!.id,
      ]);
      await expect(store.locateTurns(one.principal.id, ids(MAX_LOCATED_TURNS + 1))).rejects.toThrow(
        /MAX_LOCATED_TURNS = 2000/,
      );
    });
  });
}
