// The five cartridges written for MnesOS 0.6 (read in place from ../shared/cartridges, never copied) load
// without errors, and none of their text trips the injection check.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Cartridge,
  checkInjection,
  type LoadResult,
  parseYamlSafely,
  toPlain,
} from '../../../src/core/cartridge/index.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import { sharedAvailable } from '../../helpers/shared.ts';
import { codesOf, SHARED_CARTRIDGES, SHARED_NAMES, where } from './helpers.ts';

const SHARED_PRESENT = sharedAvailable('the MnesOS 0.6 cartridges load cleanly', 'cartridges');

const results = new Map<string, LoadResult>();

function cartridge(name: string): Cartridge {
  const r = results.get(name);
  if (!r?.ok) throw new Error(`${name} did not load`);
  return r.cartridge;
}

/** Every string in a plain YAML value. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

describe.skipIf(!SHARED_PRESENT)('shared cartridges', () => {
  beforeAll(async () => {
    for (const name of SHARED_NAMES) results.set(name, await loadCartridge(join(SHARED_CARTRIDGES, name)));
  });

  it.each(SHARED_NAMES)('%s loads without errors', (name) => {
    const r = results.get(name)!;
    const errors = r.ok ? [] : r.errors;
    expect(errors.map((e) => `${where(e)} ${e.code} ${e.message}`)).toEqual([]);
    expect(Object.isFrozen(cartridge(name))).toBe(true);
    expect(cartridge(name).contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(SHARED_NAMES)('%s has all three directives and its lore', (name) => {
    const c = cartridge(name);
    expect(Object.keys(c.directives).sort()).toEqual(['director', 'narrator', 'npc']);
    expect(c.lore.length).toBeGreaterThan(100);
    expect(c.lore).toMatch(/^# /);
  });

  it('only generic-rpg warns, about npc_brain, which it reads as npc', () => {
    for (const name of SHARED_NAMES) {
      const warnings = results.get(name)!.warnings;
      if (name === 'mnesos/generic-rpg') {
        expect(codesOf(warnings)).toEqual(['CART_DIRECTIVE_RENAMED']);
        expect(where(warnings[0])).toBe(join(SHARED_CARTRIDGES, name, 'prompt_directives.yaml:24:1'));
      } else {
        expect(warnings).toEqual([]);
      }
    }
    expect(cartridge('mnesos/generic-rpg').directives.npc).toMatch(/^Goblins act in packs/);
  });

  it('lights-out-demo has a first message; the others have none', () => {
    expect(cartridge('mnesos/lights-out-demo').firstMessage).toMatch(/^The emergency lighting flickers/);
    expect(cartridge('mnesos/lights-out-demo').files.firstMessage).toBe(
      join(SHARED_CARTRIDGES, 'mnesos/lights-out-demo', 'first-message.md'),
    );
    for (const name of SHARED_NAMES.filter((n) => n !== 'mnesos/lights-out-demo')) {
      expect(cartridge(name).firstMessage).toBeUndefined();
    }
  });

  it('names each cartridge by its bot_name, or by its folder', () => {
    expect(SHARED_NAMES.map((n) => cartridge(n).name)).toEqual([
      'seed-eldoria',
      'generic-rpg',
      'dark-fantasy',
      'lights-out-demo',
      'e2e-smoke-rpg',
    ]);
  });

  it.each(SHARED_NAMES)('%s: no text trips the injection check (no false positives)', async (name) => {
    const c = cartridge(name);
    const texts = [c.lore, ...Object.values(c.directives)];
    if (c.firstMessage !== undefined) texts.push(c.firstMessage);
    // Every string of yare.yaml too, note templates included, as written.
    const yareText = await readFile(c.files.yare, 'utf8');
    const parsed = parseYamlSafely(yareText, c.files.yare, { maxBytes: 1 << 20 });
    if (!parsed.ok) throw new Error('yare.yaml did not parse');
    texts.push(...stringsIn(toPlain(parsed.doc)));
    const findings = texts
      .map((t) => ({ text: t.slice(0, 60), finding: checkInjection(t) }))
      .filter((x) => x.finding !== undefined);
    expect(findings).toEqual([]);
    expect(texts.length).toBeGreaterThan(10);
  });
});
