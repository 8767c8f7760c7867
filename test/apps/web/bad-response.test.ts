import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the malformed-answer browser tests');

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 900 }, actionTimeoutMs: 10_000 });
  ({ server, page } = client);
}, 120_000);

afterAll(() => client?.close());

describe.runIf(chromium)('a malformed answer in the browser', () => {
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
