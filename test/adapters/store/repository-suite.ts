// The one repository test suite, run unchanged against SQLite and PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError, StoreMigrationError } from '../../../src/adapters/store/errors.ts';
import { hashApiKey } from '../../../src/adapters/store/keys.ts';
import {
  DEFAULT_MESSAGE_WINDOW,
  MAX_BRANCH_CHARS,
  MAX_BRANCH_TURNS,
  MAX_LEDGER_EVENTS_PER_TURN,
  MAX_MESSAGE_WINDOW,
  MAX_SETTINGS_BYTES,
  MAX_STATE_BYTES,
} from '../../../src/adapters/store/limits.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import type { Migration } from '../../../src/adapters/store/migrations/migration.ts';
import type { BranchTurn, Store, Turn } from '../../../src/adapters/store/repository.ts';
import { appendChain, content, mustAppend, seedSession, tick } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

/** Depth of the long branch used for the one-query lineage checks. */
const LONG_BRANCH = 2_000;

/** Characters `getBranch` counts for a turn: its content as stored (JSON text, narration as is). */
function storedChars(turn: BranchTurn): number {
  const input = turn.input === null ? 0 : JSON.stringify(turn.input).length;
  return (
    JSON.stringify(turn.record).length + JSON.stringify(turn.state).length + turn.narration.length + input
  );
}

/** A JSON string value whose encoding is exactly `bytes` bytes long. */
function jsonOfBytes(bytes: number): string {
  return 'x'.repeat(bytes - 2);
}

