// The web client's model settings with a local GGUF file, in headless Chromium against a real server
// (SQLite, the operator's models a fake OpenAI-compatible server, `--allow-user-base-url`): choosing the
// `file` provider shows the model-file field, a wrong path is refused with what is wrong, a missing
// node-llama-cpp with its install command, and a real file is saved.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { installCommand } from '../../../src/adapters/llm/local-gguf/index.ts';
import { type RunningServer, startServer } from '../../../src/apps/server/index.ts';
import { buildWebClient } from '../../../src/apps/web/build.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { writeTinyGguf } from '../../helpers/tiny-gguf.ts';
import { llamaCppAvailable } from '../../helpers/tiny-gguf-runtime.ts';
import { chromiumAvailable, launchChromium, screenshot } from '../../apps/web/helpers/browser.ts';

const chromium = chromiumAvailable('the local-model settings in the browser');
const llama = llamaCppAvailable('saving a local GGUF file in the browser (node-llama-cpp)');
const tiny = writeTinyGguf({ seed: 41 });

let dir: string;
let operator: FakeOpenAI;
let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  dir = mkdtempSync(join(tmpdir(), 'mnesos-local-web-'));
  const distDir = await buildWebClient(join(dir, 'web'));
  operator = await startFakeOpenAI(() => ({ kind: 'text', text: 'The operator’s model speaks.' }));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'settings.sqlite'),
    modelConfig: resolveModelConfig({ MNESOS_LLM_BASE_URL: operator.url, MNESOS_MODEL: 'operator-model' }),
    allowUserBaseUrl: true,
    staticDir: distDir,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${server.url}/#/settings`);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await operator?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const textOf = async (testId: string): Promise<string> =>
  (await page.getByTestId(testId).first().textContent()) ?? '';

describe.runIf(chromium)('a local model file in the web client’s settings', () => {
  it('shows the model-file field for provider file only, and says what is wrong with a path', async () => {
    expect(await page.getByTestId('settings-model-file').count()).toBe(0);
    await page.getByTestId('settings-provider').selectOption('file');
    await expect.poll(() => page.getByTestId('settings-model-file').count()).toBe(1);
    // No base URL or model names for a local file.
    expect(await page.getByTestId('settings-base-url').count()).toBe(0);
    expect(await page.getByTestId('settings-model-narrator').count()).toBe(0);
    const missing = join(dir, 'missing.gguf');
    await page.getByTestId('settings-model-file').fill(missing);
    await page.getByTestId('settings-save').click();
    await expect.poll(() => textOf('settings-status')).toContain(`modelFile: ${missing}: not found`);
  });

  it('says the one install command when node-llama-cpp is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mnesos-no-llama-'));
    const saved = process.env.MNESOS_LLAMA_CPP_DIR;
    process.env.MNESOS_LLAMA_CPP_DIR = empty;
    try {
      await page.getByTestId('settings-model-file').fill(tiny);
      await page.getByTestId('settings-save').click();
      await expect
        .poll(() => textOf('settings-status'))
        .toContain(installCommand({ MNESOS_LLAMA_CPP_DIR: empty }));
    } finally {
      if (saved === undefined) delete process.env.MNESOS_LLAMA_CPP_DIR;
      else process.env.MNESOS_LLAMA_CPP_DIR = saved;
    }
  });

  it.runIf(llama)('saves a real GGUF file, and the server shows it back', async () => {
    await page.getByTestId('settings-model-file').fill(tiny);
    await page.getByTestId('settings-save').click();
    await expect.poll(() => textOf('settings-status')).toBe('Saved.');
    await page.reload();
    await expect.poll(() => page.getByTestId('settings-model-file').inputValue()).toBe(tiny);
    expect(await page.getByTestId('settings-provider').inputValue()).toBe('file');
    await screenshot(page, 'settings-local-model-file');
  });
});
