// The player's view in headless Chromium, one glitch each: "New persona" clear of its list's divider;
// a version's time the same on the Library's New game form and in its cartridge's panel (one formatter);
// the Author event console offering the cartridge's events and filling in their inputs; the builder's
// editor never scrolling sideways as you type at the end of a long line; the Settings checkbox beside its
// label; a draft named like one of the player's cartridges asks before joining it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the player-view browser tests');

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 1000 }, actionTimeoutMs: 15_000 });
  ({ server, page } = client);
}, 180_000);

afterAll(() => client?.close());

const box = (testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
    });

describe.runIf(chromium)('the player’s view', () => {
  it('"New persona" sits clear of the list’s dividing line', async () => {
    await page.goto(`${server.url}/#/settings`);
    await page.getByTestId('persona-new').waitFor();
    const list = await box('persona-list');
    const button = await box('persona-new');
    expect(button.top - list.bottom).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'player-view-persona-new');
  });

  it('the Settings checkbox sits beside its label, on the same line', async () => {
    await page.goto(`${server.url}/#/settings`);
    const checkbox = page.getByTestId('show-rules');
    await checkbox.waitFor();
    const at = await checkbox.evaluate((el) => {
      const label = el.closest('label')!;
      const textNode = [...label.childNodes].find(
        (n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '',
      )!;
      const range = document.createRange();
      range.selectNodeContents(textNode);
      const c = el.getBoundingClientRect();
      // The label may wrap in a narrow card: its text is the block from its first line to its last.
      const lines = [...range.getClientRects()];
      const words = {
        top: lines[0]!.top,
        bottom: lines.at(-1)!.bottom,
        left: Math.min(...lines.map((r) => r.left)),
      };
      return {
        boxMid: (c.top + c.bottom) / 2,
        boxRight: c.right,
        textTop: words.top,
        textBottom: words.bottom,
        textLeft: words.left,
      };
    });
    // Vertically within the label's text, and to its left (not centred above it).
    expect(at.boxMid).toBeGreaterThan(at.textTop - 2);
    expect(at.boxMid).toBeLessThan(at.textBottom + 2);
    expect(at.boxRight).toBeLessThanOrEqual(at.textLeft + 1);
  });

  it('one version shows one time on the New game form and in its cartridge’s panel', async () => {
    await page.goto(`${server.url}/#/library`);
    const option = page.getByTestId('new-version').locator('option').first();
    await option.waitFor({ state: 'attached' });
    const formTime = ((await option.textContent()) ?? '').split(' — ')[1]?.trim();
    expect(formTime).toBeTruthy();
    const chosen = await page.getByTestId('new-version').inputValue();
    const cartridge = page.locator('[data-testid="cartridge-item"]', {
      has: page.locator(`[data-version="${chosen}"]`),
    });
    const manage =
      (await cartridge.count()) > 0
        ? cartridge.getByTestId('cartridge-manage')
        : page.getByTestId('cartridge-manage').first();
    await manage.click();
    const version = page.locator(`[data-testid="version-item"][data-version="${chosen}"]`);
    await version.waitFor();
    expect((await version.getByTestId('version-time').textContent())?.trim()).toBe(formTime);
  });

  it('the Author event console offers the cartridge’s events and fills in their inputs', async () => {
    await page.goto(server.url);
    await page.getByTestId('start-game').click();
    await page.waitForURL(/#\/play\//);
    await page.getByRole('tab', { name: 'Author' }).click();
    const options = page.getByTestId('console-events').locator('option');
    await expect.poll(() => options.count()).toBeGreaterThan(3);
    const names = await options.evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
    expect(names).toEqual(expect.arrayContaining(['travel', 'attack', 'rest_at_inn', 'foe_turn']));
    await page.getByTestId('console-event').fill('travel');
    await expect.poll(() => page.getByTestId('console-event-help').textContent()).toContain('destination (');
    const inputs = page.getByRole('textbox', { name: 'Inputs (JSON)' });
    expect(JSON.parse(await inputs.inputValue())).toEqual({ destination: 'tallow rest' });
    await page.getByTestId('console-run').click();
    await page.getByTestId('console-result').waitFor();
    await screenshot(page, 'player-view-event-console');
  });

  it('the builder’s editor never scrolls sideways while typing at the end of a long line', async () => {
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.goto(`${server.url}/#/builder`);
    await page.getByTestId('new-draft-name').fill('Wide Lines');
    await page.getByTestId('new-draft-template').selectOption('empty');
    await page.getByTestId('new-draft-create').click();
    await expect.poll(() => page.url()).toMatch(/#\/builder\/[^/]+$/);
    const editor = page.locator('[data-file="yare.yaml"]');
    await editor.locator('.cm-line').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(` # ${'a long comment that runs past the edge of the pane '.repeat(4)}`);
    await page.waitForTimeout(300);
    const scrolled = await editor.evaluate((el) => {
      const scroller = el.closest('.cm-scroller')!;
      const line = el.querySelector('.cm-line')!.getBoundingClientRect();
      return {
        left: scroller.scrollLeft,
        lineLeft: line.left,
        paneLeft: scroller.getBoundingClientRect().left,
      };
    });
    expect(scrolled.left).toBe(0);
    expect(scrolled.lineLeft).toBeGreaterThanOrEqual(scrolled.paneLeft);
    await screenshot(page, 'player-view-editor-typing');
    await page.setViewportSize({ width: 1280, height: 1000 });
  });

  it('a draft named like one of your cartridges asks before joining it; Cancel keeps it apart', async () => {
    const newDraft = async () => {
      await page.goto(`${server.url}/#/builder`);
      await page.getByTestId('new-draft-name').fill('Twin');
      await page.getByTestId('new-draft-template').selectOption('empty');
      await page.getByTestId('new-draft-create').click();
      await expect.poll(() => page.url()).toMatch(/#\/builder\/[^/]+$/);
      await expect
        .poll(() => page.getByTestId('check-state').textContent(), { timeout: 30_000 })
        .toBe('Valid');
    };
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    // The first draft named Twin starts the cartridge Twin (its bot_name is the draft's name): nothing asked.
    await newDraft();
    await page.getByTestId('save-version').click();
    await expect
      .poll(() => page.getByTestId('builder-message').textContent())
      .toContain('Saved as a new version');
    expect(asked).toEqual([]);
    // A second draft of the same name (other files): asked, and Cancel stores nothing.
    await newDraft();
    await page.locator('[data-file="yare.yaml"]').locator('.cm-line').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type('  # the second twin');
    await expect.poll(() => page.getByTestId('check-state').textContent(), { timeout: 30_000 }).toBe('Valid');
    await page.getByTestId('save-version').click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('You already have a cartridge named “Twin”');
    await expect.poll(() => page.getByTestId('builder-message').textContent()).toContain('Not saved');
    page.removeAllListeners('dialog');
  });
});
