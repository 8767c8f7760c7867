// Import → export → import gives the same cartridge: for a JSON card (V2 and V3), a PNG card (both chunks
// written, ccv3 read back) and a World Info file. Also the export of a cartridge that was never a card, and
// the `mnesos import / export / lore` commands on real folders.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { packCartridge } from '../../../../src/tools/authoring/pack.ts';
import { applyPersonaMacros, DEFAULT_PERSONA } from '../../../../src/core/cartridge/index.ts';
import { loadCartridge, readArchive } from '../../../../src/adapters/files/index.ts';
import { sameGreeting } from '../../../../src/apps/server/openai/greeting.ts';
import { runExport } from '../../../../src/apps/cli/run/export.ts';
import { runImport } from '../../../../src/apps/cli/run/import.ts';
import { runLore } from '../../../../src/apps/cli/run/lore.ts';
import {
  exportCard,
  exportPngCard,
  exportWorldInfo,
} from '../../../../src/tools/interop/sillytavern/export.ts';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import { readPngChunks, textChunks } from '../../../../src/tools/interop/sillytavern/png.ts';
import { CARD_COPY_FILE } from '../../../../src/tools/interop/sillytavern/to-cartridge.ts';
import { LANTERNMERE } from '../../../engine/turn/helpers.ts';
import { base64Json, png, textChunk } from './helpers.ts';

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Orin',
    description: '{{char}} is a ferryman who knows {{user}} by name.',
    personality: 'gruff, kind',
    scenario: 'The river crossing at dusk.',
    first_mes: 'Orin holds out a hand. "Coin, {{user}}."',
    mes_example: '<START>\n{{user}}: How deep?\n{{char}}: Deep enough.',
    creator_notes: 'Keep it short.',
    system_prompt: 'Be Orin.',
    post_history_instructions: '',
    alternate_greetings: ['The ferry is late today.'],
    tags: ['river'],
    creator: 'someone',
    character_version: '1.2',
    extensions: {
      depth_prompt: { prompt: 'Orin never smiles.', depth: 3, role: 'system' },
      custom: { keep: true },
    },
    character_book: {
      name: 'River',
      scan_depth: 4,
      token_budget: 800,
      recursive_scanning: true,
      extensions: {},
      entries: [
        {
          id: 0,
          keys: ['river', '/ferr(y|ies)/i'],
          secondary_keys: ['night'],
          selective: true,
          content: 'The river is wide and cold.',
          extensions: {
            selectiveLogic: 2,
            group: 'water',
            group_weight: 40,
            probability: 70,
            sticky: 2,
            cooldown: 1,
            delay: 3,
          },
          enabled: true,
          insertion_order: 20,
          position: 'after_char',
          use_regex: true,
          comment: 'river',
        },
        {
          id: 1,
          keys: ['{{char}}'],
          content: '@@activate\nOrin has a scar.',
          extensions: {
            position: 4,
            depth: 0,
            role: 1,
            prevent_recursion: true,
            exclude_recursion: true,
            delay_until_recursion: 2,
          },
          enabled: false,
          insertion_order: 5,
          use_regex: true,
        },
      ],
    },
  },
};

const texts = (files: Map<string, string | Uint8Array>) =>
  new Map([...files].filter((e): e is [string, string] => typeof e[1] === 'string'));

function withoutCopy(files: Map<string, string | Uint8Array>) {
  return Object.fromEntries(
    [...files].filter(([name]) => name !== CARD_COPY_FILE && !name.startsWith('avatar')),
  );
}

