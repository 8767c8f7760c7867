// Turns' pictures (migration 0010_turn_pictures), run against SQLite and PostgreSQL: a round trip scoped to the
// session's owner, replacement, the byte and prompt limits (each at the limit and just past it), the media
// types, the quota count, removal with the session, and the migration on a database written by the earlier ones.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import {
  MAX_TURN_PICTURE_BYTES,
  MAX_TURN_PICTURE_PROMPT_CHARS,
} from '../../../src/adapters/store/turn-pictures.ts';
import { seedSession } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pictureOf(bytes: number, prompt = 'a mill pond at dusk') {
  const data = new Uint8Array(bytes);
  data.set(PNG_HEAD.slice(0, Math.min(bytes, PNG_HEAD.length)));
  for (let i = PNG_HEAD.length; i < bytes; i += 1) data[i] = i % 251;
  return { mediaType: 'image/png', data, prompt };
}

export function turnPicturesSuite(harness: StoreHarness): void {
  let store: Store;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl());
  });
  afterAll(async () => {
    await store?.close();
  });

  it('stores a turn picture for the session owner only, and replaces it when pictured again', async () => {
    const { principal, session, genesis } = await seedSession(store);
    const stranger = await store.createPrincipal({ name: 'stranger' });
    const first = pictureOf(1_000);
    expect(await store.putTurnPicture(principal.id, session.id, genesis.id, first)).toBe(true);
    const read = await store.getTurnPicture(principal.id, session.id, genesis.id);
    expect(read?.mediaType).toBe('image/png');
    expect(read?.prompt).toBe('a mill pond at dusk');
    expect(Buffer.from(read!.data).equals(Buffer.from(first.data))).toBe(true);
    expect(await store.getTurnPicture(stranger.id, session.id, genesis.id)).toBeUndefined();
    expect(await store.putTurnPicture(stranger.id, session.id, genesis.id, pictureOf(10))).toBe(false);
    expect(await store.putTurnPicture(principal.id, session.id, 'no-such-turn', pictureOf(10))).toBe(false);

    const second = { ...pictureOf(20, 'again'), mediaType: 'image/webp' };
    expect(await store.putTurnPicture(principal.id, session.id, genesis.id, second)).toBe(true);
    const replaced = await store.getTurnPicture(principal.id, session.id, genesis.id);
    expect(replaced?.mediaType).toBe('image/webp');
    expect(replaced?.data.byteLength).toBe(20);
    expect(replaced?.prompt).toBe('again');
  });

  it('counts pictures in the owner’s storage, and removes them with the session', async () => {
    const { principal, session, genesis } = await seedSession(store);
    const before = await store.cartridgeUsage(principal.id);
    expect(before.pictureBytes).toBe(0);
    await store.putTurnPicture(principal.id, session.id, genesis.id, pictureOf(777));
    const after = await store.cartridgeUsage(principal.id);
    expect(after.pictureBytes).toBe(777);
    expect(after.bytes).toBe(before.bytes + 777);
    expect(await store.deleteSession(session.id, principal.id)).toBe(true);
    expect(await store.getTurnPicture(principal.id, session.id, genesis.id)).toBeUndefined();
    expect((await store.cartridgeUsage(principal.id)).pictureBytes).toBe(0);
  });

  it('counts a picture in the quota owner named instead (the library owner of local mode)', async () => {
    const { principal, session, genesis } = await seedSession(store);
    const operatorBefore = (await store.cartridgeUsage('')).pictureBytes;
    expect(await store.putTurnPicture(principal.id, session.id, genesis.id, pictureOf(321), '')).toBe(true);
    expect((await store.cartridgeUsage('')).pictureBytes).toBe(operatorBefore + 321);
    expect((await store.cartridgeUsage(principal.id)).pictureBytes).toBe(0);
    expect((await store.getTurnPicture(principal.id, session.id, genesis.id))?.data.byteLength).toBe(321);
  });

  it('takes a picture of MAX_TURN_PICTURE_BYTES and refuses one byte more', async () => {
    const { principal, session, genesis } = await seedSession(store);
    const atLimit = pictureOf(MAX_TURN_PICTURE_BYTES);
    expect(await store.putTurnPicture(principal.id, session.id, genesis.id, atLimit)).toBe(true);
    expect((await store.getTurnPicture(principal.id, session.id, genesis.id))?.data.byteLength).toBe(
      MAX_TURN_PICTURE_BYTES,
    );
    const past = store.putTurnPicture(
      principal.id,
      session.id,
      genesis.id,
      pictureOf(MAX_TURN_PICTURE_BYTES + 1),
    );
    await expect(past).rejects.toThrow(StoreInputError);
    await expect(past).rejects.toThrow(/putTurnPicture\.data.*MAX_TURN_PICTURE_BYTES/);
    // The refused picture lost nothing already saved.
    expect((await store.getTurnPicture(principal.id, session.id, genesis.id))?.data.byteLength).toBe(
      MAX_TURN_PICTURE_BYTES,
    );
  });

  it('keeps a prompt of MAX_TURN_PICTURE_PROMPT_CHARS and refuses one character more; only image types', async () => {
    const { principal, session, genesis } = await seedSession(store);
    const atLimit = pictureOf(8, 'p'.repeat(MAX_TURN_PICTURE_PROMPT_CHARS));
    expect(await store.putTurnPicture(principal.id, session.id, genesis.id, atLimit)).toBe(true);
    await expect(
      store.putTurnPicture(
        principal.id,
        session.id,
        genesis.id,
        pictureOf(8, 'p'.repeat(MAX_TURN_PICTURE_PROMPT_CHARS + 1)),
      ),
    ).rejects.toThrow(/putTurnPicture\.prompt.*MAX_TURN_PICTURE_PROMPT_CHARS/);
    await expect(
      store.putTurnPicture(principal.id, session.id, genesis.id, { ...pictureOf(8), mediaType: 'text/html' }),
    ).rejects.toThrow(/putTurnPicture\.mediaType/);
  });

  describe('migration 0010', () => {
    it('adds the turn_pictures table to a database written by the earlier migrations, keeping its rows', async () => {
      const url = await harness.freshUrl();
      // The migrations before it (later ones, such as 0011, need theirs first).
      const pictures = MIGRATIONS.find((m) => m.name === 'turn_pictures')!;
      const earlier = MIGRATIONS.filter((m) => m.version < pictures.version);
      const old = await harness.open(url, { migrations: earlier });
      const seeded = await seedSession(old);
      await old.close();
      const current = await harness.open(url);
      try {
        expect(await current.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
        expect((await current.getTurn(seeded.session.id, seeded.genesis.id))?.id).toBe(seeded.genesis.id);
        expect(
          await current.putTurnPicture(
            seeded.principal.id,
            seeded.session.id,
            seeded.genesis.id,
            pictureOf(5),
          ),
        ).toBe(true);
      } finally {
        await current.close();
      }
    });
  });
}
