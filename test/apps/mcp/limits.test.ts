// Every bound of `mnesos mcp` (src/apps/mcp/limits.ts, docs/agents.md Limits) at the limit and just past it.
// Arguments through the SDK's client (its validation error names the argument); the rest on the module that
// enforces it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CartridgeFolders,
  capText,
  LineBound,
  MAX_ALLOWED_FOLDERS,
  MAX_CARTRIDGE_ARG_CHARS,
  MAX_EVENT_INPUTS,
  MAX_ID_CHARS,
  MAX_LEDGER_ROWS,
  MAX_LISTED_CARTRIDGES,
  MAX_LISTED_ENTRIES,
  MAX_LORE_TEXT_CHARS,
  MAX_PROMPT_ARG_CHARS,
  MAX_STATE_JSON_CHARS,
  MAX_TOOL_TEXT_CHARS,
} from '../../../src/apps/mcp/index.ts';
import { formatWorld } from '../../../src/core/ledger/index.ts';
import { given } from '../../core/ledger/helpers.ts';
import { type InProcessMcp, startInProcessMcp } from './helpers.ts';

let mcp: InProcessMcp;
beforeAll(async () => {
  mcp = await startInProcessMcp();
});
afterAll(() => mcp.close());

const INVALID = /Input validation error: Invalid arguments for tool/;

/** A state object whose JSON is exactly `chars` characters long. */
function stateOfJsonChars(chars: number): Record<string, unknown> {
  const skeleton = JSON.stringify({ pad: '' }).length;
  return { pad: 'x'.repeat(chars - skeleton) };
}

describe('tool arguments', () => {
  it(`cartridge: ${MAX_CARTRIDGE_ARG_CHARS} characters, not one more`, async () => {
    const at = await mcp.call('validate_cartridge', { cartridge: 'a'.repeat(MAX_CARTRIDGE_ARG_CHARS) });
    expect(at.text).toMatch(/^no cartridge folder at 'a+'/);
    const past = await mcp.call('validate_cartridge', { cartridge: 'a'.repeat(MAX_CARTRIDGE_ARG_CHARS + 1) });
    expect(past.isError).toBe(true);
    expect(past.text).toMatch(INVALID);
    expect(past.text).toContain('cartridge');
  });

  it(`session and turn ids: ${MAX_ID_CHARS} characters, not one more`, async () => {
    const at = await mcp.call('session_state', { session: 's'.repeat(MAX_ID_CHARS) });
    expect(at.text).toMatch(/^not-found: /);
    const past = await mcp.call('session_state', { session: 's'.repeat(MAX_ID_CHARS + 1) });
    expect(past.text).toMatch(INVALID);
  });

  it(`inputs: ${MAX_EVENT_INPUTS} keys, not one more`, async () => {
    const inputs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const at = await mcp.call('run_event', {
      cartridge: 'minimal',
      event: 'light_lamp',
      inputs: inputs(MAX_EVENT_INPUTS),
    });
    expect(at.text).not.toMatch(INVALID);
    const past = await mcp.call('run_event', {
      cartridge: 'minimal',
      event: 'light_lamp',
      inputs: inputs(MAX_EVENT_INPUTS + 1),
    });
    expect(past.text).toMatch(INVALID);
    expect(past.text).toContain(`more than ${MAX_EVENT_INPUTS} keys (MAX_EVENT_INPUTS)`);
  });

  it(`state: ${MAX_STATE_JSON_CHARS} characters of JSON, not one more`, async () => {
    const at = await mcp.call('eval_expression', {
      cartridge: 'minimal',
      expression: '@ state.keeper.oil',
      state: stateOfJsonChars(MAX_STATE_JSON_CHARS),
    });
    expect(at.text).not.toMatch(INVALID);
    const past = await mcp.call('eval_expression', {
      cartridge: 'minimal',
      expression: '@ state.keeper.oil',
      state: stateOfJsonChars(MAX_STATE_JSON_CHARS + 1),
    });
    expect(past.text).toMatch(INVALID);
    expect(past.text).toContain(`over ${MAX_STATE_JSON_CHARS} characters of JSON (MAX_STATE_JSON_CHARS)`);
  });

  it(`lore text: ${MAX_LORE_TEXT_CHARS} characters, not one more`, async () => {
    const at = await mcp.call('lore_lookup', { cartridge: 'minimal', text: 'o'.repeat(MAX_LORE_TEXT_CHARS) });
    expect(at.isError).toBe(false);
    const past = await mcp.call('lore_lookup', {
      cartridge: 'minimal',
      text: 'o'.repeat(MAX_LORE_TEXT_CHARS + 1),
    });
    expect(past.text).toMatch(INVALID);
  });

  it('the engine’s own: a 4 000-character input and a 1 000-character expression, not one more', async () => {
    const past = await mcp.call('play_turn', { session: 'x', input: 'a'.repeat(4_001) });
    expect(past.text).toMatch(INVALID);
    const at = await mcp.call('play_turn', { session: 'x', input: 'a'.repeat(4_000) });
    expect(at.text).toMatch(/^not-found: /);
    const expression = `'${'a'.repeat(998)}'`;
    expect(expression.length).toBe(1_000);
    expect(await mcp.call('eval_expression', { cartridge: 'minimal', expression })).toEqual({
      text: `"${'a'.repeat(998)}"`,
      isError: false,
    });
    expect(
      (await mcp.call('eval_expression', { cartridge: 'minimal', expression: `${expression} ` })).text,
    ).toMatch(INVALID);
  });

  it(`prompt arguments: ${MAX_PROMPT_ARG_CHARS} characters, not one more`, async () => {
    const at = await mcp.client.getPrompt({
      name: 'write_cartridge',
      arguments: { idea: 'i'.repeat(MAX_PROMPT_ARG_CHARS) },
    });
    expect(at.messages).toHaveLength(1);
    await expect(
      mcp.client.getPrompt({
        name: 'write_cartridge',
        arguments: { idea: 'i'.repeat(MAX_PROMPT_ARG_CHARS + 1) },
      }),
    ).rejects.toThrow(/Invalid arguments for prompt write_cartridge/);
  });
});

