// Boundaries you can see (issue 15 item 5): every import of src/ that crosses modules goes through the
// module's index.ts (or a listed second entry, EXTRA_ENTRIES), follows the layering (MAY_IMPORT), and the
// browser bundle loads only browser entries. The imports are read from the sources (imports.ts); the rules
// are pure functions over them (rules.ts), tested here on small made-up sources first so each can fail.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/adapters/project-root.ts';
import { type ImportSite, MAX_DECLARATION_LINES, scanImports, scanTree } from './imports.ts';
import { BROWSER_ENTRIES, EXTRA_ENTRIES, MAY_IMPORT, moduleOf } from './policy.ts';
import {
  browserViolations,
  indexViolations,
  layeringCycle,
  layerViolations,
  ownIndexViolations,
  runtimeClosure,
} from './rules.ts';

const ROOT = '/project';

function scan(file: string, text: string): ImportSite[] {
  return scanImports(ROOT, file, text);
}

describe('reading imports', () => {
  it('reads named, multi-line, type-only, re-export, bare and dynamic imports with their place', () => {
    const sites = scan(
      'src/engine/turn/a.ts',
      [
        "import { x } from '../yare/values.ts';",
        'import {',
        '  type A,',
        '  type B,',
        "} from '../ledger/index.ts';",
        "import type { C } from './c.ts';",
        "export { d, type E } from '../lore/select.ts';",
        "export * from './limits.ts';",
        "import 'preact';",
        'export const notAnImport = { from: 1 };',
        "const m = await import('../llm/providers.ts');",
        "let t: typeof import('../store/index.ts');",
        "import { readFileSync } from 'node:fs';",
      ].join('\n'),
    );
    expect(sites.map((s) => [s.line, s.col, s.specifier, s.kind, s.typeOnly, s.target])).toEqual([
      [1, 1, '../yare/values.ts', 'static', false, 'src/core/yare/values.ts'],
      [2, 1, '../ledger/index.ts', 'static', true, 'src/core/ledger/index.ts'],
      [6, 1, './c.ts', 'static', true, 'src/engine/turn/c.ts'],
      [7, 1, '../lore/select.ts', 'static', false, 'src/core/lore/select.ts'],
      [8, 1, './limits.ts', 'static', false, 'src/engine/turn/limits.ts'],
      [9, 1, 'preact', 'static', false, undefined],
      [11, 17, '../llm/providers.ts', 'dynamic', false, 'src/adapters/llm/providers.ts'],
      [12, 15, '../store/index.ts', 'dynamic', true, 'src/adapters/store/index.ts'],
      [13, 1, 'node:fs', 'static', false, undefined],
    ]);
  });

  it(`reads a declaration of ${MAX_DECLARATION_LINES} lines after its first, and stops just past`, () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `  n${i},`);
    const atLimit = ['import {', ...names(MAX_DECLARATION_LINES - 1), "} from '../yare/index.ts';"];
    expect(scan('src/engine/turn/a.ts', atLimit.join('\n')).map((s) => s.specifier)).toEqual([
      '../yare/index.ts',
    ]);
    const past = ['import {', ...names(MAX_DECLARATION_LINES), "} from '../yare/index.ts';"];
    expect(scan('src/engine/turn/a.ts', past.join('\n'))).toEqual([]);
  });
});

