// The Library page's management panel in headless Chromium: metadata edited, the
// visibility switch, a cover, a single-file update refused with file:line:col and then accepted with a tag
// and notes, version tags edited, deleting with confirmation (and Escape to cancel), a cartridge refused
// while a game plays it until that version is archived; and, on a server with keys, another player’s public
// cartridge shown read-only and played. Much of it is driven from the keyboard.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { DEFAULT_SESSION_PAGE } from '../../../src/apps/server/limits.ts';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { API_KEY_STORAGE } from '../../../src/apps/web/app/context.ts';
import { tarGz } from './helpers/archive.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the library browser tests');

const LANTERNMERE = join(import.meta.dirname, '..', '..', '..', 'cartridges', 'lanternmere');
const read = (file: string): string => readFileSync(join(LANTERNMERE, file), 'utf8');
const YARE = read('yare.yaml').replace('bot_name: "Lanternmere"', 'bot_name: "Marshlight"');
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let client: ClientPage | undefined;
let distDir: string;
let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 1000 }, actionTimeoutMs: 15_000 });
  ({ distDir, server, browser, page } = client);
}, 180_000);

afterAll(() => client?.close());

const textOf = async (testId: string): Promise<string> =>
  (await page.getByTestId(testId).first().textContent()) ?? '';
const item = (name: string) => page.locator(`[data-testid="cartridge-item"][data-cartridge="${name}"]`);
const versions = () => page.getByTestId('version-item');
const activeTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');

