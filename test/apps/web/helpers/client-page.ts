// The built web client served by a test server (scripted models, see server.ts) and one headless Chromium
// page on it: what most browser test files set up before their tests and tear down after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildWebClient } from '../../../../src/apps/web/build.ts';
import type { ServerMedia } from '../../../../src/apps/server/media.ts';
import { launchChromium } from './browser.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface ClientPage {
  /** Where the built client is (a test may serve it from a second server). */
  readonly distDir: string;
  readonly server: TestServer;
  readonly browser: Browser;
  readonly page: Page;
  /** Closes the browser and the server and removes the build. */
  close(): Promise<void>;
}

export interface ClientPageOptions {
  readonly viewport: { readonly width: number; readonly height: number };
  /** How long a page action waits (Playwright's default timeout). */
  readonly actionTimeoutMs: number;
  /** Voices and pictures for the server (docs/voices.md); off when absent. */
  readonly media?: ServerMedia;
}

export async function openClientPage(options: ClientPageOptions): Promise<ClientPage> {
  const distDir = mkdtempSync(join(tmpdir(), 'mnesos-web-dist-'));
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    rmSync(distDir, { recursive: true, force: true });
  };
  try {
    await buildWebClient(distDir);
    server = await startTestServer(distDir, options.media ? { media: options.media } : {});
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: options.viewport });
    page.setDefaultTimeout(options.actionTimeoutMs);
    return { distDir, server, browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
