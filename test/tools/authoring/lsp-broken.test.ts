// The language server while the file does not compile, driven over stdio JSON-RPC as an editor drives
// it: a half-typed path (`var: state.player.`) completes from the last rules that compiled, a file opened
// already broken completes from what can still be read of it, hover, go-to-definition and rename keep
// working, and the diagnostics still follow the text.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../apps/cli/helpers.ts';
import { type Json, LspClient } from './lsp-client.ts';

const HALF_TYPED = '                var: state.player.';

function positionAfter(text: string, probe: string) {
  const at = text.indexOf(probe);
  if (at === -1) throw new Error(`not in the text: ${probe}`);
  const before = text.slice(0, at + probe.length);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

const labels = (items: Json) => (Array.isArray(items) ? items : items.items).map((i: Json) => i.label);

describe('mnesos lsp --stdio on a document that does not compile', () => {
  let dir: string;
  let client: LspClient;
  let good: string;

  const open = (path: string, text: string) =>
    client.notify('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(path).href, languageId: 'yaml', version: 1, text },
    });
  const diagnosticsFor = (uri: string, test: (d: Json[]) => boolean) =>
    client.waitFor(
      (n) =>
        n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && test(n.params.diagnostics),
    );
  const completion = async (path: string, position: { line: number; character: number }) =>
    labels(
      await client.request('textDocument/completion', {
        textDocument: { uri: pathToFileURL(path).href },
        position,
      }),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-lsp-broken-'));
    for (const name of ['typed', 'opened-broken'])
      cpSync(join(ROOT, 'cartridges', 'lanternmere'), join(dir, name), { recursive: true });
    good = readFileSync(join(dir, 'typed', 'yare.yaml'), 'utf8');
    client = new LspClient(dir);
    await client.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      capabilities: {},
    });
    client.notify('initialized', {});
  }, 120_000);
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes a half-typed path from the last rules that compiled, and the diagnostics follow', async () => {
    const path = join(dir, 'typed', 'yare.yaml');
    const uri = pathToFileURL(path).href;
    open(path, good);
    await diagnosticsFor(uri, (ds) => ds.every((d) => d.severity !== 1));
    const broken = good.replace('                var: state.player.location', HALF_TYPED);
    expect(broken).not.toBe(good);
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: broken }],
    });
    const errors = await diagnosticsFor(uri, (ds) => ds.some((d) => d.severity === 1));
    expect(errors.params.diagnostics.map((d: Json) => d.message).join('\n')).toContain("ends with a '.'");
    const fields = await completion(path, positionAfter(broken, HALF_TYPED));
    expect(fields).toEqual(expect.arrayContaining(['hp', 'max_hp', 'gold', 'location']));
    expect(fields).not.toContain('player');
    const roots = await completion(path, positionAfter(broken, HALF_TYPED.slice(0, -'player.'.length)));
    expect(roots).toEqual(expect.arrayContaining(['player', 'foe']));
  });

  it('completes, hovers and goes to a field in a file that was broken when it was opened', async () => {
    const path = join(dir, 'opened-broken', 'yare.yaml');
    const uri = pathToFileURL(path).href;
    // Broken twice over: a half-typed path, and a YAML indentation error further down.
    const broken = good
      .replace('                var: state.player.location', HALF_TYPED)
      .replace('  travel:\n', '  travel:\n     oops: 1\n');
    open(path, broken);
    await diagnosticsFor(uri, (ds) => ds.some((d) => d.severity === 1));
    const fields = await completion(path, positionAfter(broken, HALF_TYPED));
    expect(fields).toEqual(expect.arrayContaining(['hp', 'max_hp', 'gold', 'location']));
    const at = positionAfter(broken, 'if: "@ state.player.h');
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: at });
    expect(JSON.stringify(hover)).toContain('int');
    const target = await client.request('textDocument/definition', { textDocument: { uri }, position: at });
    expect(target?.uri).toBe(uri);
    const declared = broken.split('\n').findIndex((l) => /^\s+hp: \{/.test(l));
    expect(target.range.start.line).toBe(declared);
  });

  it('renames an event and a macro in a file that does not compile', async () => {
    const path = join(dir, 'opened-broken', 'yare.yaml');
    const uri = pathToFileURL(path).href;
    const broken = good
      .replace('                var: state.player.location', HALF_TYPED)
      .replace('  travel:\n', '  travel:\n     oops: 1\n');
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: 3 },
      contentChanges: [{ text: broken }],
    });
    await diagnosticsFor(uri, (ds) => ds.some((d) => d.severity === 1));
    const event = await client.request('textDocument/rename', {
      textDocument: { uri },
      position: positionAfter(broken, 'event: foe_t'),
      newName: 'creature_turn',
    });
    const edits = event.changes[uri];
    // The declaration and every call, found in the broken text.
    expect(edits).toHaveLength(1 + (broken.match(/event: foe_turn/g) ?? []).length);
    expect(edits.every((e: Json) => e.newText === 'creature_turn')).toBe(true);
    const lines = broken.split('\n');
    for (const e of edits)
      expect(lines[e.range.start.line]?.slice(e.range.start.character, e.range.end.character)).toBe(
        'foe_turn',
      );
    const macro = await client.request('textDocument/rename', {
      textDocument: { uri },
      position: positionAfter(broken, '  inn_pr'),
      newName: 'bed_price',
    });
    expect(macro.changes[uri]).toHaveLength((broken.match(/inn_price/g) ?? []).length);
  });
});
