// The authoring loop as an author runs it: `mnesos new`, `mnesos test` (passing, a broken expectation at
// its file:line:col, a transcript that differs, shown as a readable diff), `mnesos pack`, and the upload
// reader on what `tar czf x.tar.gz -C folder .` and `zip -r x.zip folder` produce.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { readArchive } from '../../../src/adapters/files/archive/index.ts';
import { runCli, SPAWN_TIMEOUT_MS, workspaces } from '../../apps/cli/helpers.ts';

const workspace = workspaces();

describe('mnesos new, test and pack', () => {
  it(
    'new writes a cartridge that validates and passes its own tests, and prints the next commands',
    async () => {
      const ws = workspace();
      const created = await runCli(['new', 'mygame'], { cwd: ws.dir });
      expect(created.code).toBe(0);
      expect(created.stdout).toContain('mnesos test mygame');
      expect(created.stdout).toContain('mnesos pack mygame');
      const yare = readFileSync(join(ws.dir, 'mygame', 'yare.yaml'), 'utf8');
      expect(yare.split('\n')[0]).toBe('# yaml-language-server: $schema=.schemas/yare.schema.json');
      const schema = JSON.parse(readFileSync(join(ws.dir, 'mygame', '.schemas', 'yare.schema.json'), 'utf8'));
      expect(Object.keys(schema.properties)).toContain('state_schema');

      const tested = await runCli(['test', 'mygame'], { cwd: ws.dir });
      expect(tested.stderr).toBe('');
      expect(tested.code).toBe(0);
      expect(tested.stdout).toMatch(/\n8 passed, 0 failed\n/);

      const again = await runCli(['new', 'mygame'], { cwd: ws.dir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already exists and is not empty');
      const unknown = await runCli(['new', 'other', '--template', 'nope'], { cwd: ws.dir });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Templates: combat, eldoria, minimal');
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'a broken expectation fails at its file:line:col; a changed rule shows a transcript diff',
    async () => {
      const ws = workspace();
      expect((await runCli(['new', 'g', '--template', 'minimal'], { cwd: ws.dir })).code).toBe(0);
      const testFile = join(ws.dir, 'g', 'tests', 'basics.yaml');
      const text = readFileSync(testFile, 'utf8');
      const broken = text.replace(
        '- { path: state.keeper.oil, equals: 2 }',
        '- { path: state.keeper.oil, equals: 9 }',
      );
      expect(broken).not.toBe(text);
      writeFileSync(testFile, broken);
      const line = broken.split('\n').findIndex((l) => l.includes('equals: 9')) + 1;
      const col = broken.split('\n')[line - 1]!.indexOf('{') + 1;
      // The rules change too: the lamp now burns two measures, which the blessed transcript does not show.
      const yareFile = join(ws.dir, 'g', 'yare.yaml');
      writeFileSync(
        yareFile,
        readFileSync(yareFile, 'utf8').replace(
          'op: sub\n                value: 1',
          'op: sub\n                value: 2',
        ),
      );

      const result = await runCli(['test', 'g'], { cwd: ws.dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `g/tests/basics.yaml:${line}:${col}: state.keeper.oil: expected 9, got 1`,
      );
      expect(result.stdout).toContain('FAIL g/tests/basics.yaml › a scripted turn lights the lamp');
      expect(result.stdout).toContain('the transcript differs from the blessed one');
      expect(result.stdout).toContain('  - state.keeper.oil: 3 → 2');
      expect(result.stdout).toContain('  + state.keeper.oil: 3 → 1');

      const blessed = await runCli(['test', 'g', '--bless', '--filter', 'scripted'], { cwd: ws.dir });
      expect(blessed.code).toBe(0);
      expect(blessed.stdout).toContain('(transcript blessed)');
      const none = await runCli(['test', 'g', '--filter', 'no such scenario'], { cwd: ws.dir });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain("No scenario or property matches --filter 'no such scenario'");
      const json = await runCli(['test', 'g', '--json', '--filter', 'scripted'], { cwd: ws.dir });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).cases).toEqual([
        expect.objectContaining({ name: 'a scripted turn lights the lamp', ok: true, transcript: 'match' }),
      ]);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'pack writes a zip the upload reader accepts; tar -C folder . and zip -r folder are accepted too',
    async () => {
      const ws = workspace();
      expect((await runCli(['new', 'pit', '--template', 'combat'], { cwd: ws.dir })).code).toBe(0);
      const packed = await runCli(['pack', 'pit', '-o', 'pit.zip'], { cwd: ws.dir });
      expect(packed.code).toBe(0);
      const fromPack = readArchive(readFileSync(join(ws.dir, 'pit.zip')));
      expect([...fromPack.keys()]).toContain('tests/combat.yaml');
      expect([...fromPack.keys()].some((k) => k.startsWith('.schemas'))).toBe(false);
      expect(loadCartridgeFromFiles(fromPack, 'pit').ok).toBe(true);

      execFileSync('tar', ['czf', 'c.tar.gz', '-C', 'pit', '.'], { cwd: ws.dir });
      const fromTar = readArchive(readFileSync(join(ws.dir, 'c.tar.gz')));
      expect(fromTar.has('yare.yaml')).toBe(true);
      expect(loadCartridgeFromFiles(fromTar, 'pit').ok).toBe(true);

      execFileSync('zip', ['-qr', 'z.zip', 'pit'], { cwd: ws.dir });
      const fromZip = readArchive(readFileSync(join(ws.dir, 'z.zip')));
      expect(fromZip.has('yare.yaml')).toBe(true);
      expect(fromZip.has('tests/combat.yaml')).toBe(true);
      expect(loadCartridgeFromFiles(fromZip, 'pit').ok).toBe(true);
      expect(existsSync(join(ws.dir, 'pit', '.schemas'))).toBe(true);
    },
    SPAWN_TIMEOUT_MS,
  );
});
