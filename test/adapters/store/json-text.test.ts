// A record its caller serialised already (JsonText: a turn's commit checks its size on the text) is stored as
// that text, read back as the value, and held to the same limit, at it and one byte past it.
import { afterAll, describe, expect, it } from 'vitest';
import { JsonText } from '../../../src/adapters/store/index.ts';
import { MAX_RECORD_BYTES } from '../../../src/adapters/store/limits.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { content, seedSession } from './fixtures.ts';
import { sqliteHarness } from './harness.ts';

const harness = sqliteHarness();
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  await harness.cleanup();
});

/** The JSON text of a string whose text is exactly `bytes` bytes. */
const textOf = (bytes: number) => JSON.stringify('r'.repeat(bytes - 2));

describe('a record given as JsonText', () => {
  it('is stored as its text and read back as its value; MAX_RECORD_BYTES is the limit, one byte more is refused', async () => {
    const store = await harness.open(await harness.freshUrl());
    stores.push(store);
    const { session, genesis } = await seedSession(store);
    const record = { kind: 'test', notes: ['a', 'b'], n: 3 };
    const appended = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      ...content({ hp: 9 }, { record: new JsonText(JSON.stringify(record)) }),
    });
    expect(appended.ok).toBe(true);
    if (!appended.ok) return;
    expect((await store.getTurn(session.id, appended.turn.id))?.record).toEqual(record);

    const atLimit = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      ...content({}, { record: new JsonText(textOf(MAX_RECORD_BYTES)) }),
    });
    expect(atLimit.ok).toBe(true);
    await expect(
      store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        ...content({}, { record: new JsonText(textOf(MAX_RECORD_BYTES + 1)) }),
      }),
    ).rejects.toThrow(
      `is ${MAX_RECORD_BYTES + 1} bytes, over the limit MAX_RECORD_BYTES = ${MAX_RECORD_BYTES}`,
    );
  });
});
