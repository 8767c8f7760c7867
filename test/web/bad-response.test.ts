// In the browser: an answer of the server that does not match its schema (server/responses.ts) is shown to
// the player as what it is — which request, which field — instead of a page built on a bad shape. A real
// server and the built client in headless Chromium; the one malformed answer is put in by the page's route.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebClient } from '../../src/web/build.ts';
import { launchChromium, screenshot } from './helpers/browser.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

let distDir: string;
let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'mnesos-web-dist-'));
  await buildWebClient(distDir);
  server = await startTestServer(distDir);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (distDir) rmSync(distDir, { recursive: true, force: true });
});

describe('a malformed answer in the browser', () => {
  it('shows the request and the wrong or missing fields where the list would be', async () => {
    await page.route('**/v1/sessions', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 200,
            contentType: 'application/json',
            // No title, and a head that is not an id.
            body: JSON.stringify({
              sessions: [
                {
                  id: 's1',
                  cartridgeVersionId: 'v1',
                  personaId: null,
                  headTurnId: 7,
                  turnCount: 1,
                  createdAt: 1,
                  updatedAt: 1,
                },
              ],
            }),
          })
        : route.continue(),
    );
    await page.goto(server.url);
    const alert = page.getByText("the server's answer to GET /v1/sessions is not what this client expects");
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain(
      'expects: sessions.0.title: missing (expected string); sessions.0.headTurnId: expected string',
    );
    await screenshot(page, 'bad-response');
    await page.unroute('**/v1/sessions');
  });
});
