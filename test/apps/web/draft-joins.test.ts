// The builder's memory of which cartridge each draft saves into (src/apps/web/builder/draft-joins.ts), on a
// localStorage of its own: remembered, the oldest forgotten past MAX_REMEMBERED_JOINS, bad storage ignored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

describe('draft joins', () => {
  it(`remembers ${'MAX_REMEMBERED_JOINS'} drafts and forgets the oldest one past it`, async () => {
    const { joinedCartridge, MAX_REMEMBERED_JOINS, rememberJoin } = await import(
      '../../../src/apps/web/builder/draft-joins.ts'
    );
    for (let i = 0; i < MAX_REMEMBERED_JOINS; i++) rememberJoin(`d${i}`, `C${i}`);
    expect(joinedCartridge('d0')).toBe('C0');
    expect(joinedCartridge(`d${MAX_REMEMBERED_JOINS - 1}`)).toBe(`C${MAX_REMEMBERED_JOINS - 1}`);
    rememberJoin('one-more', 'Last');
    expect(joinedCartridge('d0')).toBeUndefined();
    expect(joinedCartridge('d1')).toBe('C1');
    expect(joinedCartridge('one-more')).toBe('Last');
  });

  it('reads broken storage as nothing remembered', async () => {
    const { joinedCartridge } = await import('../../../src/apps/web/builder/draft-joins.ts');
    storage.setItem('mnesos.builder.draftJoins', '{not json');
    expect(joinedCartridge('x')).toBeUndefined();
    storage.setItem('mnesos.builder.draftJoins', JSON.stringify({ x: 5, y: 'Y' }));
    expect(joinedCartridge('x')).toBeUndefined();
    expect(joinedCartridge('y')).toBe('Y');
  });
});
