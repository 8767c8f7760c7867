// The layout at the widths players' screens have (phones, tablets, laptops, desktops): on every page
// (Library with its New game form, Play, Builder, Settings) no control sticks out of its card or panel,
// the page never scrolls sideways, and no button's centre is covered by another element. Headless
// Chromium; a screenshot of each page at each width goes to artifacts/web/ (git-ignored).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { buildWebClient } from '../../../src/apps/web/build.ts';
import { launchChromium, screenshot } from './helpers/browser.ts';

const WIDTHS = [360, 390, 768, 1024, 1280, 1366, 1440, 1920] as const;
const HEIGHT = 900;
/** Rounding of sub-pixel layout, in CSS pixels. */
const TOLERANCE_PX = 1;

let dir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;
let playHash = '';

// Offline (no model): the header's offline badge is shown, as a newcomer first sees the game; one turn is
// played so Undo, Regenerate and the rules' outcome under the turn are on the Play page.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mnesos-layout-'));
  const distDir = join(dir, 'dist');
  await buildWebClient(distDir);
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'layout.sqlite'),
    models: () => null,
    modelMode: 'offline',
    authorMode: true,
    staticDir: distDir,
    limits: { rateLimit: 100_000 },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: HEIGHT } });
  page.setDefaultTimeout(15_000);
  await page.goto(server.url);
  await page.getByTestId('start-game').click();
  await page.waitForURL(/#\/play\//);
  playHash = new URL(page.url()).hash;
  const input = page.getByTestId('player-input');
  await input.fill('/travel destination=reedmaze');
  await input.press('Enter');
  await page.locator('[data-testid="narration"]').nth(1).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Where the layout breaks on the page as it is now: one line per control out of place. */
function layoutProblems(tolerance: number): string[] {
  const problems: string[] = [];
  const name = (el: Element): string => {
    const id = el.getAttribute('data-testid');
    const text = (el.textContent ?? '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${text ? ` “${text}”` : ''}`;
  };
  const visible = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let node: Element | null = el; node !== null; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden') return false;
      if (node.classList.contains('visually-hidden')) return false;
    }
    return true;
  };
  const doc = document.documentElement;
  if (doc.scrollWidth > innerWidth + tolerance)
    problems.push(`the page scrolls sideways: ${doc.scrollWidth} px wide in a ${innerWidth} px window`);
  const controls = [...document.querySelectorAll('button, input, select, textarea, [role="button"]')].filter(
    (el) => visible(el) && !(el instanceof HTMLInputElement && el.type === 'hidden'),
  );
  for (const el of controls) {
    const box = el.parentElement?.closest(
      '.card, .side, .tabpanel, .composer, .toolbar, .bar, .app-header, dialog',
    );
    if (box === null || box === undefined) continue;
    // A control inside a part that scrolls or clips is judged against that part, not the card.
    let frame: Element = box;
    for (let node = el.parentElement; node !== null && node !== box; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        frame = node;
        break;
      }
    }
    const r = el.getBoundingClientRect();
    const f = frame.getBoundingClientRect();
    const out = Math.max(f.left - r.left, r.right - f.right, f.top - r.top, r.bottom - f.bottom);
    if (frame === box && out > tolerance)
      problems.push(
        `${name(el)} sticks out of its ${box.className || box.tagName.toLowerCase()} by ${Math.round(out)} px`,
      );
  }
  const buttons = controls.filter((el) => el.tagName === 'BUTTON' || el.getAttribute('role') === 'button');
  for (const el of buttons) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const top = document.elementFromPoint(x, y);
    if (top !== null && top !== el && !el.contains(top) && !top.contains(el))
      problems.push(`${name(el)}: its centre is covered by ${name(top)}`);
  }
  window.scrollTo(0, 0);
  return problems;
}

async function check(where: string): Promise<string[]> {
  // Let the page settle (fonts, data) before measuring.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(150);
  return (await page.evaluate(layoutProblems, TOLERANCE_PX)).map((p) => `${where}: ${p}`);
}

