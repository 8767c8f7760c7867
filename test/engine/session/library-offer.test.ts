// `CartridgeLibrary.offerFolder`, what `serve` runs for each cartridge folder at start: the first start
// validates and stores the folder; later starts find exactly these files in the operator's library and use
// that version without parsing; any change to the files is validated again.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/core/cartridge/index.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { OPERATOR_OWNER } from '../../../src/adapters/store/cartridge-entries.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { LANTERNMERE_DIR } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-offer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copyOfLanternmere(name: string): string {
  const target = join(dir, name);
  cpSync(LANTERNMERE_DIR, target, { recursive: true });
  return target;
}

describe('offerFolder', () => {
  it('stores the folder on the first start and finds the same version on the next', async () => {
    const store = await openStore(join(dir, 'a.db'));
    try {
      const first = await new CartridgeLibrary(store).offerFolder(LANTERNMERE_DIR);
      if (!first.ok) throw new Error(first.errors.map((e) => e.message).join('\n'));
      expect(await store.cartridgeAccess(OPERATOR_OWNER, first.version.id)).toBe('owner');

      const restarted = new CartridgeLibrary(store);
      const second = await restarted.offerFolder(LANTERNMERE_DIR);
      if (!second.ok) throw new Error('second offer failed');
      expect(second.version.id).toBe(first.version.id);
      // Nothing was parsed at the second start; the first game loads the stored files.
      const cartridge = await restarted.loadVersion(second.version);
      const direct = await loadCartridge(LANTERNMERE_DIR);
      if (!direct.ok) throw new Error('lanternmere does not load');
      expect(cartridge.contentHash).toBe(direct.cartridge.contentHash);
      expect(second.version.contentHash).toBe(direct.cartridge.contentHash);
    } finally {
      await store.close();
    }
  });

  it('validates changed files again: a broken edit is refused with its place, a good one is a new version', async () => {
    const store = await openStore(join(dir, 'b.db'));
    try {
      const folder = copyOfLanternmere('edited');
      const library = new CartridgeLibrary(store);
      const first = await library.offerFolder(folder);
      if (!first.ok) throw new Error('first offer failed');

      const yare = join(folder, 'yare.yaml');
      const original = readFileSync(yare, 'utf8');
      writeFileSync(yare, `${original}\nevents: [unclosed\n`);
      const broken = await library.offerFolder(folder);
      expect(broken.ok).toBe(false);
      if (broken.ok) return;
      expect(broken.errors[0]?.place?.file).toBe('yare.yaml');

      writeFileSync(yare, `${original}\n# a comment changes the content\n`);
      const edited = await library.offerFolder(folder);
      if (!edited.ok) throw new Error(edited.errors.map((e) => e.message).join('\n'));
      expect(edited.version.id).not.toBe(first.version.id);
    } finally {
      await store.close();
    }
  });

  it('the same files uploaded by a principal only are validated and added to the operator library', async () => {
    const store = await openStore(join(dir, 'c.db'));
    try {
      const library = new CartridgeLibrary(store);
      const principal = await store.createPrincipal({ name: 'author' });
      const folder = copyOfLanternmere('uploaded');
      const files = new Map<string, string>();
      for (const name of [
        'yare.yaml',
        'bot_lore.md',
        'prompt_directives.yaml',
        'first-message.md',
        'intents.yaml',
      ])
        files.set(name, readFileSync(join(folder, name), 'utf8'));
      const hash = contentHash(files);
      const upload = await library.registerUpload(files, 'lanternmere-copy', {
        ownerId: principal.id,
        quotaBytes: 10_000_000,
        check: async () => ({ ok: true, name: 'lanternmere-copy', contentHash: hash, warnings: [] }),
      });
      if (!upload.ok) throw new Error(`upload refused: ${upload.reason}`);
      expect(await store.cartridgeAccess(OPERATOR_OWNER, upload.version.id)).not.toBe('owner');

      const offered = await library.offerFolder(folder);
      if (!offered.ok) throw new Error(offered.errors.map((e) => e.message).join('\n'));
      expect(offered.version.id).toBe(upload.version.id);
      expect(await store.cartridgeAccess(OPERATOR_OWNER, offered.version.id)).toBe('owner');
    } finally {
      await store.close();
    }
  });
});
