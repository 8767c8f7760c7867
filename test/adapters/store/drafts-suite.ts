// Builder drafts (migration 0006), run against SQLite and PostgreSQL: owner scoping, round trips, the
// byte limits of files and transcript and the per-principal count (each at the limit and just past it),
// ordering, and the migration on a database written by migrations 1–5.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import { JsonText } from '../../../src/adapters/store/json.ts';
import {
  MAX_DRAFT_BYTES,
  MAX_DRAFT_TRANSCRIPT_BYTES,
  MAX_DRAFTS_PER_PRINCIPAL,
} from '../../../src/adapters/store/drafts.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import type { StoreHarness } from './harness.ts';

/** Files whose JSON text is exactly `bytes` bytes: {"yare.yaml":"xxx…"}. */
function filesOfBytes(bytes: number): Record<string, string> {
  const overhead = JSON.stringify({ 'yare.yaml': '' }).length;
  return { 'yare.yaml': 'x'.repeat(bytes - overhead) };
}

export function draftsSuite(harness: StoreHarness): void {
  let store: Store;
  let clock = 1_000;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl(), { now: () => clock++ });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('create, read, list, update and delete are scoped to the owner', async () => {
    const alice = await store.createPrincipal({ name: 'alice' });
    const bob = await store.createPrincipal({ name: 'bob' });
    const created = await store.createDraft({
      principalId: alice.id,
      name: 'Mill Pond',
      files: { 'yare.yaml': 'version: "1.0"\n', 'bot_lore.md': '# Pond\n' },
      transcript: '# Generation transcript\n',
    });
    if (!created.ok) throw new Error(created.reason);
    const id = created.draft.id;
    expect(await store.getDraft(id, bob.id)).toBeUndefined();
    const read = await store.getDraft(id, alice.id);
    expect(read?.files).toEqual({ 'yare.yaml': 'version: "1.0"\n', 'bot_lore.md': '# Pond\n' });
    expect(read?.transcript).toBe('# Generation transcript\n');
    expect(await store.listDrafts(bob.id)).toEqual([]);
    expect(await store.updateDraft(id, bob.id, { name: 'stolen' })).toBeUndefined();
    expect(await store.deleteDraft(id, bob.id)).toBe(false);

    const updated = await store.updateDraft(id, alice.id, { files: { 'yare.yaml': 'changed' } });
    expect(updated?.files).toEqual({ 'yare.yaml': 'changed' });
    expect(updated?.name).toBe('Mill Pond');
    expect(updated?.transcript).toBe('# Generation transcript\n');
    expect(updated!.updatedAt).toBeGreaterThan(created.draft.updatedAt);

    const second = await store.createDraft({ principalId: alice.id, name: 'Second', files: {} });
    if (!second.ok) throw new Error(second.reason);
    // Most recently changed first: the first draft is changed after the second was made.
    await store.updateDraft(id, alice.id, { name: 'Mill Pond 2' });
    expect((await store.listDrafts(alice.id)).map((d) => d.name)).toEqual(['Mill Pond 2', 'Second']);

    expect(await store.deleteDraft(id, alice.id)).toBe(true);
    expect(await store.getDraft(id, alice.id)).toBeUndefined();
    expect(await store.deleteDraft(id, alice.id)).toBe(false);
  });

  it('with expectedUpdatedAt, a save made since is never overwritten; updatedAt always moves forward', async () => {
    const owner = await store.createPrincipal({ name: 'two tabs' });
    const created = await store.createDraft({ principalId: owner.id, name: 'd', files: { a: '1' } });
    if (!created.ok) throw new Error(created.reason);
    const seen = created.draft.updatedAt;
    // Tab B saves first; tab A still holds `seen`.
    const b = await store.updateDraft(created.draft.id, owner.id, {
      files: { a: 'B' },
      expectedUpdatedAt: seen,
    });
    expect(b?.files).toEqual({ a: 'B' });
    expect(b!.updatedAt).toBeGreaterThan(seen);
    const a = await store.updateDraft(created.draft.id, owner.id, {
      files: { a: 'A' },
      expectedUpdatedAt: seen,
    });
    expect(a).toBeUndefined();
    expect((await store.getDraft(created.draft.id, owner.id))?.files).toEqual({ a: 'B' });
    // Saves stamped with the same clock reading still move forward, so a stale base never matches.
    const t1 = await store.updateDraft(created.draft.id, owner.id, { name: 'x', updatedAt: 5_000_000 });
    const t2 = await store.updateDraft(created.draft.id, owner.id, { name: 'y', updatedAt: 5_000_000 });
    expect(t2!.updatedAt).toBe(t1!.updatedAt + 1);
    expect(
      await store.updateDraft(created.draft.id, owner.id, { name: 'z', expectedUpdatedAt: t1!.updatedAt }),
    ).toBeUndefined();
  });

  it('refuses a draft for a principal that does not exist', async () => {
    const result = await store.createDraft({ principalId: 'nobody', name: 'x', files: {} });
    expect(result).toEqual({ ok: false, reason: 'principal-not-found' });
  });

  it('files are bounded by MAX_DRAFT_BYTES: at the limit stored, one byte past refused naming it', async () => {
    const owner = await store.createPrincipal({ name: 'big' });
    const atLimit = await store.createDraft({
      principalId: owner.id,
      name: 'big',
      files: filesOfBytes(MAX_DRAFT_BYTES),
    });
    expect(atLimit.ok).toBe(true);
    await expect(
      store.createDraft({ principalId: owner.id, name: 'big', files: filesOfBytes(MAX_DRAFT_BYTES + 1) }),
    ).rejects.toThrow(/createDraft\.files.*MAX_DRAFT_BYTES/);
    if (!atLimit.ok) return;
    await expect(
      store.updateDraft(atLimit.draft.id, owner.id, { files: filesOfBytes(MAX_DRAFT_BYTES + 1) }),
    ).rejects.toBeInstanceOf(StoreInputError);
  });

  it('files given as JSON text are stored as that text, answered with the value it carries, and bounded the same', async () => {
    const owner = await store.createPrincipal({ name: 'serialised' });
    const files = { 'yare.yaml': 'version: "1.0"\n', 'bot_lore.md': '# Lore é\n' };
    // The answer is the value the text carries (the store parses nothing); what is read back is the text.
    const carried = { 'yare.yaml': 'what the caller had' };
    const created = await store.createDraft({
      principalId: owner.id,
      name: 'Text',
      files: new JsonText(JSON.stringify(files), carried),
    });
    if (!created.ok) throw new Error(created.reason);
    expect(created.draft.files).toBe(carried);
    expect((await store.getDraft(created.draft.id, owner.id))?.files).toEqual(files);
    const usage = await store.cartridgeUsage(owner.id);
    expect(usage.draftBytes).toBe(Buffer.byteLength(JSON.stringify(files)));

    const changed = { 'yare.yaml': 'changed' };
    const updated = await store.updateDraft(created.draft.id, owner.id, {
      files: new JsonText(JSON.stringify(changed), changed),
      transcript: '# t',
    });
    expect(updated?.files).toBe(changed);
    expect(updated?.transcript).toBe('# t');
    expect(updated?.name).toBe('Text');
    expect(updated!.updatedAt).toBeGreaterThan(created.draft.updatedAt);
    expect(await store.getDraft(created.draft.id, owner.id)).toEqual({ ...updated, files: changed });
    // Without a value the text is parsed for the answer, as for plain files.
    const plain = await store.updateDraft(created.draft.id, owner.id, { files: new JsonText('{"a":"b"}') });
    expect(plain?.files).toEqual({ a: 'b' });

    const atLimit = JSON.stringify(filesOfBytes(MAX_DRAFT_BYTES));
    const past = JSON.stringify(filesOfBytes(MAX_DRAFT_BYTES + 1));
    expect(
      (await store.updateDraft(created.draft.id, owner.id, { files: new JsonText(atLimit, {}) }))?.id,
    ).toBe(created.draft.id);
    await expect(
      store.createDraft({ principalId: owner.id, name: 'big', files: new JsonText(past, {}) }),
    ).rejects.toThrow(/createDraft\.files.*MAX_DRAFT_BYTES/);
  });

  it('the transcript is bounded by MAX_DRAFT_TRANSCRIPT_BYTES', async () => {
    const owner = await store.createPrincipal({ name: 'talker' });
    const ok = await store.createDraft({
      principalId: owner.id,
      name: 't',
      files: {},
      transcript: 'é'.repeat(MAX_DRAFT_TRANSCRIPT_BYTES / 2),
    });
    expect(ok.ok).toBe(true);
    await expect(
      store.createDraft({
        principalId: owner.id,
        name: 't',
        files: {},
        transcript: `${'é'.repeat(MAX_DRAFT_TRANSCRIPT_BYTES / 2)}x`,
      }),
    ).rejects.toThrow(/MAX_DRAFT_TRANSCRIPT_BYTES/);
  });

  it(`a principal keeps at most ${MAX_DRAFTS_PER_PRINCIPAL} drafts`, async () => {
    const owner = await store.createPrincipal({ name: 'prolific' });
    for (let i = 0; i < MAX_DRAFTS_PER_PRINCIPAL; i++) {
      const r = await store.createDraft({ principalId: owner.id, name: `d${i}`, files: {} });
      expect(r.ok).toBe(true);
    }
    expect(await store.createDraft({ principalId: owner.id, name: 'one more', files: {} })).toEqual({
      ok: false,
      reason: 'quota',
      limit: MAX_DRAFTS_PER_PRINCIPAL,
    });
    expect(await store.listDrafts(owner.id)).toHaveLength(MAX_DRAFTS_PER_PRINCIPAL);
    // Another principal is not affected by this one's count.
    const other = await store.createPrincipal({ name: 'other' });
    expect((await store.createDraft({ principalId: other.id, name: 'x', files: {} })).ok).toBe(true);
  });

  it('a bad name is refused naming the field', async () => {
    const owner = await store.createPrincipal({ name: 'namer' });
    await expect(store.createDraft({ principalId: owner.id, name: '  ', files: {} })).rejects.toThrow(
      /createDraft\.name/,
    );
  });

  describe('migration 0006', () => {
    it('adds the drafts table to a database written by migrations 1–5, keeping its rows', async () => {
      const url = await harness.freshUrl();
      const old = await harness.open(url, { migrations: MIGRATIONS.slice(0, 5) });
      const principal = await old.createPrincipal({ name: 'from before' });
      expect(await old.schemaVersion()).toBe(5);
      await old.close();
      const current = await harness.open(url);
      try {
        expect(await current.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
        expect((await current.getPrincipal(principal.id))?.name).toBe('from before');
        const created = await current.createDraft({ principalId: principal.id, name: 'd', files: {} });
        expect(created.ok).toBe(true);
      } finally {
        await current.close();
      }
    });
  });
}