describe('answers', () => {
  it(`a tool's text: ${MAX_TOOL_TEXT_CHARS} characters whole, one more cut with a line saying so`, () => {
    const at = 'a'.repeat(MAX_TOOL_TEXT_CHARS);
    expect(capText(at)).toBe(at);
    const cut = capText(`${at}b`);
    expect(cut.startsWith(at)).toBe(true);
    expect(cut).not.toContain('b');
    expect(cut).toContain('1 more characters left out');
    expect(cut).toContain('MAX_TOOL_TEXT_CHARS');
  });

  it(`ledger rows: ${MAX_LEDGER_ROWS} per table, then one line counting the rest`, () => {
    const create = (i: number) => [
      { event_type: 'create_entity', entity: `e${String(i).padStart(3, '0')}`, name: `E${i}` },
    ];
    const full = given(Array.from({ length: MAX_LEDGER_ROWS }, (_, i) => create(i)));
    const at = formatWorld(full, { tables: ['entities'], maxRows: MAX_LEDGER_ROWS });
    expect(at).toHaveLength(MAX_LEDGER_ROWS + 1);
    expect(at.at(-1)).toMatch(/^ {2}- E199 \[e199\]/);
    const over = given(Array.from({ length: MAX_LEDGER_ROWS + 1 }, (_, i) => create(i)));
    const past = formatWorld(over, { tables: ['entities'], maxRows: MAX_LEDGER_ROWS });
    expect(past[0]).toBe(`Entities (${MAX_LEDGER_ROWS + 1}):`);
    expect(past.at(-1)).toBe('  … 1 more');
    expect(past).toHaveLength(MAX_LEDGER_ROWS + 2);
  });
});

