// The library (migration 0005), run against SQLite and PostgreSQL: metadata, visibility, version tags and
// notes, archiving, deleting versions and cartridges while sessions play them, covers, limits, and the
// migration itself on a database written by migrations 1–4.

import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_OWNER } from '../../../src/adapters/store/cartridge-entries.ts';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import {
  MAX_COVER_BYTES,
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_LISTED_CARTRIDGES,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
} from '../../../src/adapters/store/library-limits.ts';
import { LIBRARY_MIGRATION_BATCH, library } from '../../../src/adapters/store/migrations/0005_library.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { content } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

let clock = 1_700_000_000_000;

/** A stored version with an entry in the owner's library under `name`, each newer than the last. */
async function addVersion(store: Store, ownerId: string, name: string, bytes = 10) {
  const version = await store.putCartridgeVersion({
    name,
    contentHash: `sha256:${randomUUID().replaceAll('-', '')}`,
    files: { 'yare.yaml': `bot_name: ${name}` },
  });
  await store.addCartridgeEntry({ ownerId, versionId: version.id, name, bytes, createdAt: clock++ });
  return version;
}

async function startSession(store: Store, principalId: string, versionId: string) {
  const created = await store.createSession({
    principalId,
    cartridgeVersionId: versionId,
    seed: 1,
    genesis: { ...content({ hp: 1 }), input: null, narration: 'It begins.' },
  });
  if (!created.ok) throw new Error(created.reason);
  return created.session;
}

/** Runs SQL on the database at `url` without the store (to write rows as an older build did). */
async function rawExec(harness: StoreHarness, url: string, statements: Array<[string, unknown[]]>) {
  if (harness.name === 'sqlite') {
    const db = new Database(url);
    try {
      for (const [text, params] of statements) db.prepare(text.replace(/\$\d+/g, '?')).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [text, params] of statements) await client.query(text, params);
  } finally {
    await client.end();
  }
}

