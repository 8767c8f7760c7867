// `when` conditions travel losslessly: a World Info entry's `extensions.mnesos.when` through a World Info
// file and a card's character_book and back, a bot_lore.md section's `when:` line into the exported entry;
// and `mnesos lore --state --world` shows which condition admitted or excluded each section and entry.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runLore } from '../../../../src/apps/cli/run/lore.ts';
import { exportWorldInfo } from '../../../../src/tools/interop/sillytavern/export.ts';
import { applyBatch } from '../../../../src/core/ledger/index.ts';
import {
  parseCharacterBook,
  parseWorldInfoFile,
  toCharacterBook,
  toWorldInfoFile,
} from '../../../../src/core/lore/index.ts';
import { initialWorld } from '../../../../src/engine/turn/index.ts';
import { conditionsCartridge, conditionsFiles } from '../../../engine/turn/lore-conditions-fixture.ts';

const FILE = {
  entries: {
    '4': {
      uid: 4,
      key: ['bell'],
      content: 'Bells.',
      extensions: { mnesos: { when: "@ entity('mara').location == 'chapel'" } },
    },
    '5': { uid: 5, key: ['x'], content: 'No condition.' },
  },
};

describe('extensions.mnesos.when round trips', () => {
  it('through a World Info file and a character_book', () => {
    const read = parseWorldInfoFile(FILE, 'b');
    if (!read.ok) throw new Error('parse');
    expect(read.book.entries.map((e) => e.when)).toEqual([
      "@ entity('mara').location == 'chapel'",
      undefined,
    ]);
    const file = toWorldInfoFile(read.book) as { entries: Record<string, { extensions?: unknown }> };
    expect(file.entries['4']!.extensions).toEqual({
      mnesos: { when: "@ entity('mara').location == 'chapel'" },
    });
    expect(file.entries['5']!.extensions).toBeUndefined();
    const again = parseWorldInfoFile(file, 'b');
    expect(again.ok && again.book).toEqual(read.book);
    const card = parseCharacterBook(toCharacterBook(read.book), 'b');
    expect(card.ok && card.book.entries.map((e) => e.when)).toEqual(read.book.entries.map((e) => e.when));
  });

  it('from a bot_lore.md section into the exported entry, not its content', () => {
    const files = conditionsFiles();
    files.delete('world_info.json');
    const world = exportWorldInfo(files, 'Chapel') as {
      entries: Record<
        string,
        { key: string[]; content: string; extensions?: { mnesos?: { when?: string } } }
      >;
    };
    const bells = Object.values(world.entries).find((e) => e.key[0] === 'Chapel bells')!;
    expect(bells.extensions?.mnesos?.when).toBe('@ state.world.night');
    expect(bells.content).not.toContain('when:');
    const market = Object.values(world.entries).find((e) => e.key[0] === 'The market')!;
    expect(market.extensions).toBeUndefined();
  });
});

describe('mnesos lore with --state and --world', () => {
  let dir: string;
  let out = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-when-'));
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  function folder(): string {
    const f = join(dir, 'chapel');
    mkdirSync(f);
    for (const [name, text] of conditionsFiles()) writeFileSync(join(f, name), text);
    return f;
  }

  it('says which condition admitted or excluded each section and entry', async () => {
    const cartridge = folder();
    await runLore(cartridge, 'the chapel bells', { json: true });
    let shown = JSON.parse(out) as {
      lore: { id: string; status: string; why: string }[];
      worldInfo: { decisions: { uid: number; status: string; reason: string }[] };
    };
    expect(shown.lore).toContainEqual(
      expect.objectContaining({ id: 'L1', status: 'excluded', why: 'when false: @ state.world.night' }),
    );
    expect(shown.worldInfo.decisions).toContainEqual(
      expect.objectContaining({ uid: 0, status: 'skipped', reason: 'when false: @ state.world.night' }),
    );

    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ world: { night: true }, secret: { cult_awake: false } }));
    const moved = applyBatch(
      initialWorld(conditionsCartridge()),
      [{ type: 'set_current_location', entity: 'mara', location: 'chapel' }],
      { turn: 1 },
    );
    const worldFile = join(dir, 'world.json');
    writeFileSync(worldFile, JSON.stringify(moved));
    out = '';
    await runLore(cartridge, 'nothing in particular', { state, world: worldFile, json: true });
    shown = JSON.parse(out);
    expect(shown.lore).toContainEqual(
      expect.objectContaining({ id: 'L1', status: 'included', why: 'when held: @ state.world.night' }),
    );
    expect(shown.lore).toContainEqual(
      expect.objectContaining({ id: 'L5', status: 'included', why: expect.stringContaining('when held') }),
    );
    expect(shown.worldInfo.decisions).toContainEqual(
      expect.objectContaining({ uid: 0, status: 'activated', reason: 'when held: @ state.world.night' }),
    );
    out = '';
    await runLore(cartridge, 'nothing in particular', { state });
    expect(out).toMatch(/\+ line 1: Chapel bells: when held: @ state\.world\.night/);
    expect(out).toMatch(/- line 5: Mara at prayer: when false/);
  });
});
