// Creating a principal at first start: a unique violation means another replica created it at the same
// moment (read it back); any other failure of the insert is an error, even if a re-read would find a row.
import { describe, expect, it } from 'vitest';
import { installApiKeys, localPrincipal } from '../../../src/apps/server/auth.ts';
import type { Principal, Store } from '../../../src/adapters/store/repository.ts';

/** A store whose first insert fails with `failure` after (or instead of) creating the row. */
function racingStore(failure: unknown, insertFirst: boolean) {
  const rows = new Map<string, Principal>();
  const store = {
    async getPrincipal(id: string) {
      return rows.get(id);
    },
    async createPrincipal(input: { id: string; name: string }) {
      const row = { id: input.id, name: input.name, createdAt: 0 } as unknown as Principal;
      if (insertFirst) rows.set(input.id, row);
      throw failure;
    },
    async addApiKey() {
      return { ok: true } as const;
    },
  };
  return store as unknown as Store;
}

const unique = Object.assign(new Error('UNIQUE constraint failed: principals.id'), {
  code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
});
const other = Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });

describe('a principal created by a concurrent first start', () => {
  it('a unique violation is the race: the row the other replica wrote is used', async () => {
    expect((await localPrincipal(racingStore(unique, true))).id).toBe('local-user');
    const [keyed] = await installApiKeys(racingStore(unique, true), [{ label: 'ops', key: 'k'.repeat(32) }]);
    expect(keyed?.name).toBe('ops');
  });

  it('any other insert failure is thrown, even when a row can be read back', async () => {
    await expect(localPrincipal(racingStore(other, true))).rejects.toBe(other);
    await expect(
      installApiKeys(racingStore(other, true), [{ label: 'ops', key: 'k'.repeat(32) }]),
    ).rejects.toBe(other);
  });

  it('a unique violation with nothing to read back is thrown', async () => {
    await expect(localPrincipal(racingStore(unique, false))).rejects.toBe(unique);
  });
});
