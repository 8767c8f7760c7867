// Rules written as yare.js / yare.ts: evaluated only in the QuickJS sandbox, compiled like yare.yaml,
// every problem placed in the author's file; hostile modules end in a clear error within the limits; the
// Ember Toll cartridge (cartridges/ember-toll, rules in TypeScript) validates and plays; an upload with
// only yare.ts is accepted by the server.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH } from '../../../src/core/cartridge/index.ts';
import { loadCartridge, loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import {
  DEFAULT_SANDBOX_LIMITS,
  MAX_RULES_JSON_CHARS,
  RULES_SCRIPT_MEMORY_BYTES,
  RULES_SCRIPT_TIME_MS,
  rulesFromScript,
} from '../../../src/core/cartridge/js-rules/index.ts';
import { QUICKJS_SANDBOX, stopRulesSandbox } from '../../../src/adapters/sandbox/index.ts';
import { defineRules } from '../../../src/index.ts';
import { runEvent } from '../../../src/core/yare/index.ts';
import { lintCartridge } from '../../../src/tools/authoring/lint/index.ts';
import { zip } from '../../apps/server/archives.ts';
import { startTestServer } from '../../apps/server/helpers.ts';
import { codesOf, errorsOf, MINIMAL_LORE, where } from './helpers.ts';

const EMBER_TOLL = resolve(dirname(fileURLToPath(import.meta.url)), '../../../cartridges/ember-toll');

afterAll(() => stopRulesSandbox());

const RULES_JS = `// rules in JavaScript
const hp = { type: 'int', default: 10, min: 0, max: 10 };
export default {
  version: '1.0',
  state_schema: { player: { hp } },
  events: {
    hurt: {
      description: 'The player is hurt.',
      steps: [
        { action: 'mutate', var: 'state.player.hp', op: 'sub', value: 3 },
        { action: 'note', message: '[SYSTEM LOG: Ouch, {state.player.hp} HP left.]' },
      ],
    },
  },
};
`;

function loadScript(name: 'yare.js' | 'yare.ts', source: string, extra: Record<string, string> = {}) {
  return loadCartridgeFromFiles(
    new Map([[name, source], ['bot_lore.md', MINIMAL_LORE], ...Object.entries(extra)]),
    'mem',
  );
}

function firstError(name: 'yare.js' | 'yare.ts', source: string) {
  const result = loadScript(name, source);
  const error = errorsOf(result)[0];
  if (!error) throw new Error('expected an error');
  return error;
}

describe('yare.js and yare.ts load like yare.yaml', () => {
  it('a yare.js default export becomes the compiled rules, and its events run', () => {
    const result = loadScript('yare.js', RULES_JS);
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    expect(result.cartridge.files.yare).toBe('yare.js');
    const run = runEvent(
      result.cartridge.rules,
      result.cartridge.rules.initialState as never,
      'hurt',
      {},
      { seed: 1 },
    );
    expect(run.ok).toBe(true);
    if (run.ok) expect(run.notes.join('\n')).toContain('Ouch, 7 HP left.');
  });

  it('yare.ts with the defineRules import from "mnesos" and type annotations loads', () => {
    const source = `import { defineRules } from 'mnesos';\ntype Hp = { type: 'int'; default: number };\nconst hp: Hp = { type: 'int', default: 5 };\nexport default defineRules({ version: '1.0', state_schema: { hp }, events: {} });\n`;
    const result = loadScript('yare.ts', source);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.cartridge.rules.initialState).toEqual({ hp: 5 });
  });

  it('the module is part of the content hash (two different rules never share a version)', () => {
    const a = loadScript('yare.js', RULES_JS);
    const b = loadScript('yare.js', RULES_JS.replace('value: 3 }', 'value: 4 }'));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.cartridge.contentHash).not.toBe(b.cartridge.contentHash);
  });

  it('defineRules is the identity, exported by the package', () => {
    const rules = { version: '1.0', state_schema: {}, events: {} } as const;
    expect(defineRules(rules)).toBe(rules);
  });

  it('two rules files at once are refused, naming both', () => {
    const result = loadScript('yare.js', RULES_JS, { 'yare.yaml': 'version: "1.0"\n' });
    expect(codesOf(errorsOf(result))).toEqual(['CART_RULES_AMBIGUOUS']);
    expect(errorsOf(result)[0]?.message).toContain('yare.yaml and yare.js');
  });

  it('with no rules file at all, yare.yaml is the one reported missing', () => {
    const result = loadCartridgeFromFiles(new Map([['bot_lore.md', MINIMAL_LORE]]), 'mem');
    expect(codesOf(errorsOf(result))).toEqual(['CART_FILE_MISSING']);
  });
});

