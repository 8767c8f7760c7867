// The two new mini-games in the browser (headless Chromium, a real server with scripted models, the built
// client): Ember Toll (rules in yare.ts) is uploaded, and articulation_scramble and reflex_dial are each
// played to failure and to success with the keyboard alone; the result goes back as an interaction turn
// and the cartridge's resolver changes the state the panel shows. Screenshots go to artifacts/web/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarGz } from './helpers/archive.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the mini-game browser tests');

const EMBER_TOLL = join(import.meta.dirname, '..', '..', '..', 'cartridges', 'ember-toll');
const read = (file: string): string => readFileSync(join(EMBER_TOLL, file), 'utf8');

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 900 }, actionTimeoutMs: 10_000 });
  ({ server, page } = client);
}, 120_000);

afterAll(() => client?.close());

async function textOf(testId: string): Promise<string> {
  return (await page.getByTestId(testId).first().textContent()) ?? '';
}

async function lastNarration(): Promise<string> {
  return (await page.locator('[data-testid="narration"] .md').last().textContent()) ?? '';
}

/** A turn whose Director runs `event`, so the event starts its mini-game; waits for the game to show. */
async function startMinigame(event: string, id: string): Promise<void> {
  server.queueTurn({ tools: [{ name: event, args: {} }], narration: ['The keeper ', 'waits.'] });
  const input = page.getByTestId('player-input');
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.fill(`I try ${event}`);
  await input.press('Enter');
  await expect
    .poll(() => page.getByTestId('minigame').getAttribute('data-minigame'), { timeout: 15_000 })
    .toBe(id);
  expect(await input.isDisabled()).toBe(true);
}

/** Sends the finished game's result with the keyboard and waits for the resolved turn. */
async function sendResult(ending: string): Promise<void> {
  server.queueTurn({ narration: [ending] });
  await page.getByTestId('minigame-send').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain(ending);
  await expect.poll(() => page.getByTestId('minigame').count()).toBe(0);
  expect(await page.getByTestId('player-input').isEnabled()).toBe(true);
}

/** Chooses a word of the bank by keyboard: focus its button, press Enter. */
async function chooseWord(word: string): Promise<void> {
  await page.locator(`[data-testid="scramble-word"][data-word="${word}"]`).focus();
  await page.keyboard.press('Enter');
}

describe.runIf(chromium)('mini-games in the web client', () => {
  it('uploads Ember Toll (rules in yare.ts only) and starts a game', async () => {
    await page.goto(server.url);
    const archive = tarGz(
      Object.fromEntries(
        ['yare.ts', 'bot_lore.md', 'first-message.md', 'prompt_directives.yaml'].map((f) => [
          `ember-toll/${f}`,
          read(f),
        ]),
      ),
    );
    await page
      .getByTestId('upload-file')
      .setInputFiles({ name: 'ember-toll.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await page.getByTestId('upload-submit').click();
    // The first rules module starts the sandbox (a worker loading QuickJS): seconds on a busy machine.
    await expect.poll(() => textOf('upload-result'), { timeout: 30_000 }).toContain('Added');
    await page.getByTestId('new-cartridge').selectOption('Ember Toll');
    await expect.poll(() => page.getByTestId('new-version').locator('option').count()).toBeGreaterThan(0);
    await page.getByTestId('start-game').click();
    await expect.poll(() => page.url()).toContain('#/play/');
    await expect.poll(() => lastNarration()).toContain('Cinder River');
    await page.getByTestId('tab-state').click();
    await expect.poll(() => textOf('stat-player.crossed')).toContain('✘ no');
  });

  it('articulation scramble played to failure: a word taken back with Backspace, then the wrong order', async () => {
    await startMinigame('recite_password', 'articulation_scramble');
    const game = page.getByTestId('minigame');
    expect(await page.getByTestId('scramble-word').count()).toBe(5);
    await chooseWord('ember');
    await expect.poll(() => textOf('scramble-sentence')).toBe('ember');
    await page.keyboard.press('Backspace');
    await expect.poll(() => textOf('scramble-sentence')).toBe('…');
    for (const word of ['water', 'over', 'ash']) await chooseWord(word);
    expect(await page.locator('[data-word="water"]').isDisabled()).toBe(true);
    await page.getByTestId('scramble-submit').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => game.getAttribute('data-status')).toBe('failed');
    expect(await textOf('minigame-status')).toContain('Wrong: “water over ash”');
    await screenshot(page, '20-articulation-scramble-failed');
    await sendResult('He laughs at you.');
    await expect.poll(() => textOf('stat-player.knows_password')).toContain('✘ no');
  });

  it('articulation scramble played to success: the words in order', async () => {
    await startMinigame('recite_password', 'articulation_scramble');
    const game = page.getByTestId('minigame');
    for (const word of ['ash', 'over', 'water']) await chooseWord(word);
    expect(await textOf('minigame-status')).toContain('The words are: ash over water');
    await page.getByTestId('scramble-submit').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => game.getAttribute('data-status')).toBe('completed');
    await screenshot(page, '21-articulation-scramble-completed');
    await sendResult('The bar lifts.');
    await expect.poll(() => textOf('stat-player.knows_password')).toContain('✔ yes');
    await expect.poll(() => textOf('stat-player.crossed')).toContain('✔ yes');
  });

  it('reflex dial played to failure: Space at once, six times, always outside the zone', async () => {
    await startMinigame('pick_gate_lock', 'reflex_dial');
    const game = page.getByTestId('minigame');
    // The game takes the focus, so Space stops the needle; the cue is announced for screen readers.
    expect(await textOf('dial-cue')).toBe('Out of the zone');
    for (let i = 0; i < 6; i++) await page.keyboard.press(' ');
    await expect.poll(() => game.getAttribute('data-status')).toBe('failed');
    expect(await textOf('minigame-status')).toContain('0 of 2 hits · 6 of 6 attempts');
    await screenshot(page, '22-reflex-dial-failed');
    await sendResult('The pin snaps.');
  });

  it('reflex dial played to success: Space when the live cue says the needle is in the zone', async () => {
    await startMinigame('pick_gate_lock', 'reflex_dial');
    const game = page.getByTestId('minigame');
    for (let attempt = 0; attempt < 6 && (await game.getAttribute('data-status')) === 'playing'; attempt++) {
      await page.waitForFunction(
        () => document.querySelector('[data-testid="dial-cue"]')?.textContent === 'In the zone',
        undefined,
        { polling: 'raf', timeout: 10_000 },
      );
      await page.keyboard.press(' ');
    }
    await expect.poll(() => game.getAttribute('data-status')).toBe('completed');
    expect(await textOf('minigame-status')).toContain('the dial gives way');
    await screenshot(page, '23-reflex-dial-completed');
    await sendResult('The side gate swings.');
    await expect.poll(() => server.pending()).toBe(0);
  });
});