const PAGES = [
  ['library', () => '#/library', 'start-game'],
  ['play', () => playHash, 'player-input'],
  ['builder', () => '#/builder', undefined],
  ['settings', () => '#/settings', undefined],
] as const;

describe('the layout at every width', () => {
  it.each(WIDTHS)('holds at %i px on every page', async (width) => {
    await page.setViewportSize({ width, height: HEIGHT });
    const problems: string[] = [];
    for (const [name, hash, ready] of PAGES) {
      await page.goto(`${server.url}/${hash()}`);
      if (ready !== undefined) await page.getByTestId(ready).first().waitFor();
      problems.push(...(await check(`${name} at ${width} px`)));
      await screenshot(page, `layout-${width}-${name}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('on a phone', () => {
  it.each([360, 390])('Settings checkboxes keep their size at %i px', async (width) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/#/settings`);
    const boxes = page.locator('input[type="checkbox"]');
    await boxes.first().waitFor();
    const widths = await boxes.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
    expect(widths.length).toBeGreaterThan(0);
    // Seen 6.5 px wide beside a long label (the flex item shrank).
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(16);
  });

  it.each([360, 390])('leaves four fifths of the screen to the story at %i×844', async (width) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/${playHash}`);
    await page.getByTestId('player-input').waitFor();
    // What stays on screen as a long story scrolls: the sticky toolbar (top) and message box (bottom).
    const share = await page.evaluate(() => {
      const toolbar = document.querySelector('.play .toolbar')!.getBoundingClientRect();
      const composer = document.querySelector('.composer-wrap')!.getBoundingClientRect();
      return 1 - (toolbar.height + composer.height) / innerHeight;
    });
    // Seen at ~55 % when the toolbar wrapped onto three rows; the words of its buttons stay for screen readers.
    expect(share).toBeGreaterThanOrEqual(0.8);
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(1);
    await screenshot(page, `layout-phone-${width}-play`, 'view');
  });
});

describe('the builder without a model', () => {
  it('says beside the Generate form, in a browser user’s words, that a model is needed', async () => {
    await page.setViewportSize({ width: 1280, height: HEIGHT });
    await page.goto(`${server.url}/#/builder`);
    await page.getByTestId('generate-requirements').fill('A mill pond with a wheel puzzle.');
    await page.getByTestId('generate-run').click();
    const alert = page.getByTestId('generate-error');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('Settings → Model');
    expect(text).not.toContain('/v1/');
    // In the Generate card, not the Drafts card.
    expect(await alert.evaluate((el) => el.closest('section')?.getAttribute('aria-labelledby'))).toBe(
      'generate-h',
    );
    expect(await page.getByTestId('builder-error').count()).toBe(0);
  });
});

describe('offline replies in the composer', () => {
  it('empties the box once /help or a look around is answered, and gives words it did not understand back', async () => {
    await page.setViewportSize({ width: 1280, height: HEIGHT });
    await page.goto(`${server.url}/${playHash}`);
    const input = page.getByTestId('player-input');
    const reply = page.getByTestId('play-reply');
    for (const [line, kept, says] of [
      ['/help', '', '/travel destination="tallow rest"'],
      ['look around', '', 'at the Reedmaze'],
      ['hum a tune', 'hum a tune', 'is not something the rules can do here'],
    ] as const) {
      await input.fill(line);
      await input.press('Enter');
      await expect
        .poll(async () => ((await reply.count()) > 0 ? ((await reply.textContent()) ?? '') : ''))
        .toContain(says);
      expect(await input.inputValue()).toBe(kept);
      await input.fill('');
    }
  });
});

describe('the World panel offline', () => {
  it('says why it is empty', async () => {
    await page.setViewportSize({ width: 1280, height: HEIGHT });
    await page.goto(`${server.url}/${playHash}`);
    await page.getByRole('tab', { name: 'World' }).click();
    const note = page.getByTestId('world-offline');
    await note.waitFor();
    expect(await note.textContent()).toContain('no model is configured');
  });
});
