// The command registry is lazy (src/apps/cli/commands/index.ts): registering every command loads only commander
// and the registrations, so `--help`, `validate`, `eval` and `run-event` never load the server, the store, the
// turn engine's index or a model SDK. Counted on the compiled CLI by a module-resolve hook (bench/startup.ts reports the figures).
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAVY_MODULE, loadedModules } from '../../../bench/startup.ts';
import { ROOT, SPAWN_TIMEOUT_MS, useCompiledCli, workspaces } from './helpers.ts';

useCompiledCli();
const workspace = workspaces();
const MAIN = [join(ROOT, 'dist', 'src', 'apps', 'cli', 'main.js')];

describe('lazy commands', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('--help, validate, eval and run-event load no server, store or model module', async () => {
    const { dir } = workspace();
    const runs = {
      help: ['--help'],
      validate: ['validate', 'lanternmere'],
      eval: ['eval', 'lanternmere', '@ 1 + 1'],
      runEvent: ['run-event', 'lanternmere', 'explore_fen'],
    };
    for (const [name, args] of Object.entries(runs)) {
      const modules = await loadedModules(MAIN, args, dir);
      expect(
        modules.some((url) => url.endsWith('/dist/src/apps/cli/program.js')),
        name,
      ).toBe(true);
      expect(
        modules
          .filter((url) => HEAVY_MODULE.test(url))
          .map((url) => url.replace(/^.*\/(node_modules|src)\//, '$1/')),
        name,
      ).toEqual([]);
      // commander and yaml (CommonJS, dozens of files) as the one-module bundles of bin/build.mjs.
      expect(
        modules.filter((url) => /node_modules\/(commander|yaml)\//.test(url)),
        name,
      ).toEqual([]);
      expect(
        modules.some((url) => url.endsWith('/dist/vendor/commander.js')),
        name,
      ).toBe(true);
      if (name !== 'help')
        expect(
          modules.some((url) => url.endsWith('/dist/vendor/yaml.js')),
          name,
        ).toBe(true);
    }
  });

  it('bin/mnesos runs the bundle of bin/build.mjs, a few modules instead of one per source file', async () => {
    const { dir } = workspace();
    const modules = await loadedModules([join(ROOT, 'bin', 'mnesos')], ['validate', 'lanternmere'], dir);
    expect(modules.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(modules.filter((url) => url.includes('/dist/src/'))).toEqual([]);
    expect(modules.length).toBeLessThan(30);
    // The staleness check alone (bin/stale.mjs), not the build with its child_process and tables.
    expect(modules.some((url) => url.endsWith('/bin/stale.mjs'))).toBe(true);
    expect(modules.filter((url) => url.endsWith('/bin/build.mjs'))).toEqual([]);
  });

  it("the bundle carries the local model's host process, which starts and answers from dist/cli/", async () => {
    // adapters/llm/local-gguf/host.ts spawns ./host-child.js beside the chunk it is bundled into.
    const script = join(ROOT, 'dist', 'cli', 'host-child.js');
    expect(existsSync(script)).toBe(true);
    const child = fork(script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    try {
      const replies: { type: string; error?: { kind: string; message: string } }[] = [];
      const answered = new Promise<void>((resolve, reject) => {
        child.on('exit', (code) =>
          reject(new Error(`the host exited (${code}) after ${JSON.stringify(replies)}`)),
        );
        child.on('message', (reply: (typeof replies)[number]) => {
          replies.push(reply);
          if (reply.type === 'ready') child.send({ type: 'render', id: 1, system: 's', messages: [] });
          if (reply.type === 'call-failed') resolve();
        });
      });
      await answered;
      expect(replies.map((reply) => reply.type)).toEqual(['ready', 'call-failed']);
      expect(replies[1]?.error).toMatchObject({ kind: 'bad-request', message: 'no model is loaded' });
    } finally {
      child.kill();
    }
  });

  it('serve loads the server only when it runs (the hook sees it)', async () => {
    const { dir } = workspace();
    // `serve --port x` fails its port check after loading its implementation: the server is loaded then.
    const modules = await loadedModules(MAIN, ['serve', '--port', 'not-a-port'], dir);
    expect(modules.some((url) => /\/dist\/src\/apps\/server\/start\.js$/.test(url))).toBe(true);
  });

  it('serve listens without the language server, the model SDKs, esbuild or the rules sandbox, and with kysely and zod as the bundles', async () => {
    const { dir } = workspace();
    const modules = await loadedModules(
      MAIN,
      ['serve', '--port', '0', '--db', join(dir, 'served.db')],
      dir,
      (stdout) => /listening on http/.test(stdout),
    );
    expect(modules.some((url) => /\/dist\/src\/apps\/server\/start\.js$/.test(url))).toBe(true);
    const loadedLater = modules.filter((url) =>
      /node_modules\/(vscode-languageserver[^/]*|ai|@ai-sdk\/[^/]+|esbuild|quickjs-emscripten[^/]*|kysely|zod)\//.test(
        url,
      ),
    );
    expect(loadedLater.map((url) => url.replace(/^.*\/node_modules\//, ''))).toEqual([]);
    for (const bundle of ['kysely', 'zod'])
      expect(
        modules.some((url) => url.endsWith(`/dist/vendor/${bundle}.js`)),
        bundle,
      ).toBe(true);
  });
});