describe.runIf(chromium)('library management in the browser', () => {
  it('uploads a cartridge and opens its panel from the keyboard', async () => {
    await page.goto(server.url);
    await page.getByTestId('upload-file').setInputFiles({
      name: 'marshlight.tar.gz',
      mimeType: 'application/gzip',
      buffer: tarGz({ 'marshlight/yare.yaml': YARE, 'marshlight/bot_lore.md': read('bot_lore.md') }),
    });
    await page.getByTestId('upload-submit').click();
    await expect.poll(() => textOf('upload-result'), { timeout: 30_000 }).toContain('Added');
    await expect.poll(() => item('Marshlight').count()).toBe(1);
    await item('Marshlight').getByTestId('cartridge-manage').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('manage-h');
    // The local user's uploads join the server's own library, which is offered to every key: public.
    expect(await textOf('manage-visibility')).toContain('Public');
    expect(await versions().count()).toBe(1);
  });

  it('edits the metadata, switches its visibility both ways from the keyboard, and sets a cover', async () => {
    await page.getByTestId('meta-title').fill('Marshlight Tales');
    await page.getByTestId('meta-genre').fill('fen mystery');
    await page.getByTestId('meta-tags').fill('fen, mist, fen');
    await page.getByTestId('meta-description').fill('Lanterns over the water.');
    await page.getByTestId('meta-title').press('Enter');
    await expect.poll(() => textOf('manage-result')).toContain('Saved');
    await expect
      .poll(() => item('Marshlight').getByTestId('cartridge-title').textContent())
      .toBe('Marshlight Tales');
    expect(await item('Marshlight').getByTestId('cartridge-genre').textContent()).toBe('fen mystery');
    expect(await page.getByTestId('cartridge-manager').locator('.chip').allTextContents()).toEqual([
      'fen',
      'mist',
    ]);

    // Space on the switch, twice: private (the list says so too), then public again.
    for (const [shown, listed] of [
      ['Private', 'private'],
      ['Public', 'public'],
    ] as const) {
      await page.getByTestId('visibility-toggle').focus();
      await page.keyboard.press('Space');
      await expect.poll(() => textOf('manage-visibility')).toContain(shown);
      await expect
        .poll(() => item('Marshlight').getByTestId('cartridge-visibility').textContent())
        .toContain(listed);
      expect(await page.getByTestId('visibility-toggle').isChecked()).toBe(listed === 'public');
    }

    await page
      .getByTestId('cover-file')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('cover-submit').click();
    await expect.poll(() => textOf('manage-result')).toContain('Cover saved');
    await expect
      .poll(() => page.getByTestId('cover-image').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(1);
    expect(await textOf('manage-visibility')).toContain('Public');
    expect(await textOf('storage')).toMatch(/^Your storage: \d[\d.]* (bytes|KiB|MiB) of \d/);
    await screenshot(page, 'library-01-metadata');
  });

  it('a bad single file is refused with file:line:col and stores nothing; a good one makes a tagged version', async () => {
    const broken = YARE.replace('var: state.player.location', 'var: state.player.locaton');
    await page.getByTestId('file-name').selectOption('yare.yaml');
    await page
      .getByTestId('file-content')
      .setInputFiles({ name: 'yare.yaml', mimeType: 'text/yaml', buffer: Buffer.from(broken) });
    await page.getByTestId('file-submit').click();
    const problems = page.getByTestId('manage-result-problems').locator('li');
    await expect.poll(() => problems.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = (await problems.first().textContent()) ?? '';
    expect(first).toMatch(/^yare\.yaml:\d+:\d+: /);
    expect(first).toContain('locaton');
    expect(await versions().count()).toBe(1);
    await screenshot(page, 'library-02-file-problems');

    await page.getByTestId('file-name').selectOption('bot_lore.md');
    await page.getByTestId('file-content').setInputFiles({
      name: 'bot_lore.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(`${read('bot_lore.md')}\n\n## The marsh\n\nLights drift over the reeds.\n`),
    });
    await page.getByTestId('file-tag').fill('v2');
    await page.getByTestId('file-notes').fill('More marsh');
    await page.getByTestId('file-submit').click();
    await expect.poll(() => textOf('manage-result'), { timeout: 30_000 }).toContain('New version');
    await expect.poll(() => versions().count()).toBe(2);
    expect(await versions().first().getByTestId('version-tag').textContent()).toBe('v2');
    expect(await versions().first().getByTestId('version-notes').textContent()).toBe('More marsh');
  });

  it('tags the older version, and deletes it only after confirming (Escape cancels)', async () => {
    const older = versions().nth(1);
    await older.getByTestId('version-edit').click();
    await older.getByTestId('version-tag-input').fill('v1');
    await older.getByTestId('version-tag-input').press('Enter');
    await expect.poll(() => versions().nth(1).getByTestId('version-tag').textContent()).toBe('v1');

    await versions().nth(1).getByTestId('version-delete').focus();
    await page.keyboard.press('Enter');
    // Focus lands on Cancel, so a second Enter does not delete by accident; Escape closes the question.
    await expect.poll(activeTestId).toBe('version-delete-cancel');
    await page.keyboard.press('Escape');
    await expect.poll(activeTestId).toBe('version-delete');
    expect(await versions().count()).toBe(2);

    await page.keyboard.press('Enter');
    await page.getByTestId('version-delete-confirm').click();
    await expect.poll(() => textOf('manage-result')).toContain('Version deleted');
    await expect.poll(() => versions().count()).toBe(1);
    expect(await versions().first().getByTestId('version-tag').textContent()).toBe('v2');
  });

  it('archives the whole cartridge (gone from the list and the new-game form), shows it on request, unarchives it', async () => {
    await page.getByTestId('archive-cartridge').click();
    await expect.poll(() => textOf('manage-visibility')).toContain('archived');
    await page.getByTestId('manage-close').click();
    await expect.poll(() => item('Marshlight').count()).toBe(0);
    expect(await page.getByTestId('new-cartridge').locator('option').allTextContents()).not.toContain(
      'Marshlight Tales',
    );
    await page.getByTestId('show-archived-cartridges').check();
    await expect.poll(() => item('Marshlight').count()).toBe(1);
    expect(await item('Marshlight').getByTestId('cartridge-archived').count()).toBe(1);
    await item('Marshlight').getByTestId('cartridge-manage').click();
    await page.getByTestId('archive-cartridge').click();
    await expect.poll(() => textOf('manage-result')).toContain('Cartridge unarchived');
    await page.getByTestId('show-archived-cartridges').uncheck();
    await expect.poll(() => item('Marshlight').getByTestId('cartridge-archived').count()).toBe(0);
    expect(await item('Marshlight').count()).toBe(1);
    expect(await page.getByTestId('new-cartridge').locator('option').allTextContents()).toContain(
      'Marshlight Tales',
    );
  });

  it('a cartridge a game plays is refused with a clear message until its version is archived; then it goes', async () => {
    await page.getByTestId('manage-close').click();
    await page.getByTestId('new-cartridge').selectOption({ label: 'Marshlight Tales' });
    await expect.poll(() => page.getByTestId('new-version').locator('option').count()).toBe(1);
    await page.getByTestId('start-game').click();
    await expect.poll(() => page.url()).toContain('#/play/');
    await page.goto(`${server.url}/#/library`);
    await item('Marshlight').getByTestId('cartridge-manage').click();
    await page.getByTestId('delete-cartridge').click();
    await page.getByTestId('delete-cartridge-confirm').click();
    await expect.poll(() => textOf('manage-result')).toMatch(/1 session\(s\) play 1 version\(s\).*archive/);
    expect(await item('Marshlight').count()).toBe(1);
    await screenshot(page, 'library-03-in-use');

    await versions().first().getByTestId('version-archive').click();
    await expect.poll(() => textOf('manage-result')).toContain('Version archived');
    await expect.poll(() => versions().count()).toBe(0);
    await page.getByTestId('show-archived').check();
    await expect.poll(() => versions().count()).toBe(1);
    expect(await versions().first().getByTestId('version-archived').count()).toBe(1);

    await page.getByTestId('delete-cartridge').click();
    await page.getByTestId('delete-cartridge-confirm').click();
    await expect.poll(() => page.getByTestId('cartridge-manager').count()).toBe(0);
    await expect.poll(() => item('Marshlight').count()).toBe(0);
    // The game goes on: it keeps its exact version.
    const games = page.getByTestId('session-item');
    expect(await games.count()).toBe(1);
    await games.first().getByRole('link', { name: 'Resume' }).click();
    await expect.poll(() => page.getByTestId('narration').count()).toBeGreaterThan(0);
    await screenshot(page, 'library-04-deleted-game-resumes');
  });

  it('lists the first page of games, and the next one on “More games”', async () => {
    const store = server.server.deps.store;
    const [first] = await store.listSessions('local-user', { limit: 1 });
    if (first === undefined) throw new Error('no game to copy the cartridge of');
    const have = await store.countSessions('local-user');
    const total = DEFAULT_SESSION_PAGE + 5;
    for (let i = have; i < total; i++) {
      const created = await store.createSession({
        principalId: 'local-user',
        cartridgeVersionId: first.cartridgeVersionId,
        seed: i,
        title: `Game ${i}`,
        genesis: { input: null, narration: '', record: {}, state: {}, seed: i, createdAt: i },
      });
      if (!created.ok) throw new Error(created.reason);
    }
    await page.goto(server.url);
    const games = page.getByTestId('session-item');
    await expect.poll(() => games.count()).toBe(DEFAULT_SESSION_PAGE);
    await page.getByTestId('more-sessions').click();
    await expect.poll(() => games.count()).toBe(total);
    expect(await page.getByTestId('more-sessions').count()).toBe(0);
    const ids = await games.evaluateAll((items) =>
      items.map((el) => el.querySelector('a')?.getAttribute('href')),
    );
    expect(new Set(ids).size).toBe(total);
  });
});

describe.runIf(chromium)('another player’s public cartridge in the browser (keys mode)', () => {
  const ALICE = 'mnesos_web_key_alice_0123456789';
  const BOB = 'mnesos_web_key_bob_0123456789ab';
  let keyed: RunningServer;
  let dir: string;
  let bobPage: Page;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-web-keys-'));
    keyed = await startServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: join(dir, 'keys.sqlite'),
      apiKeys: parseApiKeys(`alice=${ALICE},bob=${BOB}`),
      staticDir: distDir,
      limits: { rateLimit: 100_000 },
    });
    const upload = await fetch(`${keyed.url}/v1/cartridges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(
        tarGz({
          'heath/yare.yaml': YARE.replace('bot_name: "Marshlight"', 'bot_name: "Heathland"'),
          'heath/bot_lore.md': read('bot_lore.md'),
        }),
      ),
    });
    expect(upload.status).toBe(201);
    const found = (await (
      await fetch(`${keyed.url}/v1/cartridges/Heathland`, { headers: { authorization: `Bearer ${ALICE}` } })
    ).json()) as { cartridge: { id: string } };
    const made = await fetch(`${keyed.url}/v1/cartridges/${found.cartridge.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ visibility: 'public', title: 'Heathland Walks', genre: 'moor' }),
    });
    expect(made.status).toBe(200);
    bobPage = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    bobPage.setDefaultTimeout(15_000);
    await bobPage.addInitScript(
      ([storage, key]) => sessionStorage.setItem(storage as string, key as string),
      [API_KEY_STORAGE, BOB],
    );
  }, 60_000);
  afterAll(async () => {
    await bobPage?.close();
    await keyed?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is listed as shared, opens read-only (no form, switch or delete), and starts a game', async () => {
    await bobPage.goto(keyed.url);
    const heath = bobPage.locator('[data-testid="cartridge-item"][data-cartridge="Heathland"]');
    await expect.poll(() => heath.count()).toBe(1);
    expect(await heath.getByTestId('cartridge-visibility').textContent()).toContain(
      'shared by another player',
    );
    expect(await heath.getByTestId('cartridge-manage').textContent()).toBe('Details');
    await heath.getByTestId('cartridge-manage').click();
    await expect.poll(() => bobPage.getByTestId('version-item').count()).toBe(1);
    expect(await bobPage.getByTestId('manage-visibility').textContent()).toContain('another player');
    for (const control of [
      'metadata-form',
      'visibility-toggle',
      'file-update',
      'version-delete',
      'archive-cartridge',
      'delete-cartridge',
    ])
      expect([control, await bobPage.getByTestId(control).count()]).toEqual([control, 0]);
    await bobPage.getByTestId('new-cartridge').selectOption({ label: 'Heathland Walks' });
    await bobPage.getByTestId('start-game').click();
    await expect.poll(() => bobPage.url()).toContain('#/play/');
    await expect.poll(() => bobPage.getByTestId('narration').count()).toBeGreaterThan(0);
    await screenshot(bobPage, 'library-05-shared-details');
  });
});