describe('folders', () => {
  function tempRoot(): string {
    return mkdtempSync(join(tmpdir(), 'mnesos-mcp-limits-'));
  }

  it(`at most ${MAX_ALLOWED_FOLDERS} folders`, () => {
    const root = tempRoot();
    try {
      const folders = Array.from({ length: MAX_ALLOWED_FOLDERS + 1 }, () => root);
      expect(new CartridgeFolders(folders.slice(0, MAX_ALLOWED_FOLDERS)).roots).toHaveLength(
        MAX_ALLOWED_FOLDERS,
      );
      expect(() => new CartridgeFolders(folders)).toThrow(
        `over the limit of ${MAX_ALLOWED_FOLDERS} (MAX_ALLOWED_FOLDERS)`,
      );
      expect(() => new CartridgeFolders([join(root, 'missing')])).toThrow('no such folder');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it(`list_cartridges names ${MAX_LISTED_CARTRIDGES} cartridges, then says more were left out`, () => {
    const root = tempRoot();
    const noLibrary = join(root, 'no-library');
    try {
      for (let i = 0; i < MAX_LISTED_CARTRIDGES; i++) {
        mkdirSync(join(root, `c${String(i).padStart(3, '0')}`));
        writeFileSync(join(root, `c${String(i).padStart(3, '0')}`, 'yare.yaml'), '');
      }
      const at = new CartridgeFolders([root], noLibrary).list();
      expect(at.cartridges).toHaveLength(MAX_LISTED_CARTRIDGES);
      expect(at.truncated).toBe(false);
      mkdirSync(join(root, 'c999'));
      writeFileSync(join(root, 'c999', 'yare.yaml'), '');
      const past = new CartridgeFolders([root], noLibrary).list();
      expect(past.cartridges).toHaveLength(MAX_LISTED_CARTRIDGES);
      expect(past.truncated).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it(`list_cartridges reads ${MAX_LISTED_ENTRIES} folder entries, not one more`, () => {
    const root = tempRoot();
    const noLibrary = join(root, 'a-no-library');
    try {
      // The cartridge is the last entry in name order, after MAX_LISTED_ENTRIES - 1 empty folders.
      for (let i = 0; i < MAX_LISTED_ENTRIES - 1; i++)
        mkdirSync(join(root, `e${String(i).padStart(4, '0')}`));
      mkdirSync(join(root, 'zz-game'));
      writeFileSync(join(root, 'zz-game', 'yare.yaml'), '');
      expect(new CartridgeFolders([root], noLibrary).list().cartridges.map((c) => c.cartridge)).toEqual([
        'zz-game',
      ]);
      mkdirSync(join(root, 'e9999'));
      const past = new CartridgeFolders([root], noLibrary).list();
      expect(past.cartridges).toEqual([]);
      expect(past.truncated).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('stdio lines', () => {
  async function through(maxBytes: number, input: string): Promise<{ lines: string[]; overlong: number }> {
    let overlong = 0;
    const bound = new LineBound(maxBytes, () => overlong++);
    const out: Buffer[] = [];
    bound.on('data', (chunk: Buffer) => out.push(chunk));
    const ended = new Promise((resolve) => bound.on('end', resolve));
    // Fed in small pieces: a line's bytes arrive over many chunks.
    const bytes = Buffer.from(input);
    for (let i = 0; i < bytes.length; i += 3) bound.write(bytes.subarray(i, i + 3));
    bound.end();
    await ended;
    return { lines: Buffer.concat(out).toString().split('\n').filter(Boolean), overlong };
  }

  it('passes a line of the limit whole, drops one byte more unread, and goes on with the next line', async () => {
    const at = await through(10, '0123456789\nabc\n');
    expect(at).toEqual({ lines: ['0123456789', 'abc'], overlong: 0 });
    const past = await through(10, '0123456789X\nabc\n');
    expect(past).toEqual({ lines: ['abc'], overlong: 1 });
    // Multi-byte characters count as bytes.
    expect(await through(10, `${'é'.repeat(5)}\n${'é'.repeat(5)}x\n`)).toEqual({
      lines: ['ééééé'],
      overlong: 1,
    });
  });
});