describe('problems are placed in the author file', () => {
  it('a JavaScript syntax error at its line:col', () => {
    const error = firstError('yare.js', 'export default {\n  version: "1",\n  oops: ,\n};\n');
    expect(error.code).toBe('CART_RULES_SCRIPT');
    expect(error.message).toContain('SyntaxError');
    expect(where(error)).toBe('yare.js:3:9');
  });

  it('a TypeScript syntax error at its line:col (esbuild)', () => {
    const error = firstError(
      'yare.ts',
      'const a: number = 1;\nexport default {\n  version: "1",\n  oops: ,\n};\n',
    );
    expect(error.code).toBe('CART_RULES_SCRIPT');
    expect(where(error)).toBe('yare.ts:4:9');
  });

  it('a runtime error in yare.js at its line:col', () => {
    const error = firstError('yare.js', '\n\nconst x = null;\nconst y = x.foo;\nexport default {};\n');
    expect(error.message).toContain("TypeError: cannot read property 'foo' of null");
    // QuickJS places a property read at its dot.
    expect(where(error)).toBe('yare.js:4:12');
  });

  it('a runtime error in yare.ts is mapped back through the source map', () => {
    const source =
      'interface A { b: number }\ntype C = string;\n\nconst x: A | null = null as A | null;\nconst y = (x as any).foo;\nexport default {};\n';
    const error = firstError('yare.ts', source);
    expect(error.message).toContain('TypeError');
    expect(where(error)).toBe('yare.ts:5:12');
  });

  it('a compiler finding points at the key that holds the bad value, and names the rules path', () => {
    const bad = RULES_JS.replace("op: 'sub'", "op: 'subtract'");
    const error = firstError('yare.js', bad);
    expect(error.code).toBe('YARE_BAD_STEP');
    expect(error.message).toContain('events.hurt.steps[0].op');
    const line = bad.split('\n').findIndex((l) => l.includes("op: 'subtract'")) + 1;
    const col = (bad.split('\n')[line - 1] ?? '').indexOf('op:') + 1;
    expect(where(error)).toBe(`yare.js:${line}:${col}`);
  });

  it('a default export that is not an object, or none at all, is a clear shape error', () => {
    expect(firstError('yare.js', 'export const rules = {};\n').message).toContain('no default export');
    expect(firstError('yare.js', 'export default [1, 2];\n').message).toContain('not an array');
    expect(firstError('yare.js', 'export default () => ({});\n').message).toContain('not function');
  });
});