describe('the rules, on made-up imports', () => {
  it('index-only: an import into another module file is named with its place; index and entries pass', () => {
    const sites = scan(
      'src/engine/turn/a.ts',
      [
        "import { x } from '../yare/values.ts';",
        "import { y } from '../yare/index.ts';",
        "import { z } from './b.ts';",
        "import { MAX_NAME_LENGTH } from '../store/limits.ts';",
        "import type { E } from '../errno.ts';",
        "import { w } from '../../bench/common.ts';",
      ].join('\n'),
    );
    expect(indexViolations(sites)).toEqual([
      "src/engine/turn/a.ts:1:1: '../yare/values.ts' reaches into module yare (src/core/yare/values.ts); import it from src/core/yare/index.ts",
      "src/engine/turn/a.ts:6:1: '../../bench/common.ts' leaves src/",
    ]);
  });

  it('own index: a file importing its module’s index at run time fails; a type-only import is erased', () => {
    const sites = [
      ...scan(
        'src/engine/turn/a.ts',
        "import { runTurn } from './index.ts';\nimport type { T } from './index.ts';",
      ),
      ...scan('src/engine/turn/index.ts', "export { a } from './a.ts';"),
      ...scan('src/core/errno.ts', "import { x } from './index.ts';"),
    ];
    expect(ownIndexViolations(sites)).toEqual([
      "src/engine/turn/a.ts:1:1: imports its own module's index (src/engine/turn/index.ts); import the file itself",
    ]);
  });

  it('layering: the core importing the shell, a leaf importing a module and an unplaced module fail', () => {
    const sites = [
      ...scan(
        'src/core/yare/a.ts',
        "import { x } from '../turn/index.ts';\nimport { t } from '../time/index.ts';",
      ),
      ...scan('src/core/errno.ts', "import { y } from './yare/index.ts';"),
      ...scan('src/newmod/a.ts', "import { y } from '../yare/index.ts';"),
      ...scan('src/engine/session/a.ts', "import { e } from '../errno.ts';"),
    ];
    expect(layerViolations(sites)).toEqual([
      'src/core/yare/a.ts:1:1: yare may not import turn (layering: yare imports time)',
      'src/core/errno.ts:1:1: errno.ts is a shared leaf and may import no module (it imports yare)',
      'src/newmod/a.ts:1:1: module newmod has no place in the layering (MAY_IMPORT)',
    ]);
  });

  it('layering cycles are found, and the real table has none', () => {
    expect(layeringCycle({ a: ['b'], b: ['c'], c: ['a'] })).toEqual(['a', 'b', 'c', 'a']);
    expect(layeringCycle({ a: ['b'], b: [] })).toEqual([]);
    expect(layeringCycle(MAY_IMPORT)).toEqual([]);
  });

  it('browser: web leaves through browser entries only; node: and other packages fail anywhere in it', () => {
    const sites = [
      ...scan(
        'src/apps/web/main.tsx',
        [
          "import { h } from 'preact';",
          "import { a } from './lib/a.ts';",
          "import { MAX_INPUT_CHARS } from '../turn/browser.ts';",
          "import type { Turn } from '../store/index.ts';",
        ].join('\n'),
      ),
      ...scan('src/apps/web/lib/a.ts', "import { runTurn } from '../../turn/index.ts';"),
      ...scan('src/engine/turn/browser.ts', "export { describeOutcome } from './outcome-text.ts';"),
      ...scan('src/engine/turn/outcome-text.ts', "import { readFileSync } from 'node:fs';"),
      ...scan(
        'src/engine/turn/index.ts',
        "import { z } from 'zod';\nimport { x } from 'ai';\nimport { v } from '@codemirror/view';\nimport { s } from '@ai-sdk/openai';\nimport { m } from 'zod/mini';",
      ),
    ];
    expect(browserViolations(sites)).toEqual([
      'src/apps/web/lib/a.ts:1:1: the browser bundle imports src/engine/turn/index.ts, which is not a browser entry',
      "src/engine/turn/index.ts:1:1: the browser bundle may not load 'zod'",
      "src/engine/turn/index.ts:2:1: the browser bundle may not load 'ai'",
      "src/engine/turn/index.ts:4:1: the browser bundle may not load '@ai-sdk/openai'",
      "src/engine/turn/outcome-text.ts:1:1: the browser bundle may not load 'node:fs'",
    ]);
    expect(runtimeClosure(sites, 'src/apps/web/main.tsx').has('src/adapters/store/index.ts')).toBe(false);
  });
});

describe('src/', () => {
  const sites = scanTree(PROJECT_ROOT, ['src']);

  it('reads every import of src/ (a sanity floor: the scan sees the tree)', () => {
    expect(sites.length).toBeGreaterThan(1_000);
    expect(sites.filter((s) => s.kind === 'dynamic').length).toBeGreaterThan(10);
  });

  it('every import across modules goes through index.ts or a listed entry', () => {
    expect(indexViolations(sites)).toEqual([]);
  });

  it('no file imports its own module’s index at run time (an ES module cycle)', () => {
    expect(ownIndexViolations(sites)).toEqual([]);
  });

  it('every import follows the layering', () => {
    expect(layerViolations(sites)).toEqual([]);
  });

  it('every folder under src/ has a place in the layering and an index.ts', () => {
    const folders = readdirSync(join(PROJECT_ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const folder of folders) {
      expect(MAY_IMPORT[folder], folder).toBeDefined();
      if (folder !== 'cli' && folder !== 'web') {
        expect(existsSync(join(PROJECT_ROOT, 'src', folder, 'index.ts')), folder).toBe(true);
      }
    }
  });

  it('every listed entry exists, gives its reason and is imported from another module (none is stale)', () => {
    for (const [entry, reason] of EXTRA_ENTRIES) {
      expect(existsSync(join(PROJECT_ROOT, entry)), entry).toBe(true);
      expect(reason.length, entry).toBeGreaterThan(20);
      const users = sites.filter((s) => s.target === entry && moduleOf(s.file) !== moduleOf(entry));
      expect(users.length, `${entry} is listed but no other module imports it`).toBeGreaterThan(0);
    }
    for (const entry of BROWSER_ENTRIES) expect(existsSync(join(PROJECT_ROOT, entry)), entry).toBe(true);
  });

  it('the browser bundle loads only browser entries, and nothing it loads imports node: or a server package', () => {
    expect(browserViolations(sites)).toEqual([]);
  });
});
