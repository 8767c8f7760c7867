// The player's experience in the browser, end to end in headless Chromium against a real server: a persona
// made in the Library and used in the story, the rules of each turn under its prose, a failed turn shown
// next to the input with the player's words restored and a Retry, offline words that match nothing
// answered without spending a turn, the mini-game opened in view with the keyboard focus, and a wide
// screen with the panels beside the story. Screenshots go to artifacts/web/ (git-ignored).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { buildWebClient } from '../../../src/apps/web/build.ts';
import { chromiumAvailable, launchChromium, screenshot } from './helpers/browser.ts';

const chromium = chromiumAvailable('the player experience browser tests');

/** What the next turn's models do: answer (scripted), fail (the model is down), or nothing (offline). */
type ModelPlan =
  | { kind: 'answer'; tools: { name: string; args: Record<string, unknown> }[]; narration: string }
  | { kind: 'down' }
  | { kind: 'offline' };

let plan: ModelPlan = { kind: 'offline' };

function modelsNow(): ModelSet | null {
  switch (plan.kind) {
    case 'offline':
      return null;
    case 'down':
      return createScriptedModels(
        {
          director: [{ error: { kind: 'http', status: 503, message: 'the model server is not answering' } }],
          narrator: [],
        },
        'down',
      );
    case 'answer':
      return createScriptedModels(
        {
          director: [
            ...(plan.tools.length > 0 ? [{ toolCalls: plan.tools }] : []),
            { text: 'Describe the outcome plainly.' },
          ],
          narrator: [{ text: plan.narration }],
        },
        'answer',
      );
    default: {
      const unreachable: never = plan;
      return unreachable;
    }
  }
}

let dir: string;
let distDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  dir = mkdtempSync(join(tmpdir(), 'mnesos-experience-'));
  distDir = join(dir, 'dist');
  await buildWebClient(distDir);
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'e2e.sqlite'),
    models: modelsNow,
    modelMode: 'online',
    authorMode: true,
    staticDir: distDir,
    seeds: countingSeeds(7),
    limits: { rateLimit: 100_000 },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(10_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Whether an element's box lies inside the viewport (the player sees it without scrolling). */
async function inViewport(testId: string): Promise<boolean> {
  return page
    .getByTestId(testId)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
    });
}

async function narrations(): Promise<string[]> {
  return page.locator('[data-testid="narration"] .md').allTextContents();
}

async function send(text: string): Promise<void> {
  const input = page.getByTestId('player-input');
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.fill(text);
  await input.press('Enter');
}

/** Sends a line and waits for the turn to be committed (a narration more than before). */
async function playTurn(text: string): Promise<string> {
  const before = (await narrations()).length;
  await send(text);
  await expect.poll(async () => (await narrations()).length, { timeout: 15_000 }).toBe(before + 1);
  await expect.poll(() => page.getByTestId('live-narration').count()).toBe(0);
  return (await narrations()).at(-1) ?? '';
}