describe('hostile modules end in a clear error within the limits', () => {
  it('an infinite loop is stopped at the time limit', () => {
    const started = Date.now();
    const error = firstError('yare.js', 'for (;;) {}\nexport default {};\n');
    expect(error.code).toBe('CART_RULES_SCRIPT_LIMIT');
    expect(error.message).toContain(`did not finish within ${RULES_SCRIPT_TIME_MS} ms`);
    expect(Date.now() - started).toBeLessThan(RULES_SCRIPT_TIME_MS + 5_000);
  });

  it('a huge allocation runs out of memory', () => {
    const error = firstError(
      'yare.js',
      'const a = [];\nfor (;;) a.push(new Array(100000).fill(1));\nexport default {};\n',
    );
    expect(error.code).toBe('CART_RULES_SCRIPT_LIMIT');
    expect(error.message).toContain(`ran out of memory: the limit is ${RULES_SCRIPT_MEMORY_BYTES} bytes`);
  });

  it('one allocation past the memory limit is refused, one well under it is fine', () => {
    const mib = 1024 * 1024;
    expect(
      loadScript('yare.js', `const b = new ArrayBuffer(${8 * mib});\nexport default { version: '1.0' };\n`)
        .ok,
    ).toBe(true);
    const error = firstError(
      'yare.js',
      `const b = new ArrayBuffer(${RULES_SCRIPT_MEMORY_BYTES + mib});\nexport default {};\n`,
    );
    expect(error.message).toContain('ran out of memory');
  });

  it('unbounded recursion overflows the sandbox stack, not the host; bounded recursion is fine', () => {
    const error = firstError(
      'yare.js',
      'function f(n) { return f(n + 1) + 1; }\nf(0);\nexport default {};\n',
    );
    expect(error.code).toBe('CART_RULES_SCRIPT_LIMIT');
    expect(error.message).toContain('overflowed its stack');
    expect(where(error)).toBe('yare.js:1:25');
    const bounded =
      'function f(n) { return n === 0 ? 0 : f(n - 1) + 1; }\nexport default { version: String(f(500)) };\n';
    expect(loadScript('yare.js', bounded).ok).toBe(true);
  });

  it('deeply nested data that would blow a native stack (JSON.parse, JSON.stringify) is stopped too', () => {
    const parse = firstError(
      'yare.js',
      'JSON.parse("[".repeat(200000) + "]".repeat(200000));\nexport default {};\n',
    );
    expect(parse.code).toBe('CART_RULES_SCRIPT_LIMIT');
    const deep = firstError(
      'yare.js',
      'let z = [];\nfor (let i = 0; i < 5000; i++) z = [z];\nexport default { z };\n',
    );
    expect(deep.code).toBe('CART_TOO_DEEP');
  });

  it('20,000 nested arrays (a long native JSON.stringify) end at a limit', () => {
    const error = firstError(
      'yare.js',
      'let z = [];\nfor (let i = 0; i < 20000; i++) z = [z];\nexport default { z };\n',
    );
    expect(error.code).toBe('CART_RULES_SCRIPT_LIMIT');
  });

  it('when the interrupt handler cannot stop a module, the caller ends the worker at its wait limit', () => {
    // The module may run for a minute, but the caller waits 300 ms: the backstop for long native calls.
    const limits = { ...DEFAULT_SANDBOX_LIMITS, timeMs: 60_000, waitMs: 300 };
    loadScript('yare.js', RULES_JS); // the worker is started, so only the wait is measured
    const started = Date.now();
    const result = rulesFromScript(
      'for (;;) {}\nexport default {};\n',
      'js',
      'yare.js',
      QUICKJS_SANDBOX,
      limits,
    );
    expect(Date.now() - started).toBeLessThan(300 + 2_000);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diagnostics[0]?.code).toBe('CART_RULES_SCRIPT_LIMIT');
      expect(result.diagnostics[0]?.message).toMatch(/did not finish within \d+ ms and was stopped/);
    }
    // The worker was replaced; the next module runs.
    expect(loadScript('yare.js', RULES_JS).ok).toBe(true);
  });

  it('prototype tricks: a looping getter on Object.prototype is stopped; a __proto__ key pollutes nothing', () => {
    const getter = firstError(
      'yare.js',
      'Object.defineProperty(Object.prototype, "toJSON", { get() { for (;;) {} } });\nexport default { version: "1" };\n',
    );
    expect(getter.code).toBe('CART_RULES_SCRIPT_LIMIT');
    const polluting = loadScript(
      'yare.js',
      'const rules = JSON.parse(\'{"version":"1.0","__proto__":{"polluted":true}}\');\nexport default rules;\n',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    // The key reaches the compiler as an unknown top-level key (a warning), never the host's prototypes.
    if (polluting.ok) expect(codesOf(polluting.warnings)).toContain('YARE_UNKNOWN_KEY');
  });

  it.each([
    ['process', 'export default { pid: process.pid };\n', "'process' is not defined"],
    ['require', 'const fs = require("fs");\nexport default {};\n', "'require' is not defined"],
    [
      'a static import',
      'import fs from "node:fs";\nexport default {};\n',
      "import of 'node:fs' is not allowed",
    ],
    [
      'a dynamic import',
      'const fs = await import("node:fs");\nexport default {};\n',
      'top-level await is not supported',
    ],
    [
      'the Function constructor',
      'const p = ({}).constructor.constructor("return process")();\nexport default {};\n',
      "'process' is not defined",
    ],
    [
      'globalThis.process',
      'export default { v: globalThis.process.version };\n',
      "cannot read property 'version' of undefined",
    ],
  ])('reaching for the host through %s fails inside the sandbox', (_what, source, message) => {
    const error = firstError('yare.js', source);
    expect(error.code).toBe('CART_RULES_SCRIPT');
    expect(error.message).toContain(message);
  });

  it('no clock and no randomness', () => {
    expect(firstError('yare.js', 'export default { t: Date.now() };\n').message).toContain(
      'Date.now is not available in rules',
    );
    expect(firstError('yare.js', 'export default { t: new Date() };\n').message).toContain(
      'Date is not available in rules',
    );
    expect(firstError('yare.js', 'export default { r: Math.random() };\n').message).toContain(
      'Math.random is not available in rules',
    );
  });

  it('the rules object as JSON: at the size limit it crosses, one character past it is refused', () => {
    // {"s":"…"} is 8 characters around the string.
    const at = `export default { s: "x".repeat(${MAX_RULES_JSON_CHARS - 8}) };\n`;
    const past = `export default { s: "x".repeat(${MAX_RULES_JSON_CHARS - 7}) };\n`;
    expect(rulesFromScript(at, 'js', 'yare.js', QUICKJS_SANDBOX).ok).toBe(true);
    const refused = rulesFromScript(past, 'js', 'yare.js', QUICKJS_SANDBOX);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.diagnostics[0]?.code).toBe('CART_RULES_SCRIPT_LIMIT');
      expect(refused.diagnostics[0]?.message).toContain(`${MAX_RULES_JSON_CHARS + 1} characters as JSON`);
    }
  });

  it('nesting: at MAX_YAML_DEPTH the object crosses, one level deeper is refused', () => {
    const nest = (depth: number) =>
      `export default ${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)};\n`;
    expect(rulesFromScript(nest(MAX_YAML_DEPTH), 'js', 'yare.js', QUICKJS_SANDBOX).ok).toBe(true);
    const deeper = rulesFromScript(nest(MAX_YAML_DEPTH + 1), 'js', 'yare.js', QUICKJS_SANDBOX);
    expect(deeper.ok).toBe(false);
    if (!deeper.ok) expect(deeper.diagnostics[0]?.code).toBe('CART_TOO_DEEP');
  });

  it('a smaller time limit is honoured, and the sandbox keeps working after every failure', () => {
    const limits = { ...DEFAULT_SANDBOX_LIMITS, timeMs: 50 };
    const started = Date.now();
    const slow = rulesFromScript(
      'for (;;) {}\nexport default {};\n',
      'js',
      'yare.js',
      QUICKJS_SANDBOX,
      limits,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(slow.ok).toBe(false);
    if (!slow.ok) expect(slow.diagnostics[0]?.message).toContain('within 50 ms');
    expect(loadScript('yare.js', RULES_JS).ok).toBe(true);
  });
});