describe('round trip', () => {
  it('JSON card: import → export (V2 and V3) → import gives the same cartridge', () => {
    const first = importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'orin.json');
    for (const spec of ['v2', 'v3'] as const) {
      const exported = exportCard(texts(first.files), 'Orin', spec);
      expect(exported.spec).toBe(spec === 'v3' ? 'chara_card_v3' : 'chara_card_v2');
      expect((exported.data as Record<string, unknown>).extensions).toEqual(CARD.data.extensions);
      const again = importSillyTavern(Buffer.from(JSON.stringify(exported)), 'again.json');
      expect(withoutCopy(again.files)).toEqual(withoutCopy(first.files));
      expect(again.loss).toEqual(first.loss);
    }
  });

  it('PNG card: both chunks are written, ccv3 is read back, the image bytes stay', () => {
    const avatar = png();
    const first = importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'orin.json');
    const card = exportPngCard(texts(first.files), 'Orin', avatar);
    const keywords = textChunks(readPngChunks(card, 'out.png'), 'out.png').map((t) => t.keyword);
    expect(keywords).toEqual(['chara', 'ccv3']);
    const again = importSillyTavern(card, 'out.png');
    expect(again.chunk).toBe('ccv3');
    expect(withoutCopy(again.files)).toEqual(withoutCopy(first.files));
    // Re-exporting the imported PNG replaces the card chunks instead of adding more.
    const twice = exportPngCard(texts(again.files), 'Orin', again.files.get('avatar.png') as Uint8Array);
    expect(textChunks(readPngChunks(twice, 'x.png'), 'x.png').map((t) => t.keyword)).toEqual([
      'chara',
      'ccv3',
    ]);
  });

  it('World Info file: import → export → import gives the same world_info.json', () => {
    const first = importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'orin.json');
    const world = exportWorldInfo(texts(first.files), 'Orin');
    const again = importSillyTavern(Buffer.from(JSON.stringify(world)), 'river.json', {
      intoExistingCartridge: true,
    });
    expect(again.files.get('world_info.json')).toBe(first.files.get('world_info.json'));
  });

  it('exports a cartridge that was never a card: lore sections become entries keyed by heading', () => {
    const lore = '# The Mill\n\nThe mill grinds at night.\n\n## Miller\n\nThe miller is old.\n';
    const card = exportCard(
      new Map([
        ['bot_lore.md', lore],
        ['first-message.md', 'You arrive.'],
      ]),
      'Mill',
      'v2',
    );
    const data = card.data as {
      name: string;
      first_mes: string;
      character_book: { entries: { keys: string[]; content: string }[] };
    };
    expect(data.name).toBe('Mill');
    expect(data.first_mes).toBe('You arrive.');
    expect(data.character_book.entries.map((e) => e.keys)).toEqual([['The Mill'], ['Miller']]);
    const back = importSillyTavern(Buffer.from(JSON.stringify(card)), 'mill.json');
    expect(back.name).toBe('Mill');
  });
});