describe.runIf(chromium)('the player’s experience', () => {
  it('creates a persona in the Library and starts a game with it; the game is titled from its cartridge', async () => {
    await page.goto(server.url);
    await page.getByTestId('persona-new').click();
    await page.getByTestId('persona-name').fill('Mara Vell');
    await page.getByTestId('persona-pronouns').selectOption('she');
    await page.getByTestId('persona-description').fill('A lamplighter with a burnt sleeve.');
    await page.getByTestId('persona-save').click();
    await expect
      .poll(() => page.getByTestId('persona-item').allTextContents())
      .toContainEqual(expect.stringContaining('Mara Vell'));
    await expect
      .poll(() => page.getByTestId('new-persona').locator('option').allTextContents())
      .toContain('Mara Vell');
    await page.getByTestId('new-persona').selectOption({ label: 'Mara Vell' });
    await page.getByTestId('start-game').click();
    await expect.poll(() => page.url()).toContain('#/play/');
    await expect.poll(() => narrations()).toHaveLength(1);
    // The opening message names the persona ({{user}} in first-message.md).
    expect((await narrations())[0]).toContain('Mara Vell steps onto the plank-way');
  });

  it('shows the dice and what changed under each turn, from the public record only', async () => {
    plan = {
      kind: 'answer',
      tools: [{ name: 'travel', args: { destination: 'brine market' } }],
      narration: 'The plank-ways creak as Mara reaches the Brine Market.',
    };
    expect(await playTurn('I walk to the market')).toContain('Brine Market');
    const lines = page.getByTestId('narration').last().getByTestId('outcome-line');
    await expect
      .poll(() => lines.allTextContents())
      .toEqual(['player location: tallow rest → brine market', '30 min passed (18:00 → 18:30)']);
    expect(await page.getByTestId('outcome').last().getAttribute('open')).not.toBeNull();
    expect(await page.locator('body').textContent()).not.toMatch(/attack_bonus|armor/);
    await screenshot(page, 'experience-01-rules-under-turn', 'view');
  });

  it('shows a failed turn next to the input, in view, restores the words, offers Retry, and says so in the header', async () => {
    plan = { kind: 'down' };
    const before = await narrations();
    await send('I ask the eel trader about the chapel');
    const alert = page.getByRole('alert').filter({ hasText: 'not answering' });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await page.getByTestId('play-error').getAttribute('role')).toBe('alert');
    expect(await inViewport('play-error')).toBe(true);
    expect(await page.getByTestId('player-input').inputValue()).toBe('I ask the eel trader about the chapel');
    expect(await page.getByTestId('model-mode').getAttribute('data-status')).toBe('failing');
    expect(await page.getByTestId('model-mode').textContent()).toContain('Model not answering');
    expect(await narrations()).toEqual(before); // nothing was committed
    await screenshot(page, 'experience-02-model-down', 'view');

    plan = { kind: 'answer', tools: [], narration: 'The trader laughs and names a price for the truth.' };
    await page.getByTestId('retry').click();
    await expect.poll(async () => (await narrations()).length, { timeout: 15_000 }).toBe(before.length + 1);
    expect((await narrations()).at(-1)).toContain('names a price');
    await expect.poll(() => page.getByTestId('play-error').count()).toBe(0);
    expect(await page.getByTestId('model-mode').getAttribute('data-status')).toBe('online');
  });

  it('offline, answers words that match nothing with what can be done here, and spends no turn', async () => {
    plan = { kind: 'offline' };
    await page.getByTestId('player-input').fill('');
    const before = await narrations();
    await send('hum a tune');
    const reply = page.getByTestId('play-reply');
    await expect.poll(() => reply.count()).toBe(1);
    const text = (await reply.textContent()) ?? '';
    expect(text).toContain('“hum a tune” is not something the rules can do here.');
    expect(text).toContain('- buy item:');
    expect(await reply.getAttribute('role')).toBe('status');
    expect(await narrations()).toEqual(before);
    expect(await page.getByTestId('player-input').inputValue()).toBe('hum a tune');
    await screenshot(page, 'experience-03-offline-reply', 'view');
  });

  it('tells offline turns as a story with the persona’s name, no banner and no field dump', async () => {
    await page.getByTestId('player-input').fill('');
    const told = await playTurn('go to the drowned chapel');
    const note = 'Mara Vell walks the plank-ways to the Drowned Chapel; it is evening when she arrives.';
    expect(told.startsWith(`${note} `)).toBe(true);
    // Then one sentence (chosen by the turn's seed) of the lore's Drowned Chapel section.
    const lore = readFileSync(
      join(import.meta.dirname, '../../../cartridges/lanternmere/bot_lore.md'),
      'utf8',
    );
    const chapel = lore.split('### The Drowned Chapel')[1]!.split('###')[0]!.replace(/\s+/g, ' ');
    expect(chapel).toContain(told.slice(note.length + 1));
    expect(told).not.toMatch(/offline:|Scene:|game_time|\[SYSTEM/);
  });

  it('opens the mini-game in view with the keyboard focus on the board', async () => {
    await send('I work the lamp-lock');
    await expect.poll(() => page.getByTestId('minigame').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => inViewport('lamps')).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('lamp');
    // Lamps are drawn as inline SVG, with no emoji font needed.
    expect(await page.getByTestId('lamp').first().locator('svg').count()).toBe(1);
    await screenshot(page, 'experience-04-minigame-in-view', 'view');
    await page.getByTestId('minigame-abort').click();
    await expect.poll(() => page.getByTestId('minigame').count(), { timeout: 15_000 }).toBe(0);
  });

  it('on a wide screen keeps the panels beside the story and the toolbar in place while the story scrolls', async () => {
    await page.setViewportSize({ width: 1920, height: 900 });
    for (const line of ['check my pack', 'go to the tallow rest', 'check my pack', 'rest', 'check my pack'])
      await playTurn(line);
    await page.evaluate(() => window.scrollTo(0, 0));
    const story = await page.locator('.story-col').boundingBox();
    const side = await page.locator('.side').boundingBox();
    expect(story && side).toBeTruthy();
    // Beside, not below, and using the width: the panel starts right of the story and the two fill the row.
    expect(side!.x).toBeGreaterThan(story!.x + story!.width - 1);
    expect(side!.y).toBeLessThan(story!.y + 50);
    expect(side!.x + side!.width).toBeGreaterThan(1920 * 0.85);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await inViewport('undo')).toBe(true);
    expect(await inViewport('player-input')).toBe(true);
    expect(await page.locator('.side').evaluate((el) => el.getBoundingClientRect().top >= 0)).toBe(true);
    await screenshot(page, 'experience-05-wide-layout', 'view');
  });

  it('chooses another persona for the game from the play screen, and hides the rules by a setting', async () => {
    await page.getByTestId('play-persona').selectOption({ label: 'No persona' });
    expect(await playTurn('check my pack')).toMatch(/^The player checks their pack/);
    await page.getByTestId('play-persona').selectOption({ label: 'Mara Vell' });
    expect(await playTurn('check my pack')).toMatch(/^Mara Vell checks her pack/);

    const game = page.url();
    await page.goto(`${server.url}/#/settings`);
    await page.getByTestId('show-rules').uncheck();
    await page.goto(game);
    await expect.poll(() => narrations().then((n) => n.length)).toBeGreaterThan(3);
    expect(await page.getByTestId('outcome').count()).toBe(0);
    await page.goto(`${server.url}/#/settings`);
    await page.getByTestId('show-rules').check();
  });

  it('lists games with their cartridge, title, turns and last play', async () => {
    await page.goto(`${server.url}/#/library`);
    const item = page.getByTestId('session-item').first();
    await expect.poll(() => item.textContent()).toContain('Lanternmere');
    const text = (await item.textContent()) ?? '';
    expect(text).toMatch(/\d+ turns/);
    expect(text).toContain('last played');
    expect(text).not.toMatch(/Game [0-9a-f]{8}/);
    await screenshot(page, 'experience-06-library');
  });
});