export function librarySuite(harness: StoreHarness): void {
  let store: Store;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl());
    alice = (await store.createPrincipal({ name: 'alice' })).id;
    bob = (await store.createPrincipal({ name: 'bob' })).id;
  });
  afterAll(async () => {
    await store?.close();
  });

  describe('visibility', () => {
    it('a principal’s cartridge is private until made public; then every principal lists, finds and starts it', async () => {
      const v = await addVersion(store, alice, 'Fen');
      const mine = await store.findLibraryCartridge(alice, 'Fen');
      expect(mine).toMatchObject({
        ownerId: alice,
        name: 'Fen',
        title: 'Fen',
        visibility: 'private',
        tags: [],
      });
      expect(await store.findLibraryCartridge(bob, 'Fen')).toBeUndefined();
      expect(await store.findLibraryCartridge(bob, mine!.id)).toBeUndefined();
      expect((await store.listLibrary(bob)).map((c) => c.name)).not.toContain('Fen');
      expect(await store.canStartVersion(bob, v.id)).toBe(false);
      expect(await store.cartridgeAccess(bob, v.id)).toBeUndefined();

      await store.updateLibraryCartridge(alice, mine!.id, { visibility: 'public' });
      expect(await store.findLibraryCartridge(bob, mine!.id)).toMatchObject({
        name: 'Fen',
        visibility: 'public',
      });
      // A name means the operator's cartridge or the viewer's own: another's public one is found by id.
      expect(await store.findLibraryCartridge(bob, 'Fen')).toBeUndefined();
      const listed = await store.listLibrary(bob);
      expect(listed.find((c) => c.id === mine!.id)).toMatchObject({ versionCount: 1, latest: { id: v.id } });
      expect(await store.canStartVersion(bob, v.id)).toBe(true);
      expect(await store.cartridgeAccess(bob, v.id)).toBe('public');
      expect(await store.cartridgeAccess(alice, v.id)).toBe('owner');
      // Another principal cannot change it.
      expect(await store.updateLibraryCartridge(bob, mine!.id, { title: 'Mine now' })).toBeUndefined();
      expect((await store.findLibraryCartridge(alice, mine!.id))?.title).toBe('Fen');
    });

    it('the operator’s cartridges are public from their first version; a private one is hidden from principals', async () => {
      const v = await addVersion(store, OPERATOR_OWNER, `Demo-${randomUUID()}`);
      const demo = await store.findLibraryCartridge(alice, v.name);
      expect(demo).toMatchObject({ ownerId: '', visibility: 'public' });
      expect(await store.resolveCartridgeName(alice, v.name)).toBe(v.id);
      await store.updateLibraryCartridge(OPERATOR_OWNER, demo!.id, { visibility: 'private' });
      expect(await store.findLibraryCartridge(alice, v.name)).toBeUndefined();
      expect(await store.resolveCartridgeName(alice, v.name)).toBeUndefined();
      expect(await store.findLibraryCartridge(OPERATOR_OWNER, v.name)).toBeDefined();
    });
  });

  describe('metadata', () => {
    it('is updated by its owner, with tags deduplicated, and refused at each limit plus one', async () => {
      await addVersion(store, alice, 'Meta');
      const c = (await store.findLibraryCartridge(alice, 'Meta'))!;
      const updated = await store.updateLibraryCartridge(alice, c.id, {
        title: 't'.repeat(MAX_TITLE_CHARS),
        description: 'd'.repeat(MAX_DESCRIPTION_CHARS),
        genre: 'g'.repeat(MAX_GENRE_CHARS),
        tags: [...Array.from({ length: MAX_TAGS - 1 }, (_, i) => `tag${i}`), 'x'.repeat(MAX_TAG_CHARS)],
      });
      expect(updated?.title).toHaveLength(MAX_TITLE_CHARS);
      expect(updated?.tags).toHaveLength(MAX_TAGS);
      expect(
        (await store.updateLibraryCartridge(alice, c.id, { tags: ['fen', 'fen', 'bog'] }))?.tags,
      ).toEqual(['fen', 'bog']);
      const past: Array<[Parameters<Store['updateLibraryCartridge']>[2], RegExp]> = [
        [{ title: 't'.repeat(MAX_TITLE_CHARS + 1) }, /title: is 201 characters/],
        [{ description: 'd'.repeat(MAX_DESCRIPTION_CHARS + 1) }, /description/],
        [{ genre: 'g'.repeat(MAX_GENRE_CHARS + 1) }, /genre/],
        [{ tags: Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`) }, /MAX_TAGS/],
        [{ tags: ['x'.repeat(MAX_TAG_CHARS + 1)] }, /tags\[0\]/],
        [{ title: '   ' }, /title: must not be empty/],
        [{ genre: 'a\nb' }, /control character/],
      ];
      for (const [patch, message] of past) {
        await expect(store.updateLibraryCartridge(alice, c.id, patch)).rejects.toThrow(message);
      }
      await expect(store.updateLibraryCartridge(alice, c.id, { title: 'x\u0000' })).rejects.toThrow(
        StoreInputError,
      );
    });

    it('drafts count in the usage: files and transcript, in UTF-8 bytes', async () => {
      const before = await store.cartridgeUsage(alice);
      const files = { 'bot_lore.md': 'é'.repeat(1_000) };
      const created = await store.createDraft({
        principalId: alice,
        name: 'Counted',
        files,
        transcript: 'ü'.repeat(10),
      });
      if (!created.ok) throw new Error(created.reason);
      const after = await store.cartridgeUsage(alice);
      const added = Buffer.byteLength(JSON.stringify(files)) + 20;
      expect(after.draftBytes - before.draftBytes).toBe(added);
      expect(after.bytes - before.bytes).toBe(added);
      expect(after.bytes).toBe(
        after.cartridgeBytes + after.coverBytes + after.draftBytes + after.pictureBytes,
      );
      expect(await store.deleteDraft(created.draft.id, alice)).toBe(true);
      expect((await store.cartridgeUsage(alice)).draftBytes).toBe(before.draftBytes);
    });

    it('covers: stored and read back byte for byte, counted in the quota, refused past MAX_COVER_BYTES', async () => {
      await addVersion(store, bob, 'Covered', 100);
      const c = (await store.findLibraryCartridge(bob, 'Covered'))!;
      const before = await store.cartridgeUsage(bob);
      const data = new Uint8Array(MAX_COVER_BYTES).map((_, i) => i % 251);
      expect(await store.setCartridgeCover(bob, c.id, { mediaType: 'image/png', data })).toBe(true);
      const read = await store.getCartridgeCover(c.id);
      expect(read?.mediaType).toBe('image/png');
      expect(Buffer.from(read!.data).equals(Buffer.from(data))).toBe(true);
      expect((await store.findLibraryCartridge(bob, c.id))?.cover).toMatchObject({
        mediaType: 'image/png',
        bytes: MAX_COVER_BYTES,
      });
      expect((await store.cartridgeUsage(bob)).bytes).toBe(before.bytes + MAX_COVER_BYTES);
      await expect(
        store.setCartridgeCover(bob, c.id, {
          mediaType: 'image/png',
          data: new Uint8Array(MAX_COVER_BYTES + 1),
        }),
      ).rejects.toThrow(/MAX_COVER_BYTES/);
      await expect(
        store.setCartridgeCover(bob, c.id, { mediaType: 'image/svg+xml', data: new Uint8Array(4) }),
      ).rejects.toThrow(/mediaType/);
      expect(await store.setCartridgeCover(alice, c.id, null)).toBe(false);
      expect(await store.setCartridgeCover(bob, c.id, null)).toBe(true);
      expect(await store.getCartridgeCover(c.id)).toBeUndefined();
      expect((await store.cartridgeUsage(bob)).bytes).toBe(before.bytes);
    });
  });

  describe('versions: tags, notes, archiving', () => {
    it('a tag names one version of its cartridge; notes at their limit; past both is refused', async () => {
      const v1 = await addVersion(store, alice, 'Tagged');
      const v2 = await addVersion(store, alice, 'Tagged');
      const tag = 'v'.repeat(MAX_VERSION_TAG_CHARS);
      const first = await store.updateLibraryVersion(alice, v1.id, {
        tag,
        notes: 'n'.repeat(MAX_VERSION_NOTES_CHARS),
      });
      expect(first).toMatchObject({ ok: true, version: { id: v1.id, tag, archivedAt: null } });
      expect(await store.updateLibraryVersion(alice, v2.id, { tag })).toEqual({
        ok: false,
        reason: 'tag-taken',
        tag,
        versionId: v1.id,
      });
      expect(await store.updateLibraryVersion(bob, v1.id, { tag: 'x' })).toEqual({
        ok: false,
        reason: 'not-found',
      });
      await expect(
        store.updateLibraryVersion(alice, v2.id, { tag: 'v'.repeat(MAX_VERSION_TAG_CHARS + 1) }),
      ).rejects.toThrow(/tag: is 65 characters/);
      await expect(
        store.updateLibraryVersion(alice, v2.id, { notes: 'n'.repeat(MAX_VERSION_NOTES_CHARS + 1) }),
      ).rejects.toThrow(/notes/);
      expect(await store.updateLibraryVersion(alice, v1.id, { tag: null })).toMatchObject({
        ok: true,
        version: { tag: null },
      });
      const listed = await store.listLibraryVersions((await store.findLibraryCartridge(alice, 'Tagged'))!.id);
      expect(listed.map((v) => v.id)).toEqual([v2.id, v1.id]);
    });

    it('two versions tagged alike at once: exactly one gets the tag', async () => {
      const a = await addVersion(store, bob, 'Race');
      const b = await addVersion(store, bob, 'Race');
      for (let round = 0; round < 5; round++) {
        const tag = `race-${round}`;
        const results = await Promise.all([
          store.updateLibraryVersion(bob, a.id, { tag }),
          store.updateLibraryVersion(bob, b.id, { tag }),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, reason: 'tag-taken', tag });
        const tagged = (
          await store.listLibraryVersions((await store.findLibraryCartridge(bob, 'Race'))!.id)
        ).filter((v) => v.tag === tag);
        expect(tagged).toHaveLength(1);
      }
    });

    it('an archived version is neither listed nor startable, stays readable by its sessions, and can be deleted while played', async () => {
      const v1 = await addVersion(store, alice, 'Archive');
      const v2 = await addVersion(store, alice, 'Archive');
      const c = (await store.findLibraryCartridge(alice, 'Archive'))!;
      await store.updateLibraryCartridge(alice, c.id, { visibility: 'public' });
      const bobs = await startSession(store, bob, v1.id);
      expect(await store.deleteCartridgeEntry(alice, v1.id)).toEqual({
        ok: false,
        reason: 'in-use',
        sessions: 1,
      });
      await store.updateLibraryVersion(alice, v1.id, { archived: true });
      expect((await store.listLibraryVersions(c.id)).map((v) => v.id)).toEqual([v2.id]);
      expect((await store.listLibraryVersions(c.id, { includeArchived: true })).map((v) => v.id)).toEqual([
        v2.id,
        v1.id,
      ]);
      expect(await store.canStartVersion(bob, v1.id)).toBe(false);
      expect(await store.canStartVersion(alice, v1.id)).toBe(false);
      expect(await store.canStartVersion(bob, v2.id)).toBe(true);
      expect(await store.cartridgeAccess(bob, v1.id)).toBe('player');
      expect(await store.resolveCartridgeName(alice, 'Archive')).toBe(v2.id);
      // Archived: the entry goes, the stored version stays for Bob's session.
      expect(await store.deleteCartridgeEntry(alice, v1.id)).toEqual({ ok: true, versionDeleted: false });
      expect(await store.getCartridgeVersion(v1.id)).toBeDefined();
      expect((await store.getSession(bobs.id, bob))?.cartridgeVersionId).toBe(v1.id);
      expect(await store.cartridgeAccess(alice, v1.id)).toBeUndefined();
    });

    it('an archived cartridge is hidden from everyone but its owner’s archive view', async () => {
      const v = await addVersion(store, alice, 'Shelved');
      const c = (await store.findLibraryCartridge(alice, 'Shelved'))!;
      await store.updateLibraryCartridge(alice, c.id, { visibility: 'public', archived: true });
      expect((await store.listLibrary(alice)).map((x) => x.name)).not.toContain('Shelved');
      expect((await store.listLibrary(alice, { includeArchived: true })).map((x) => x.name)).toContain(
        'Shelved',
      );
      expect((await store.listLibrary(bob, { includeArchived: true })).map((x) => x.name)).not.toContain(
        'Shelved',
      );
      expect(await store.findLibraryCartridge(bob, c.id)).toBeUndefined();
      expect(await store.canStartVersion(alice, v.id)).toBe(false);
      await store.updateLibraryCartridge(alice, c.id, { archived: false });
      expect(await store.canStartVersion(bob, v.id)).toBe(true);
    });
  });

  describe('deleting a cartridge', () => {
    it('is refused while a session plays a version that is not archived; then removes every entry', async () => {
      const v1 = await addVersion(store, bob, 'Doomed');
      const v2 = await addVersion(store, bob, 'Doomed');
      const c = (await store.findLibraryCartridge(bob, 'Doomed'))!;
      await store.setCartridgeCover(bob, c.id, { mediaType: 'image/gif', data: new Uint8Array([1, 2, 3]) });
      const session = await startSession(store, bob, v1.id);
      expect(await store.deleteLibraryCartridge(alice, c.id)).toEqual({ ok: false, reason: 'not-found' });
      expect(await store.deleteLibraryCartridge(bob, c.id)).toEqual({
        ok: false,
        reason: 'in-use',
        sessions: 1,
        versions: 1,
      });
      await store.updateLibraryVersion(bob, v1.id, { archived: true });
      expect(await store.deleteLibraryCartridge(bob, c.id)).toEqual({ ok: true, versionsDeleted: [v2.id] });
      expect(await store.findLibraryCartridge(bob, c.id)).toBeUndefined();
      expect(await store.getCartridgeCover(c.id)).toBeUndefined();
      expect(await store.getCartridgeVersion(v2.id)).toBeUndefined();
      expect(await store.getCartridgeVersion(v1.id)).toBeDefined();
      expect(await store.cartridgeAccess(bob, v1.id)).toBe('player');
      expect(await store.deleteSession(session.id, bob)).toBe(true);
    });

    it('an archived cartridge may be deleted while played: its played versions stay stored for the sessions', async () => {
      const v = await addVersion(store, bob, 'Shelved whole');
      const c = (await store.findLibraryCartridge(bob, 'Shelved whole'))!;
      const session = await startSession(store, bob, v.id);
      expect(await store.deleteLibraryCartridge(bob, c.id)).toMatchObject({ ok: false, reason: 'in-use' });
      await store.updateLibraryCartridge(bob, c.id, { archived: true });
      expect(await store.deleteLibraryCartridge(bob, c.id)).toEqual({ ok: true, versionsDeleted: [] });
      expect(await store.findLibraryCartridge(bob, c.id)).toBeUndefined();
      expect(await store.getCartridgeVersion(v.id)).toBeDefined();
      expect(await store.deleteSession(session.id, bob)).toBe(true);
    });

    it('the last version deleted takes the cartridge’s row with it', async () => {
      const v = await addVersion(store, bob, 'Lonely');
      expect(await store.deleteCartridgeEntry(bob, v.id)).toEqual({ ok: true, versionDeleted: true });
      expect(await store.findLibraryCartridge(bob, 'Lonely')).toBeUndefined();
    });
  });

  describe('the listing bound', () => {
    it(`lists MAX_LISTED_CARTRIDGES (${MAX_LISTED_CARTRIDGES}) cartridges and not one more, the viewer’s own first`, async () => {
      const url = await harness.freshUrl();
      const many = await harness.open(url);
      try {
        const carol = (await many.createPrincipal({ name: 'carol' })).id;
        const dave = (await many.createPrincipal({ name: 'dave' })).id;
        // Dave's public cartridges sort before Carol's by name; Carol's own still come first for her.
        for (let i = 0; i < MAX_LISTED_CARTRIDGES - 1; i++) {
          const v = await addVersion(many, dave, `a-${String(i).padStart(4, '0')}`);
          if (i === 0) {
            const c = (await many.findLibraryCartridge(dave, v.name))!;
            await many.updateLibraryCartridge(dave, c.id, { visibility: 'public' });
          }
        }
        await addVersion(many, carol, 'z-mine');
        const atLimit = await many.listLibrary(carol);
        expect(atLimit.map((c) => c.name)).toEqual(['a-0000', 'z-mine']);
        // Make every one of Dave's public: exactly the limit for Dave (his own), one past it for Carol.
        for (const c of await many.listLibrary(dave))
          await many.updateLibraryCartridge(dave, c.id, { visibility: 'public' });
        expect(await many.listLibrary(dave)).toHaveLength(MAX_LISTED_CARTRIDGES - 1);
        const carols = await many.listLibrary(carol);
        expect(carols).toHaveLength(MAX_LISTED_CARTRIDGES);
        expect(carols.map((c) => c.name)).toContain('z-mine');
        await addVersion(many, carol, 'z-mine-2');
        const past = await many.listLibrary(carol);
        expect(past).toHaveLength(MAX_LISTED_CARTRIDGES);
        expect(past.map((c) => c.name)).toEqual(expect.arrayContaining(['z-mine', 'z-mine-2']));
        expect(past.map((c) => c.name)).not.toContain(
          `a-${String(MAX_LISTED_CARTRIDGES - 2).padStart(4, '0')}`,
        );
      } finally {
        await many.close();
      }
    }, 120_000);
  });

  describe('migration 0005', () => {
    it('gives every cartridge of a database written by migrations 1–4 its row: the operator’s public, a principal’s private', async () => {
      const url = await harness.freshUrl();
      const before = MIGRATIONS.filter((m) => m.version < library.version);
      const old = await harness.open(url, { migrations: before });
      expect(await old.schemaVersion()).toBe(4);
      const owner = (await old.createPrincipal({ name: 'owner' })).id;
      const other = (await old.createPrincipal({ name: 'other' })).id;
      const put = (name: string) =>
        old.putCartridgeVersion({
          name,
          contentHash: `sha256:${randomUUID().replaceAll('-', '')}`,
          files: { 'yare.yaml': name },
          createdAt: 1_000,
        });
      const demo = await put('Demo');
      const mine1 = await put('Mine');
      const mine2 = await put('Mine');
      await old.close();
      // Entries as migration 0003's schema held them (the store of this build writes 0005's columns too).
      const insert =
        'insert into cartridge_entries (owner_id, version_id, name, bytes, created_at) values ($1, $2, $3, $4, $5)';
      await rawExec(harness, url, [
        [insert, ['', demo.id, 'Demo', 5, 1_000]],
        [insert, [owner, mine1.id, 'Mine', 7, 2_000]],
        [insert, [owner, mine2.id, 'Mine', 7, 3_000]],
      ]);

      const current = await harness.open(url);
      try {
        expect(await current.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
        const owners = await current.listLibrary(owner);
        expect(owners.map((c) => [c.name, c.ownerId, c.visibility, c.title, c.versionCount])).toEqual([
          ['Demo', '', 'public', 'Demo', 1],
          ['Mine', owner, 'private', 'Mine', 2],
        ]);
        expect(owners[1]).toMatchObject({
          createdAt: 2_000,
          updatedAt: 3_000,
          latest: { id: mine2.id, tag: null },
        });
        expect((await current.listLibrary(other)).map((c) => c.name)).toEqual(['Demo']);
        expect(await current.cartridgeUsage(owner)).toEqual({
          bytes: 14,
          cartridgeBytes: 14,
          coverBytes: 0,
          draftBytes: 0,
          pictureBytes: 0,
          versions: 2,
        });
        // A new version joins the migrated cartridge, not a new one.
        await current.addCartridgeEntry({ ownerId: owner, versionId: demo.id, name: 'Mine', bytes: 1 });
        expect((await current.listLibrary(owner)).find((c) => c.name === 'Mine')?.versionCount).toBe(3);
      } finally {
        await current.close();
      }
    });

    it(`migrates more cartridges than one batch (${LIBRARY_MIGRATION_BATCH} + 1, across two owners), each once`, async () => {
      const url = await harness.freshUrl();
      const old = await harness.open(url, {
        migrations: MIGRATIONS.filter((m) => m.version < library.version),
      });
      const owner = (await old.createPrincipal({ name: 'many' })).id;
      await old.close();
      const total = LIBRARY_MIGRATION_BATCH + 1;
      // The operator's 150 names, then the principal's: the batch boundary falls inside the second owner.
      const rows: Array<[string, unknown[]]> = [];
      for (let i = 0; i < total; i++) {
        const name = `c-${String(i).padStart(4, '0')}`;
        rows.push(
          [
            'insert into cartridge_versions (id, name, content_hash, files, created_at) values ($1, $2, $3, $4, $5)',
            [`v-${i}`, name, `sha256:${randomUUID().replaceAll('-', '')}`, '{}', 1_000 + i],
          ],
          [
            'insert into cartridge_entries (owner_id, version_id, name, bytes, created_at) values ($1, $2, $3, $4, $5)',
            [i < 150 ? '' : owner, `v-${i}`, name, 1, 1_000 + i],
          ],
        );
      }
      await rawExec(harness, url, rows);
      const current = await harness.open(url);
      try {
        const operators = await current.listLibrary('');
        const owners = await current.listLibrary(owner);
        expect(operators).toHaveLength(150);
        expect(owners.filter((c) => c.ownerId === owner)).toHaveLength(total - 150);
        expect(new Set([...operators, ...owners].map((c) => c.id)).size).toBe(total);
      } finally {
        await current.close();
      }
    });
  });
}