describe('the import, export and lore commands', () => {
  let dir: string;
  let out: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-st-cli-'));
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports into a new folder with a written loss report, refuses a non-empty one, exports back', async () => {
    const cardFile = join(dir, 'orin.json');
    writeFileSync(cardFile, JSON.stringify(CARD));
    const folder = join(dir, 'orin');
    await runImport(cardFile, folder, {});
    expect(out).toContain('Imported "Orin"');
    expect(out).not.toContain('- alternate_greetings ×');
    expect(JSON.parse(readFileSync(join(folder, 'alternate_greetings.json'), 'utf8'))).toHaveLength(1);
    expect(readFileSync(join(folder, 'import-report.md'), 'utf8')).toContain('system_prompt ×1');
    expect((await loadCartridge(folder)).ok).toBe(true);
    await expect(runImport(cardFile, folder, {})).rejects.toThrow(/already holds a cartridge/);

    const exported = join(dir, 'out.png');
    await runExport(folder, { card: exported, world: join(dir, 'world.json') });
    const back = importSillyTavern(readFileSync(exported), 'out.png');
    expect(back.name).toBe('Orin');
    expect(back.files.get('alternate_greetings.json')).toBe(
      readFileSync(join(folder, 'alternate_greetings.json'), 'utf8'),
    );
    const world = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8'));
    expect(Object.keys(world.entries)).toHaveLength(3);
  });

  it('merges a World Info file into the card’s own lorebook, keeps the card’s report, and --force replaces it', async () => {
    const folder = join(dir, 'copy');
    await runImport(writeCard(dir), folder, {});
    const cardReport = readFileSync(join(folder, 'import-report.md'), 'utf8');
    const before = JSON.parse(readFileSync(join(folder, 'world_info.json'), 'utf8'));
    const count = Object.keys(before.entries).length;
    const first = Object.values(before.entries)[0] as { key: string[]; content: string };
    const worldFile = join(dir, 'w.json');
    writeFileSync(
      worldFile,
      JSON.stringify({
        entries: {
          '0': { uid: 0, key: ['mill'], content: 'The mill.', position: 10 },
          '1': { uid: 1, key: first.key, content: first.content },
        },
      }),
    );
    await runImport(worldFile, folder, {});
    const merged = JSON.parse(readFileSync(join(folder, 'world_info.json'), 'utf8'));
    expect(Object.keys(merged.entries)).toHaveLength(count + 1);
    const mill = Object.values(merged.entries).find((e) => (e as { key: string[] }).key[0] === 'mill') as {
      uid: number;
      disable: boolean;
    };
    expect(mill.uid).toBe(
      Math.max(...Object.values(before.entries).map((e) => (e as { uid: number }).uid)) + 1,
    );
    expect(mill.disable).toBe(true); // position 10: SillyTavern never inserts it
    const report = readFileSync(join(folder, 'import-report.md'), 'utf8');
    expect(report.startsWith(cardReport)).toBe(true);
    expect(report).toContain('1 entries added, 1 already there');
    expect(report).toContain('position 10 ×1');
    expect((await loadCartridge(folder)).ok).toBe(true);

    await runImport(worldFile, folder, { force: true });
    const loaded = await loadCartridge(folder);
    expect(loaded.ok && loaded.cartridge.worldInfo?.entries.map((e) => e.keys[0])).toEqual([
      'mill',
      first.key[0],
    ]);
    expect(readFileSync(join(folder, 'import-report.md'), 'utf8').startsWith(cardReport)).toBe(true);
  });

  it('pack carries the card’s avatar and card JSON, so an export from the packed copy gives the card back', async () => {
    const folder = join(dir, 'orin');
    const pngFile = join(dir, 'orin.png');
    writeFileSync(pngFile, png([textChunk('chara', base64Json(CARD))]));
    await runImport(pngFile, folder, {});
    const packed = packCartridge(folder);
    expect(packed.ok).toBe(true);
    if (!packed.ok) return;
    expect(packed.files).toEqual(expect.arrayContaining(['avatar.png', CARD_COPY_FILE]));
    const files = readArchive(packed.bytes);
    expect(files.get('avatar.png')).toEqual(new Uint8Array(readFileSync(join(folder, 'avatar.png'))));
  });

  it('exports the demo as SillyTavern shows a card: no engine macros, paragraphs on one line, {{user}} kept', () => {
    const texts = new Map(
      ['first-message.md', 'bot_lore.md', 'prompt_directives.yaml', 'yare.yaml'].map(
        (name) => [name, readFileSync(join(LANTERNMERE, name), 'utf8')] as [string, string],
      ),
    );
    const card = exportCard(texts, 'Lanternmere', 'v2') as {
      data: { first_mes: string; character_book: { entries: { content: string }[] } };
    };
    const greeting = card.data.first_mes;
    expect(greeting).not.toMatch(/\{\{(poss|obj|sub|poss_obj)\}\}/);
    expect(greeting).toContain('{{user}}');
    expect(greeting).toContain('their iron hook');
    for (const paragraph of greeting.split('\n\n')) expect(paragraph).not.toContain('\n');
    // SillyTavern's greeting (its persona's name for {{user}}) and the game's agree: no mismatch note per turn.
    const game = applyPersonaMacros(texts.get('first-message.md')!);
    expect(sameGreeting(greeting.replaceAll('{{user}}', 'Wren'), game, DEFAULT_PERSONA.name)).toBe(true);
    for (const entry of card.data.character_book.entries)
      expect(entry.content).not.toMatch(/\{\{(poss|obj|sub|poss_obj)\}\}/);
  });

  it('an import error names the place and writes nothing', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"name": "x",\n "first_mes": }');
    await expect(runImport(bad, join(dir, 'never'), {})).rejects.toThrow(/bad\.json:2:15: invalid JSON/);
    expect(readdirSync(dir)).toEqual(['bad.json']);
  });

  it('lore shows which World Info entries activate and why, and the BM25 sections', async () => {
    const folder = join(dir, 'orin');
    await runImport(writeCard(dir), folder, {});
    await runLore(folder, 'We take the ferry across', {
      message: ['Earlier: the river at night'],
      seed: '1',
    });
    expect(out).toMatch(/#1: disabled/);
    expect(out).toMatch(/#2 Character's Note: constant/);
    // A saved state's timed effects: entry 0 on cooldown until message 9.
    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ _world_info: { messages: 3, effects: ['cooldown:0:3:9'] } }));
    out = '';
    await runLore(folder, 'the river ferry', { state, json: true });
    const shown = JSON.parse(out);
    expect(shown.worldInfo.chatLength).toBe(5);
    expect(shown.worldInfo.decisions.find((d: { uid: number }) => d.uid === 0).reason).toBe(
      'on cooldown until message 9',
    );
    out = '';
    await runLore(LANTERNMERE, 'the inn', {});
    expect(out).toContain('World Info: none');
    expect(out).toMatch(/bot_lore\.md \(BM25\)/);
  });
});

function writeCard(dir: string): string {
  const file = join(dir, 'card.json');
  writeFileSync(file, JSON.stringify(CARD));
  return file;
}