describe('lint findings on yare.js rules', () => {
  it('are placed in yare.js, where the author wrote the step, not in YAML that exists nowhere', () => {
    // The note no longer mentions the written field: lint warns LINT_NOTE_SILENT at the mutate step.
    const silent = RULES_JS.replace('Ouch, {state.player.hp} HP left.', 'Ouch.').replace(
      'max: 10 }',
      "max: 10, visibility: 'public' }",
    );
    const result = loadCartridgeFromFiles(
      new Map([
        ['yare.js', silent],
        ['bot_lore.md', MINIMAL_LORE],
      ]),
      'silent',
    );
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    const findings = lintCartridge(result.cartridge).filter((d) => d.code === 'LINT_NOTE_SILENT');
    expect(findings).toHaveLength(1);
    const mutateLine = silent.split('\n').findIndex((l) => l.includes("action: 'mutate'")) + 1;
    expect(findings[0]!.place).toMatchObject({ file: 'yare.js', line: mutateLine });
    expect(findings[0]!.message).toContain('in the rules object at');
  });
});

describe('Ember Toll, a cartridge whose rules are yare.ts', () => {
  it('validates with no errors or warnings and its events run', async () => {
    const result = await loadCartridge(EMBER_TOLL);
    if (!result.ok) throw new Error(result.errors.map((e) => `${where(e)} ${e.message}`).join('\n'));
    expect(result.warnings).toEqual([]);
    // docs/studio.md shows `validate` saying 0 warnings: lint included.
    expect(lintCartridge(result.cartridge)).toEqual([]);
    expect(result.cartridge.name).toBe('Ember Toll');
    expect(result.cartridge.files.yare).toBe(join(EMBER_TOLL, 'yare.ts'));
    const rules = result.cartridge.rules;
    const paid = runEvent(rules, rules.initialState as never, 'pay_silver', {}, { seed: 1 });
    expect(paid.ok).toBe(true);
    if (paid.ok) {
      expect((paid.state as { player: { coins: number; crossed: boolean } }).player).toMatchObject({
        coins: 1,
        crossed: true,
      });
    }
    const broke = runEvent(rules, rules.initialState as never, 'pay_ember', {}, { seed: 1 });
    if (broke.ok) expect(broke.notes.join(' ')).toContain('cannot pay 9 coins');
  });

  it('uploads to the server with only yare.ts (no yare.yaml), and a session plays it', async () => {
    const server = await startTestServer();
    try {
      const entries = ['yare.ts', 'bot_lore.md', 'first-message.md', 'prompt_directives.yaml'].map(
        (name) => ({
          name: `ember-toll/${name}`,
          data: readFileSync(join(EMBER_TOLL, name), 'utf8'),
        }),
      );
      const upload = await server.json('/v1/cartridges', {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: Buffer.from(zip(entries)),
      });
      expect(upload.status).toBe(201);
      expect(upload.body.version.name).toBe('Ember Toll');
      const version = await server.json(`/v1/cartridge-versions/${upload.body.version.id}`);
      expect(Object.keys(version.body.version.files).sort()).toEqual([
        'bot_lore.md',
        'first-message.md',
        'prompt_directives.yaml',
        'yare.ts',
      ]);
      const session = await server.json('/v1/sessions', {
        method: 'POST',
        json: { cartridge: upload.body.version.id },
      });
      expect(session.status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});
