// The package as a user installs it: `npm pack`, then the tarball installed with --omit=dev into an empty
// folder, gives a working `mnesos` (--version, --help, validate, play, serve with the built web client) and
// a library plain Node can import. No development dependency (tsx, Vite, TypeScript, Preact) is installed.
//
// One liberty: the install runs with --ignore-scripts and takes better-sqlite3's compiled binding from this
// checkout (same version, same Node). Compiling it from source takes minutes on a small machine, and it is
// not this package's code; everything else is what a user gets. The install prefers npm's cache but may ask
// the registry for what the cache lacks: `npm ci` caches tarballs, not the package documents that resolving
// the tarball's version ranges needs, so a fresh machine has none of them.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../apps/cli/helpers.ts';

const run = promisify(execFile);
/** Packing compiles and builds the web client when stale; on a loaded 2-core machine that takes minutes. */
const SETUP_TIMEOUT_MS = 900_000;

let dir: string;
let app: string;
let tarball: string;
let bin: string;

function mnesos(
  args: string[],
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: app, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-pack-'));
  const packed = await run('npm', ['pack', '--pack-destination', dir, '--json'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(dir, info[0]!.filename);
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run(
    'npm',
    ['install', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball],
    { cwd: app, maxBuffer: 64 * 1024 * 1024 },
  );
  const binding = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(app, binding), { recursive: true });
  copyFileSync(join(ROOT, binding, 'better_sqlite3.node'), join(app, binding, 'better_sqlite3.node'));
  bin = join(app, 'node_modules', '.bin', 'mnesos');
}, SETUP_TIMEOUT_MS);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm pack, installed with --omit=dev into an empty folder', { timeout: 180_000 }, () => {
  it('holds compiled JavaScript, types and the built web client, and no TypeScript sources or tests', async () => {
    const listed = await run('tar', ['tzf', tarball], { maxBuffer: 64 * 1024 * 1024 });
    const files = listed.stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/src/index.js');
    expect(files).toContain('package/dist/src/index.d.ts');
    expect(files).toContain('package/dist/src/apps/cli/main.js');
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/dist/web/index.html');
    expect(files).toContain('package/cartridges/lanternmere/yare.yaml');
    expect(files).toContain('package/templates/eldoria/yare.yaml');
    // The authoring skill ships with its references (docs/agents.md).
    expect(files).toContain('package/skills/mnesos-cartridge/SKILL.md');
    expect(files).toContain('package/skills/mnesos-cartridge/references/yare.md');
    expect(files.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toEqual([]);
    expect(
      files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.includes('/cartridges/')),
    ).toEqual([]);
  });

  it('ships kysely and zod each bundled into one module, and its compiled code imports those', () => {
    const installed = join(app, 'node_modules', 'mnesos', 'dist');
    for (const [file, name] of [
      ['kysely', 'kysely'],
      ['zod', 'zod'],
      ['zod-mini', 'zod'],
    ])
      expect(readFileSync(join(installed, 'vendor', `${file}.js`), 'utf8')).toMatch(
        new RegExp(`^// .*\\b${name}@\\d+\\.\\d+`),
      );
    const store = readFileSync(join(installed, 'src', 'adapters', 'store', 'store.js'), 'utf8');
    expect(store).toContain("from '../../../vendor/kysely.js'");
    expect(store).not.toMatch(/from 'kysely'/);
    const schemas = readFileSync(join(installed, 'src', 'apps', 'server', 'schemas.js'), 'utf8');
    expect(schemas).toContain("from '../../../vendor/zod.js'");
    const responses = readFileSync(join(installed, 'src', 'apps', 'contract', 'responses.js'), 'utf8');
    expect(responses).toContain("from '../../../vendor/zod-mini.js'");
  });

  it('installs no development dependency', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    for (const dev of ['tsx', 'vite', 'typescript', 'preact', 'vitest', '@biomejs', 'playwright-core']) {
      expect(installed, dev).not.toContain(dev);
    }
    expect(installed).toContain('better-sqlite3');
  });

  it('runs: --version, --help, validate lanternmere, and play offline', async () => {
    expect((await mnesos(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await mnesos(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/validate .*\n[\s\S]*serve/);
    const valid = await mnesos(['validate', 'lanternmere']);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/^ok: Lanternmere \(\d+ events/m);
    const play = await mnesos(['play'], '/state\n');
    expect(play.code).toBe(0);
    expect(play.stdout).toContain('What do you do?');
    expect(play.stdout).toContain('"location"');
    expect(existsSync(join(app, '.mnesos', 'mnesos.db'))).toBe(true);
  });

  it('scaffolds a cartridge from the packaged templates, tests it, and loads rules written in TypeScript', async () => {
    const made = await mnesos(['new', 'mygame', '--template', 'combat']);
    expect(made.code, made.stderr).toBe(0);
    const tested = await mnesos(['test', 'mygame']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    // Ember Toll's rules are yare.ts: esbuild strips the types and QuickJS runs them, both at run time.
    const ember = await mnesos(['validate', 'ember-toll']);
    expect(ember.code, ember.stderr).toBe(0);
    expect(ember.stdout).toMatch(/^ok: /m);
  });

  it('serves the API and the built web client, with no Vite installed', async () => {
    const server: ChildProcess = spawn(
      process.execPath,
      [bin, 'serve', '--port', '0', '--db', join(app, 'served.db')],
      { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        server.stderr?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const html = await page.text();
      expect(html).toContain('<div id="app">');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${url}${script}`)).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('close', resolve));
    }
  });

  it('is a library plain Node imports: createEngine runs an event of the shipped cartridge', async () => {
    const script = [
      "import { createEngine } from 'mnesos';",
      "import { createRequire } from 'node:module';",
      "import { dirname, join } from 'node:path';",
      "const root = dirname(createRequire(import.meta.url).resolve('mnesos/package.json'));",
      "const engine = await createEngine({ cartridge: join(root, 'cartridges', 'lanternmere'), models: null });",
      "const result = engine.runEvent(engine.initialState(), 'rest_at_inn', {}, 1);",
      'console.log(JSON.stringify({ ok: result.ok, tools: engine.tools().length }));',
    ].join('\n');
    writeFileSync(join(app, 'use.mjs'), script);
    const out = await run(process.execPath, [join(app, 'use.mjs')], { cwd: app });
    const parsed = JSON.parse(out.stdout) as { ok: boolean; tools: number };
    expect(parsed.ok).toBe(true);
    expect(parsed.tools).toBeGreaterThan(5);
  });
});
