// Strict mode from the browser (Settings → Display, shown in author mode): with it on, a turn that breaks an
// invariant of the cartridge is refused and the play screen says which invariant and where; with it off the
// turn is kept and the Author tab lists the breach. Real server, real SSE, real Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz } from './helpers/archive.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the strict-mode browser tests');
const KEEPER = join(import.meta.dirname, '../../fixtures/cartridges/explore-keeper');

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;
let sessionId: string;

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 1000 }, actionTimeoutMs: 15_000 });
  ({ server, page } = client);
  const upload = await fetch(`${server.url}/v1/cartridges`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip' },
    body: new Uint8Array(
      tarGz({
        'keeper/yare.yaml': readFileSync(join(KEEPER, 'yare.yaml'), 'utf8'),
        'keeper/bot_lore.md': readFileSync(join(KEEPER, 'bot_lore.md'), 'utf8'),
      }),
    ),
  });
  expect(upload.status).toBe(201);
  const created = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartridge: 'Keeper', seed: 1 }),
  });
  expect(created.status).toBe(201);
  sessionId = ((await created.json()) as { session: { id: string } }).session.id;
}, 180_000);

afterAll(() => client?.close());

async function setStrict(on: boolean): Promise<void> {
  await page.goto(`${server.url}/#/settings`);
  const box = page.getByTestId('strict-mode');
  if (on) await box.check();
  else await box.uncheck();
}

async function send(text: string): Promise<void> {
  await page.goto(`${server.url}/#/play/${encodeURIComponent(sessionId)}`);
  const input = page.getByTestId('player-input');
  await expect.poll(() => input.isEnabled()).toBe(true);
  server.queueTurn({
    tools: [{ name: 'borrow', args: { n: 3 } }],
    narration: ['You borrow ', 'three coins.'],
  });
  await input.fill(text);
  await input.press('Enter');
}

async function turnCount(): Promise<number> {
  const answer = await fetch(`${server.url}/v1/sessions/${encodeURIComponent(sessionId)}`);
  return ((await answer.json()) as { session: { turnCount: number } }).session.turnCount;
}

describe.runIf(chromium)('strict mode in the browser', () => {
  it('refuses a turn that breaks an invariant, naming it and its place; nothing is kept', async () => {
    await setStrict(true);
    await send('I borrow three coins');
    const error = page.getByTestId('play-error');
    await expect
      .poll(() => error.textContent(), { timeout: 15_000 })
      .toMatch(/yare\.yaml:18:24: invariant 'debt_never_negative' does not hold.*strict mode/);
    expect(await turnCount()).toBe(1);
    await screenshot(page, 'strict-mode-refused');
  });

  it('with strict mode off keeps the turn and the Author tab lists the breach', async () => {
    await setStrict(false);
    await send('I borrow three coins again');
    await expect
      .poll(() => page.locator('[data-testid="narration"] .md').last().textContent(), { timeout: 15_000 })
      .toContain('three coins.');
    expect(await turnCount()).toBe(2);
    await page.getByRole('tab', { name: 'Author' }).click();
    await expect
      .poll(() => page.getByTestId('trace-invariants').textContent())
      .toMatch(/yare\.yaml:18:24.*debt_never_negative.*borrow/);
    await screenshot(page, 'strict-mode-kept');
  });
});