export function repositorySuite(harness: StoreHarness): void {
  let store: Store;
  let queries: string[] = [];

  async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; count: number }> {
    queries = [];
    const result = await work();
    return { result, count: queries.length };
  }

  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl(), { onQuery: (sql) => queries.push(sql) });
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
  });

  describe('migrations', () => {
    it('bring a new database to the latest version and are not re-applied on reopen', async () => {
      const url = await harness.freshUrl();
      const first = await harness.open(url);
      expect(await first.schemaVersion()).toBe(MIGRATIONS.length);
      const principal = await first.createPrincipal({ name: 'kept' });
      await first.close();
      const again = await harness.open(url);
      expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
      expect(await again.getPrincipal(principal.id)).toEqual(principal);
      await again.close();
    });

    it('apply a later migration to an existing database and refuse to run an older build on it', async () => {
      const url = await harness.freshUrl();
      const v1 = await harness.open(url);
      const principal = await v1.createPrincipal({ name: 'before' });
      await v1.close();
      let ran = 0;
      const addNotes: Migration = {
        version: MIGRATIONS.length + 1,
        name: 'test_notes',
        async up(db) {
          ran += 1;
          await db.schema
            .createTable('test_notes')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .execute();
        },
      };
      const v2 = await harness.open(url, { migrations: [...MIGRATIONS, addNotes] });
      expect(await v2.schemaVersion()).toBe(MIGRATIONS.length + 1);
      expect(await v2.getPrincipal(principal.id)).toEqual(principal);
      await v2.close();
      const v2again = await harness.open(url, { migrations: [...MIGRATIONS, addNotes] });
      await v2again.close();
      expect(ran).toBe(1);
      await expect(harness.open(url)).rejects.toThrow(
        `schema version ${MIGRATIONS.length + 1} ('test_notes') is newer`,
      );
      const renamed: Migration = { ...addNotes, name: 'other' };
      await expect(harness.open(url, { migrations: [...MIGRATIONS, renamed] })).rejects.toThrow(
        StoreMigrationError,
      );
    });

    it('bring a database made by the first release up to model settings, keeping its rows', async () => {
      const url = await harness.freshUrl();
      const old = await harness.open(url, { migrations: MIGRATIONS.slice(0, 1) });
      const principal = await old.createPrincipal({ name: 'early' });
      expect(await old.schemaVersion()).toBe(1);
      await old.close();
      const current = await harness.open(url);
      expect(await current.schemaVersion()).toBe(MIGRATIONS.length);
      expect(
        await current.putModelSettings({ principalId: principal.id, settings: { temperature: 1 } }),
      ).toEqual({
        ok: true,
        stored: expect.objectContaining({ settings: { temperature: 1 } }),
      });
      await current.close();
    });

    it('roll back a failing migration completely', async () => {
      const url = await harness.freshUrl();
      const broken: Migration = {
        version: MIGRATIONS.length + 1,
        name: 'broken',
        async up(db) {
          await db.schema
            .createTable('half_done')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .execute();
          throw new Error('migration failed on purpose');
        },
      };
      await expect(harness.open(url, { migrations: [...MIGRATIONS, broken] })).rejects.toThrow(
        'migration failed on purpose',
      );
      // Nothing of the failed run stayed: not even migration 1, which ran in the same transaction.
      const fixed: Migration = {
        ...broken,
        async up(db) {
          await db.schema
            .createTable('half_done')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .execute();
        },
      };
      const opened = await harness.open(url, { migrations: [...MIGRATIONS, fixed] });
      expect(await opened.schemaVersion()).toBe(MIGRATIONS.length + 1);
      await opened.close();
    });
  });

  describe('principals and API keys', () => {
    it('find a principal by the hash of an active key, never by a revoked one', async () => {
      const alice = await store.createPrincipal({ name: 'alice' });
      const raw = `mnesos_${alice.id}`;
      const added = await store.addApiKey({
        principalId: alice.id,
        keyHash: hashApiKey(raw),
        label: 'laptop',
      });
      expect(added.ok).toBe(true);
      expect(await store.findPrincipalByKeyHash(hashApiKey(raw))).toEqual(alice);
      expect(await store.findPrincipalByKeyHash(hashApiKey(`${raw}x`))).toBeUndefined();
      const keys = await store.listApiKeys(alice.id);
      expect(keys.map((k) => k.label)).toEqual(['laptop']);
      expect(JSON.stringify(keys)).not.toContain(hashApiKey(raw));
      expect(await store.revokeApiKey(alice.id, keys[0]!.id)).toBe(true);
      expect(await store.revokeApiKey(alice.id, keys[0]!.id)).toBe(false);
      expect(await store.findPrincipalByKeyHash(hashApiKey(raw))).toBeUndefined();
    });

    it('refuse raw keys, duplicate hashes and unknown principals', async () => {
      const bob = await store.createPrincipal({ name: 'bob' });
      await expect(
        store.addApiKey({ principalId: bob.id, keyHash: 'mnesos_raw_key', label: 'x' }),
      ).rejects.toThrow(StoreInputError);
      const hash = hashApiKey(`bob-${bob.id}`);
      expect((await store.addApiKey({ principalId: bob.id, keyHash: hash, label: 'a' })).ok).toBe(true);
      expect(await store.addApiKey({ principalId: bob.id, keyHash: hash, label: 'b' })).toEqual({
        ok: false,
        reason: 'key-taken',
      });
      expect(await store.addApiKey({ principalId: 'nobody', keyHash: hashApiKey('n'), label: 'c' })).toEqual({
        ok: false,
        reason: 'principal-not-found',
      });
    });
  });

  describe('cartridge versions', () => {
    it('are content-addressed: the same hash stores once and reads back by id or hash', async () => {
      const hash = `sha256:${'ab'.repeat(32)}`;
      const files = { 'yare.yaml': 'version: 1\n', 'bot_lore.md': '# Lore ✓' };
      const first = await store.putCartridgeVersion({ name: 'eldoria', contentHash: hash, files });
      const again = await store.putCartridgeVersion({ name: 'eldoria', contentHash: hash, files });
      expect(again.id).toBe(first.id);
      expect(await store.getCartridgeVersion(first.id)).toEqual(first);
      expect(await store.getCartridgeVersion(hash)).toEqual(first);
      expect(first.files).toEqual(files);
      expect(await store.getCartridgeVersion('no-such-version')).toBeUndefined();
      await expect(store.putCartridgeVersion({ name: 'other', contentHash: hash, files })).rejects.toThrow(
        /already stored as cartridge 'eldoria'/,
      );
    });

    it('list each cartridge with its latest version and count', async () => {
      const name = `listed-${tick()}`;
      await store.putCartridgeVersion({ name, contentHash: `h-${name}-1`, files: {}, createdAt: 1_000 });
      const newer = await store.putCartridgeVersion({
        name,
        contentHash: `h-${name}-2`,
        files: {},
        createdAt: 2_000,
      });
      const entry = (await store.listCartridges()).find((c) => c.name === name);
      expect(entry).toEqual({
        name,
        versionCount: 2,
        latest: { id: newer.id, name, contentHash: newer.contentHash, createdAt: 2_000 },
      });
    });
  });

  describe('personas', () => {
    it('belong to one principal and survive as null on sessions when deleted', async () => {
      const seeded = await seedSession(store);
      const other = await store.createPrincipal({ name: 'other' });
      const made = await store.createPersona({
        principalId: seeded.principal.id,
        name: 'Aria',
        data: { pronouns: ['she', 'her'], appearance: 'tall' },
      });
      if (!made.ok) throw new Error(made.reason);
      const persona = made.persona;
      expect(await store.getPersona(persona.id, seeded.principal.id)).toEqual(persona);
      expect(await store.getPersona(persona.id, other.id)).toBeUndefined();
      expect(await store.listPersonas(other.id)).toEqual([]);
      expect(await store.updatePersona(persona.id, other.id, { name: 'stolen' })).toBeUndefined();
      const renamed = await store.updatePersona(persona.id, seeded.principal.id, {
        name: 'Aria II',
        updatedAt: tick(),
      });
      expect(renamed?.name).toBe('Aria II');
      expect(renamed?.data).toEqual(persona.data);

      const withPersona = await store.createSession({
        principalId: seeded.principal.id,
        cartridgeVersionId: seeded.cartridgeVersionId,
        personaId: persona.id,
        seed: 1,
        genesis: content({}),
      });
      if (!withPersona.ok) throw new Error(withPersona.reason);
      expect(withPersona.session.personaId).toBe(persona.id);
      expect(await store.deletePersona(persona.id, other.id)).toBe(false);
      expect(await store.deletePersona(persona.id, seeded.principal.id)).toBe(true);
      const after = await store.getSession(withPersona.session.id, seeded.principal.id);
      expect(after?.personaId).toBeNull();
      expect(await store.createPersona({ principalId: 'nobody', name: 'x', data: {} })).toEqual({
        ok: false,
        reason: 'principal-not-found',
      });
    });
  });

  describe('sessions', () => {
    it('are created with their genesis turn as head, and refuse unknown references', async () => {
      const seeded = await seedSession(store, { hp: 10, bag: { rope: 1 } });
      expect(seeded.session.headTurnId).toBe(seeded.genesis.id);
      expect(seeded.session.turnCount).toBe(1);
      expect(seeded.genesis).toMatchObject({
        depth: 0,
        seq: 0,
        siblingIndex: 0,
        parentId: null,
        input: null,
      });
      expect(await store.getTurn(seeded.session.id, seeded.genesis.id)).toEqual(seeded.genesis);
      const base = {
        principalId: seeded.principal.id,
        cartridgeVersionId: seeded.cartridgeVersionId,
        seed: 1,
      };
      expect(await store.createSession({ ...base, principalId: 'nobody', genesis: content({}) })).toEqual({
        ok: false,
        reason: 'principal-not-found',
      });
      expect(
        await store.createSession({ ...base, cartridgeVersionId: 'nothing', genesis: content({}) }),
      ).toEqual({
        ok: false,
        reason: 'cartridge-version-not-found',
      });
      const stranger = await store.createPrincipal({ name: 'stranger' });
      const theirs = await store.createPersona({ principalId: stranger.id, name: 'theirs', data: {} });
      if (!theirs.ok) throw new Error(theirs.reason);
      expect(
        await store.createSession({ ...base, personaId: theirs.persona.id, genesis: content({}) }),
      ).toEqual({
        ok: false,
        reason: 'persona-not-found',
      });
    });

    it('are owned: another principal cannot see, list, rename or delete them', async () => {
      const seeded = await seedSession(store);
      const intruder = await store.createPrincipal({ name: 'intruder' });
      expect(await store.getSession(seeded.session.id, intruder.id)).toBeUndefined();
      expect(await store.listSessions(intruder.id)).toEqual([]);
      expect(await store.renameSession(seeded.session.id, intruder.id, 'mine now')).toBeUndefined();
      expect(await store.deleteSession(seeded.session.id, intruder.id)).toBe(false);
      expect(await store.getSession(seeded.session.id, seeded.principal.id)).toEqual(seeded.session);
      const renamed = await store.renameSession(
        seeded.session.id,
        seeded.principal.id,
        'The Long Road',
        tick(),
      );
      expect(renamed?.title).toBe('The Long Road');
    });

    it('are listed most recently played first', async () => {
      const seeded = await seedSession(store);
      const second = await store.createSession({
        principalId: seeded.principal.id,
        cartridgeVersionId: seeded.cartridgeVersionId,
        seed: 2,
        genesis: content({}),
      });
      if (!second.ok) throw new Error(second.reason);
      expect((await store.listSessions(seeded.principal.id)).map((s) => s.id)).toEqual([
        second.session.id,
        seeded.session.id,
      ]);
      await mustAppend(store, { sessionId: seeded.session.id, parentId: seeded.genesis.id, ...content({}) });
      expect((await store.listSessions(seeded.principal.id)).map((s) => s.id)).toEqual([
        seeded.session.id,
        second.session.id,
      ]);
    });

    it('are deleted with their whole tree, ledger events and saves, without constraint errors', async () => {
      const seeded = await seedSession(store);
      const sid = seeded.session.id;
      const chain = await appendChain(store, sid, seeded.genesis.id, 30);
      const branch = await appendChain(store, sid, chain[4]!.id, 10);
      expect((await store.createSave({ sessionId: sid, turnId: chain[29]!.id, name: 'end' })).ok).toBe(true);
      expect((await store.createSave({ sessionId: sid, turnId: branch[9]!.id, name: 'branch' })).ok).toBe(
        true,
      );
      const keep = await seedSession(store);
      await appendChain(store, keep.session.id, keep.genesis.id, 3);

      expect(await store.deleteSession(sid, seeded.principal.id)).toBe(true);
      expect(await store.getSession(sid, seeded.principal.id)).toBeUndefined();
      expect(await store.listTree(sid)).toEqual([]);
      expect(await store.listSaves(sid)).toEqual([]);
      expect(await store.getTurn(sid, chain[29]!.id)).toBeUndefined();
      expect(await store.getLedgerLog(sid, chain[29]!.id)).toBeUndefined();
      expect(await store.deleteSession(sid, seeded.principal.id)).toBe(false);
      expect(await store.listTree(keep.session.id)).toHaveLength(4);
    });
  });

  describe('appending turns', () => {
    it('place the turn in the tree, store its content and ledger events, and move the head', async () => {
      const { session, genesis } = await seedSession(store);
      const result = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        input: { interaction: 'minigame', score: 3, tags: ['a', 'é'] },
        narration: 'The lock clicks — open. 🗝️',
        record: { tools: [{ name: 'pick_lock', ok: true }], rolls: [17] },
        state: { zeta: 1, alpha: { nested: [1, 2, { deep: null }] } },
        ledgerEvents: [
          { event_type: 'create_entity', key: 'door' },
          { event_type: 'move', key: 'player' },
        ],
        seed: 99,
        createdAt: tick(),
      });
      if (!result.ok) throw new Error(result.reason);
      const turn = result.turn;
      expect(result.replayed).toBe(false);
      expect(turn).toMatchObject({ parentId: genesis.id, depth: 1, seq: 1, siblingIndex: 0, seed: 99 });
      expect(await store.getTurn(session.id, turn.id)).toEqual(turn);
      expect(JSON.stringify(turn.state)).toBe('{"zeta":1,"alpha":{"nested":[1,2,{"deep":null}]}}');
      expect(turn.ledgerEvents).toEqual([
        { event_type: 'create_entity', key: 'door' },
        { event_type: 'move', key: 'player' },
      ]);
      const after = await store.getSession(session.id, session.principalId);
      expect(after).toMatchObject({ headTurnId: turn.id, turnCount: 2, updatedAt: turn.createdAt });
    });

    it('can leave the head where it is', async () => {
      const { session, genesis } = await seedSession(store);
      await mustAppend(store, {
        sessionId: session.id,
        parentId: genesis.id,
        moveHead: false,
        ...content({}),
      });
      expect((await store.getSession(session.id, session.principalId))?.headTurnId).toBe(genesis.id);
    });

    it('refuse a parent from another session and an unknown session', async () => {
      const one = await seedSession(store);
      const two = await seedSession(store);
      expect(
        await store.appendTurn({ sessionId: one.session.id, parentId: two.genesis.id, ...content({}) }),
      ).toEqual({ ok: false, reason: 'parent-not-found' });
      expect(
        await store.appendTurn({ sessionId: 'no-session', parentId: one.genesis.id, ...content({}) }),
      ).toEqual({
        ok: false,
        reason: 'session-not-found',
      });
      expect(await store.listTree(one.session.id)).toHaveLength(1);
    });

    it('get a conflict, not a lost update, when the head moved', async () => {
      const { session, genesis } = await seedSession(store);
      const winner = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        ...content({ who: 'first' }),
      });
      expect(winner.ok).toBe(true);
      const loser = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        ...content({ who: 'second' }),
      });
      expect(loser).toEqual({ ok: false, reason: 'conflict', headTurnId: winner.ok ? winner.turn.id : '' });
      expect(await store.listTree(session.id)).toHaveLength(2);
    });

    it('let exactly one of two concurrent appends on the same head win', async () => {
      const { session, genesis } = await seedSession(store);
      const results = await Promise.all(
        ['a', 'b', 'c'].map((who) =>
          store.appendTurn({
            sessionId: session.id,
            parentId: genesis.id,
            expectedHeadId: genesis.id,
            ...content({ who }),
          }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'conflict')).toHaveLength(2);
      expect(await store.listTree(session.id)).toHaveLength(2);
    });

    it('return the first turn when retried with the same Idempotency-Key', async () => {
      const { session, genesis } = await seedSession(store);
      const request = {
        sessionId: session.id,
        parentId: genesis.id,
        expectedHeadId: genesis.id,
        idempotencyKey: 'req-1',
      };
      const first = await store.appendTurn({ ...request, ...content({ try: 1 }) });
      // The retry carries different content and its expected head is stale: the key wins over both.
      const retry = await store.appendTurn({ ...request, ...content({ try: 2 }) });
      if (!first.ok || !retry.ok) throw new Error('append failed');
      expect(first.replayed).toBe(false);
      expect(retry.replayed).toBe(true);
      expect(retry.turn).toEqual(first.turn);
      expect(retry.turn.state).toEqual({ try: 1 });
      expect(await store.findTurnByIdempotencyKey(session.id, 'req-1')).toEqual(first.turn);
      expect(await store.findTurnByIdempotencyKey(session.id, 'req-2')).toBeUndefined();
      const after = await store.getSession(session.id, session.principalId);
      expect(after?.turnCount).toBe(2);
      // Keys are per session.
      const other = await seedSession(store);
      const elsewhere = await store.appendTurn({
        sessionId: other.session.id,
        parentId: other.genesis.id,
        idempotencyKey: 'req-1',
        ...content({}),
      });
      expect(elsewhere.ok && !elsewhere.replayed).toBe(true);
    });

    it('refuse a caller-chosen id that is already taken', async () => {
      const { session, genesis } = await seedSession(store);
      await expect(
        store.appendTurn({ id: genesis.id, sessionId: session.id, parentId: genesis.id, ...content({}) }),
      ).rejects.toThrow(/appendTurn.id: .* already used/);
      expect(await store.listTree(session.id)).toHaveLength(1);
    });

    it(`accept state of exactly MAX_STATE_BYTES and refuse one byte more, naming the limit`, async () => {
      const { session, genesis } = await seedSession(store);
      const atLimit = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        ...content(jsonOfBytes(MAX_STATE_BYTES)),
      });
      expect(atLimit.ok).toBe(true);
      const past = store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        ...content(jsonOfBytes(MAX_STATE_BYTES + 1)),
      });
      await expect(past).rejects.toThrow(
        `appendTurn.state: is ${MAX_STATE_BYTES + 1} bytes, over the limit MAX_STATE_BYTES`,
      );
      expect(await store.listTree(session.id)).toHaveLength(2);
    });

    it('accept MAX_LEDGER_EVENTS_PER_TURN events and refuse one more', async () => {
      const { session, genesis } = await seedSession(store);
      const events = Array.from({ length: MAX_LEDGER_EVENTS_PER_TURN }, (_, i) => ({ i }));
      const ok = await mustAppend(store, {
        sessionId: session.id,
        parentId: genesis.id,
        ...content({}, { ledgerEvents: events }),
      });
      expect((await store.getTurn(session.id, ok.id))?.ledgerEvents).toHaveLength(MAX_LEDGER_EVENTS_PER_TURN);
      await expect(
        store.appendTurn({
          sessionId: session.id,
          parentId: genesis.id,
          ...content({}, { ledgerEvents: [...events, { i: -1 }] }),
        }),
      ).rejects.toThrow(/MAX_LEDGER_EVENTS_PER_TURN/);
    });
  });

  describe('hydration', () => {
    it('keeps a deletion inside the state (the original lost it)', async () => {
      const { session, genesis } = await seedSession(store, {
        hp: 10,
        _pending_interaction: { kind: 'minigame' },
        inventory: { sword: 1, torch: 2 },
      });
      const t1 = await mustAppend(store, {
        sessionId: session.id,
        parentId: genesis.id,
        ...content({ hp: 9, _pending_interaction: { kind: 'minigame' }, inventory: { sword: 1, torch: 2 } }),
      });
      const t2 = await mustAppend(store, {
        sessionId: session.id,
        parentId: t1.id,
        ...content({ hp: 9, _pending_interaction: { kind: 'minigame' }, inventory: { sword: 1, torch: 2 } }),
      });
      // Turn 3 pops a key and empties a dict.
      const t3 = await mustAppend(store, {
        sessionId: session.id,
        parentId: t2.id,
        ...content({ hp: 9, inventory: {} }),
      });
      const t4 = await mustAppend(store, {
        sessionId: session.id,
        parentId: t3.id,
        ...content({ hp: 8, inventory: {} }),
      });
      const t5 = await mustAppend(store, {
        sessionId: session.id,
        parentId: t4.id,
        ...content({ hp: 8, inventory: {} }),
      });
      const at5 = await store.hydrate(session.id, t5.id);
      expect(at5?.state).toEqual({ hp: 8, inventory: {} });
      expect(at5?.state).not.toHaveProperty('_pending_interaction');
      expect((await store.hydrate(session.id, t3.id))?.state).toEqual({ hp: 9, inventory: {} });
      expect((await store.hydrate(session.id, t2.id))?.state).toHaveProperty('_pending_interaction');
    });

    it('returns the turn, its state, the messages and the ledger events of the branch', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 3);
      const last = chain[2]!;
      const hydrated = await store.hydrate(session.id, last.id);
      expect(hydrated?.turn).toEqual(last);
      expect(hydrated?.state).toEqual({ n: 3 });
      expect(hydrated?.messagesComplete).toBe(true);
      expect(hydrated?.messages.map((m) => [m.input, m.narration])).toEqual([
        [null, 'It begins.'],
        ['step 1', 'narration 1'],
        ['step 2', 'narration 2'],
        ['step 3', 'narration 3'],
      ]);
      expect(hydrated?.ledgerEvents.map((e) => e.event)).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
      expect(await store.getLedgerLog(session.id, last.id)).toEqual(hydrated?.ledgerEvents);
    });

    it('keeps branches apart: state, messages and ledger never leak between siblings', async () => {
      const { session, genesis } = await seedSession(store);
      const root = await mustAppend(store, {
        sessionId: session.id,
        parentId: genesis.id,
        ...content({ at: 'root' }, { narration: 'fork', ledgerEvents: [{ shared: true }] }),
      });
      const left = await mustAppend(store, {
        sessionId: session.id,
        parentId: root.id,
        ...content({ at: 'left' }, { input: 'go left', narration: 'west', ledgerEvents: [{ side: 'left' }] }),
      });
      const right = await mustAppend(store, {
        sessionId: session.id,
        parentId: root.id,
        ...content(
          { at: 'right' },
          { input: 'go right', narration: 'east', ledgerEvents: [{ side: 'right' }] },
        ),
      });
      const leftMore = await mustAppend(store, {
        sessionId: session.id,
        parentId: left.id,
        ...content(
          { at: 'left2' },
          { input: 'onward', narration: 'further west', ledgerEvents: [{ side: 'left', n: 2 }] },
        ),
      });
      expect([left.siblingIndex, right.siblingIndex]).toEqual([0, 1]);
      expect((await store.listChildren(session.id, root.id)).map((c) => c.id)).toEqual([left.id, right.id]);

      const l = await store.hydrate(session.id, leftMore.id);
      const r = await store.hydrate(session.id, right.id);
      expect(l?.state).toEqual({ at: 'left2' });
      expect(r?.state).toEqual({ at: 'right' });
      expect(l?.messages.map((m) => m.narration)).toEqual(['It begins.', 'fork', 'west', 'further west']);
      expect(r?.messages.map((m) => m.narration)).toEqual(['It begins.', 'fork', 'east']);
      expect(l?.ledgerEvents.map((e) => e.event)).toEqual([
        { shared: true },
        { side: 'left' },
        { side: 'left', n: 2 },
      ]);
      expect(r?.ledgerEvents.map((e) => e.event)).toEqual([{ shared: true }, { side: 'right' }]);
      expect((await store.getLineage(session.id, right.id))?.map((m) => m.id)).toEqual([
        genesis.id,
        root.id,
        right.id,
      ]);
      expect((await store.getLedgerLog(session.id, right.id))?.map((e) => e.event)).toEqual([
        { shared: true },
        { side: 'right' },
      ]);
      const wide = { limit: 10, maxChars: 10_000 };
      const rightBranch = await store.getBranch(session.id, right.id, wide);
      expect(rightBranch?.complete).toBe(true);
      expect(rightBranch?.turns.map((t) => t.state)).toEqual([{ hp: 10 }, { at: 'root' }, { at: 'right' }]);
      const leftBranch = await store.getBranch(session.id, leftMore.id, wide);
      expect(leftBranch?.turns.map((t) => t.id)).toEqual([genesis.id, root.id, left.id, leftMore.id]);
      const { ledgerEvents: _, ...leftMoreWithoutLedger } = leftMore;
      expect(leftBranch?.turns.at(-1)).toEqual(leftMoreWithoutLedger);
    });

    it('does not read turns through another session', async () => {
      const one = await seedSession(store);
      const two = await seedSession(store);
      expect(await store.getTurn(two.session.id, one.genesis.id)).toBeUndefined();
      expect(await store.hydrate(two.session.id, one.genesis.id)).toBeUndefined();
      expect(await store.getLineage(two.session.id, one.genesis.id)).toBeUndefined();
      expect(await store.getLedgerLog(two.session.id, one.genesis.id)).toBeUndefined();
      expect(
        await store.getBranch(two.session.id, one.genesis.id, { limit: 5, maxChars: 1_000 }),
      ).toBeUndefined();
      expect(await store.listChildren(two.session.id, one.genesis.id)).toEqual([]);
    });

    it('lists the tree near a branch’s end: its newest turns and each one’s siblings, in one query', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 4);
      const [c1, c2, , c4] = chain as [Turn, Turn, Turn, Turn];
      // A swipe of c2 (with a child of its own) and of c1.
      const swipe2 = await mustAppend(store, { sessionId: session.id, parentId: c1.id, ...content({}) });
      await mustAppend(store, { sessionId: session.id, parentId: swipe2.id, ...content({}) });
      const swipe1 = await mustAppend(store, { sessionId: session.id, parentId: genesis.id, ...content({}) });
      const { result, count } = await countQueries(() => store.listTreeAround(session.id, c4.id, 3));
      expect(count).toBe(1);
      expect(result?.map((n) => n.id)).toEqual([c2.id, chain[2]?.id, c4.id, swipe2.id]);
      const whole = await store.listTree(session.id);
      expect(result).toEqual(whole.filter((n) => result?.some((r) => r.id === n.id)));
      const deeper = await store.listTreeAround(session.id, c4.id, 4);
      expect(deeper?.map((n) => n.id)).toEqual([c1.id, c2.id, chain[2]?.id, c4.id, swipe2.id, swipe1.id]);
      expect((await store.listTreeAround(session.id, c4.id, 5))?.[0]?.id).toBe(genesis.id);
      // Another session's turn is not found through this one.
      const other = await seedSession(store);
      expect(await store.listTreeAround(other.session.id, c4.id, 3)).toBeUndefined();
      await expect(store.listTreeAround(session.id, c4.id, MAX_BRANCH_TURNS + 1)).rejects.toThrow(
        `listTreeAround.limit: is ${MAX_BRANCH_TURNS + 1}, over the limit MAX_BRANCH_TURNS`,
      );
      expect(await store.listTreeAround(session.id, c4.id, MAX_BRANCH_TURNS)).toHaveLength(7);
      await expect(store.listTreeAround(session.id, c4.id, 0)).rejects.toThrow(StoreInputError);
    });

    it('reads a branch of MAX_BRANCH_TURNS turns and MAX_BRANCH_CHARS characters, refusing more', async () => {
      const { session, genesis } = await seedSession(store);
      const at = { limit: MAX_BRANCH_TURNS, maxChars: MAX_BRANCH_CHARS };
      expect((await store.getBranch(session.id, genesis.id, at))?.turns).toHaveLength(1);
      await expect(
        store.getBranch(session.id, genesis.id, { ...at, limit: MAX_BRANCH_TURNS + 1 }),
      ).rejects.toThrow(`getBranch.limit: is ${MAX_BRANCH_TURNS + 1}, over the limit MAX_BRANCH_TURNS`);
      await expect(
        store.getBranch(session.id, genesis.id, { ...at, maxChars: MAX_BRANCH_CHARS + 1 }),
      ).rejects.toThrow(`getBranch.maxChars: is ${MAX_BRANCH_CHARS + 1}, over the limit MAX_BRANCH_CHARS`);
      await expect(store.getBranch(session.id, genesis.id, { ...at, limit: 0 })).rejects.toThrow(
        StoreInputError,
      );
      await expect(store.getBranch(session.id, genesis.id, { ...at, maxChars: 0.5 })).rejects.toThrow(
        StoreInputError,
      );
    });

    it('cuts a branch at the character budget, newest turns first, and always keeps the turn asked for', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 4);
      const last = chain[3]!;
      const whole = await store.getBranch(session.id, last.id, { limit: 10, maxChars: 10_000 });
      expect(whole?.turns.map((t) => t.depth)).toEqual([0, 1, 2, 3, 4]);
      const sizes = whole!.turns.map(storedChars);
      const newestThree = sizes[2]! + sizes[3]! + sizes[4]!;
      const three = await store.getBranch(session.id, last.id, { limit: 10, maxChars: newestThree });
      expect(three?.turns.map((t) => t.depth)).toEqual([2, 3, 4]);
      expect(three?.complete).toBe(false);
      const two = await store.getBranch(session.id, last.id, { limit: 10, maxChars: newestThree - 1 });
      expect(two?.turns.map((t) => t.depth)).toEqual([3, 4]);
      const one = await store.getBranch(session.id, last.id, { limit: 10, maxChars: 1 });
      expect(one?.turns.map((t) => t.id)).toEqual([last.id]);
      expect(one?.turns[0]?.state).toEqual({ n: 4 });
    });

    it('accepts a message window of MAX_MESSAGE_WINDOW and refuses one more', async () => {
      const { session, genesis } = await seedSession(store);
      expect(
        await store.hydrate(session.id, genesis.id, { messageWindow: MAX_MESSAGE_WINDOW }),
      ).toBeDefined();
      await expect(
        store.hydrate(session.id, genesis.id, { messageWindow: MAX_MESSAGE_WINDOW + 1 }),
      ).rejects.toThrow(
        `hydrate.messageWindow: is ${MAX_MESSAGE_WINDOW + 1}, over the limit MAX_MESSAGE_WINDOW`,
      );
      await expect(store.hydrate(session.id, genesis.id, { messageWindow: 0 })).rejects.toThrow(
        StoreInputError,
      );
    });

    describe(`on a branch ${LONG_BRANCH} turns deep`, () => {
      let sessionId: string;
      let chain: Turn[];
      let genesisId: string;
      beforeAll(async () => {
        const seeded = await seedSession(store);
        sessionId = seeded.session.id;
        genesisId = seeded.genesis.id;
        chain = await appendChain(store, sessionId, genesisId, LONG_BRANCH);
      }, 120_000);

      it('reads the whole lineage and the whole ledger log in one query each', async () => {
        const deepest = chain[LONG_BRANCH - 1]!;
        const lineage = await countQueries(() => store.getLineage(sessionId, deepest.id));
        expect(lineage.count).toBe(1);
        expect(lineage.result).toHaveLength(LONG_BRANCH + 1);
        expect(lineage.result?.[0]?.id).toBe(genesisId);
        expect(lineage.result?.map((m) => m.depth)).toEqual(
          Array.from({ length: LONG_BRANCH + 1 }, (_, i) => i),
        );
        expect(lineage.result?.[LONG_BRANCH]?.narration).toBe(`narration ${LONG_BRANCH}`);
        const log = await countQueries(() => store.getLedgerLog(sessionId, deepest.id));
        expect(log.count).toBe(1);
        expect(log.result?.map((e) => e.event)).toEqual(
          Array.from({ length: LONG_BRANCH }, (_, i) => ({ step: i + 1 })),
        );
      });

      it('hydrates with the same number of queries at depth 1 and at the bottom', async () => {
        const shallow = await countQueries(() => store.hydrate(sessionId, chain[0]!.id));
        const deep = await countQueries(() => store.hydrate(sessionId, chain[LONG_BRANCH - 1]!.id));
        expect(deep.count).toBe(shallow.count);
        expect(deep.count).toBeLessThanOrEqual(2);
        expect(deep.result?.state).toEqual({ n: LONG_BRANCH });
        expect(deep.result?.messages).toHaveLength(DEFAULT_MESSAGE_WINDOW);
        expect(deep.result?.messagesComplete).toBe(false);
        expect(deep.result?.messages.at(-1)?.id).toBe(chain[LONG_BRANCH - 1]!.id);
        expect(deep.result?.ledgerEvents.map((e) => e.event)).toEqual(
          Array.from({ length: DEFAULT_MESSAGE_WINDOW }, (_, i) => ({
            step: LONG_BRANCH - DEFAULT_MESSAGE_WINDOW + 1 + i,
          })),
        );
      });

      it('reads the newest turns of the branch with their state in one query, saying it is incomplete', async () => {
        const deepest = chain[LONG_BRANCH - 1]!;
        const branch = await countQueries(() =>
          store.getBranch(sessionId, deepest.id, { limit: 500, maxChars: MAX_BRANCH_CHARS }),
        );
        expect(branch.count).toBe(1);
        expect(branch.result?.complete).toBe(false);
        expect(branch.result?.turns).toHaveLength(500);
        expect(branch.result?.turns[0]?.depth).toBe(LONG_BRANCH - 499);
        expect(branch.result?.turns.at(-1)?.state).toEqual({ n: LONG_BRANCH });
        const shallow = await store.getBranch(sessionId, chain[498]!.id, {
          limit: 500,
          maxChars: MAX_BRANCH_CHARS,
        });
        expect(shallow?.complete).toBe(true);
        expect(shallow?.turns.map((t) => t.depth)).toEqual(Array.from({ length: 500 }, (_, i) => i));
        expect(shallow?.turns[0]?.id).toBe(genesisId);
      });

      it('honours a smaller window and reports a complete one', async () => {
        const five = await store.hydrate(sessionId, chain[999]!.id, { messageWindow: 5 });
        expect(five?.messages.map((m) => m.depth)).toEqual([996, 997, 998, 999, 1000]);
        const whole = await store.hydrate(sessionId, chain[3]!.id, { messageWindow: 5 });
        expect(whole?.messages.map((m) => m.depth)).toEqual([0, 1, 2, 3, 4]);
        expect(whole?.messagesComplete).toBe(true);
      });

      it('lists the tree in creation order', async () => {
        const tree = await store.listTree(sessionId);
        expect(tree).toHaveLength(LONG_BRANCH + 1);
        expect(tree.map((n) => n.seq)).toEqual(Array.from({ length: LONG_BRANCH + 1 }, (_, i) => i));
        expect(tree[1]?.parentId).toBe(genesisId);
      });
    });
  });

  describe('model settings', () => {
    it('are one row per principal, replaced as a whole, and absent until first stored', async () => {
      const alice = await store.createPrincipal({ name: 'alice' });
      const bob = await store.createPrincipal({ name: 'bob' });
      expect(await store.getModelSettings(alice.id)).toBeUndefined();
      const first = await store.putModelSettings({
        principalId: alice.id,
        settings: { models: { narrator: 'a' }, temperature: 0.5 },
        updatedAt: 10,
      });
      expect(first).toEqual({
        ok: true,
        stored: {
          principalId: alice.id,
          settings: { models: { narrator: 'a' }, temperature: 0.5 },
          updatedAt: 10,
        },
      });
      const replaced = await store.putModelSettings({
        principalId: alice.id,
        settings: { baseUrl: 'http://127.0.0.1:1/v1' },
        updatedAt: 11,
      });
      expect(replaced.ok).toBe(true);
      expect(await store.getModelSettings(alice.id)).toEqual({
        principalId: alice.id,
        settings: { baseUrl: 'http://127.0.0.1:1/v1' },
        updatedAt: 11,
      });
      expect(await store.getModelSettings(bob.id)).toBeUndefined();
      expect(await store.putModelSettings({ principalId: 'nobody', settings: {} })).toEqual({
        ok: false,
        reason: 'principal-not-found',
      });
    });

    it(`accept MAX_SETTINGS_BYTES of JSON and refuse one byte more, keeping what was stored`, async () => {
      const p = await store.createPrincipal({ name: 'big' });
      const at = jsonOfBytes(MAX_SETTINGS_BYTES);
      expect((await store.putModelSettings({ principalId: p.id, settings: at })).ok).toBe(true);
      await expect(
        store.putModelSettings({ principalId: p.id, settings: jsonOfBytes(MAX_SETTINGS_BYTES + 1) }),
      ).rejects.toThrow(
        `putModelSettings.settings: is ${MAX_SETTINGS_BYTES + 1} bytes, over the limit MAX_SETTINGS_BYTES`,
      );
      expect((await store.getModelSettings(p.id))?.settings).toBe(at);
    });
  });

  describe('moving the head', () => {
    it('jumps to any turn of the session and detects a concurrent move', async () => {
      const { session, genesis } = await seedSession(store);
      const [t1, t2] = await appendChain(store, session.id, genesis.id, 2);
      const undo = await store.setHead(session.id, t1!.id, { expectedHeadId: t2!.id });
      expect(undo.ok && undo.session.headTurnId).toBe(t1!.id);
      expect(await store.setHead(session.id, genesis.id, { expectedHeadId: t2!.id })).toEqual({
        ok: false,
        reason: 'conflict',
        headTurnId: t1!.id,
      });
      const other = await seedSession(store);
      expect(await store.setHead(session.id, other.genesis.id)).toEqual({
        ok: false,
        reason: 'turn-not-found',
      });
      expect(await store.setHead('no-session', genesis.id)).toEqual({
        ok: false,
        reason: 'session-not-found',
      });
      expect((await store.getSession(session.id, session.principalId))?.headTurnId).toBe(t1!.id);
    });
  });

  describe('saves', () => {
    it('are named bookmarks, unique per session', async () => {
      const { session, genesis } = await seedSession(store);
      const [t1] = await appendChain(store, session.id, genesis.id, 1);
      const saved = await store.createSave({
        sessionId: session.id,
        turnId: t1!.id,
        name: 'before the dragon',
      });
      if (!saved.ok) throw new Error(saved.reason);
      expect(await store.getSave(session.id, saved.save.id)).toEqual(saved.save);
      expect(
        await store.createSave({ sessionId: session.id, turnId: genesis.id, name: 'before the dragon' }),
      ).toEqual({
        ok: false,
        reason: 'name-taken',
      });
      const other = await seedSession(store);
      expect(
        (
          await store.createSave({
            sessionId: other.session.id,
            turnId: other.genesis.id,
            name: 'before the dragon',
          })
        ).ok,
      ).toBe(true);
      expect(await store.createSave({ sessionId: other.session.id, turnId: t1!.id, name: 'stolen' })).toEqual(
        {
          ok: false,
          reason: 'turn-not-found',
        },
      );
      expect(await store.createSave({ sessionId: 'nope', turnId: t1!.id, name: 'x' })).toEqual({
        ok: false,
        reason: 'session-not-found',
      });
      const second = await store.createSave({ sessionId: session.id, turnId: genesis.id, name: 'start' });
      if (!second.ok) throw new Error(second.reason);
      expect(await store.renameSave(session.id, second.save.id, 'before the dragon')).toEqual({
        ok: false,
        reason: 'name-taken',
      });
      const renamed = await store.renameSave(session.id, second.save.id, 'the very start');
      expect(renamed.ok && renamed.save.name).toBe('the very start');
      expect(await store.renameSave(other.session.id, second.save.id, 'x')).toEqual({
        ok: false,
        reason: 'save-not-found',
      });
      expect((await store.listSaves(session.id)).map((s) => s.name).sort()).toEqual([
        'before the dragon',
        'the very start',
      ]);
      expect(await store.deleteSave(other.session.id, second.save.id)).toBe(false);
      expect(await store.deleteSave(session.id, second.save.id)).toBe(true);
      expect((await store.listSaves(session.id)).map((s) => s.name)).toEqual(['before the dragon']);
    });
  });
}
