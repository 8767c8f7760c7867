// The web client end to end: a real server (SQLite, scripted models) serving the built client, driven in
// headless Chromium. The tests run in order on one game, as a player would. Each saves a screenshot under
// artifacts/web/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../../../src/core/minigames/index.ts';
import { tarGz } from './helpers/archive.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the web client browser tests');

const LANTERNMERE = join(import.meta.dirname, '..', '..', '..', 'cartridges', 'lanternmere');
const read = (file: string): string => readFileSync(join(LANTERNMERE, file), 'utf8');

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;
/** Requests the page made to anything but its own server (there must be none). */
const foreignRequests: string[] = [];

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 1280, height: 900 }, actionTimeoutMs: 10_000 });
  ({ server, page } = client);
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:'))
      foreignRequests.push(request.url());
  });
}, 120_000);

afterAll(() => client?.close());

/** Starts recording every text the streaming narration bubble shows, and the phase and input state. */
async function watchStream(): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { seen: { text: string; phase: string; inputDisabled: boolean }[] };
    w.seen = [];
    const observer = new MutationObserver(() => {
      const live = document.querySelector('[data-testid="live-narration"] .md');
      const input = document.querySelector('[data-testid="player-input"]') as HTMLTextAreaElement | null;
      w.seen.push({
        text: live?.textContent ?? '',
        phase: document.querySelector('[data-testid="phase"]')?.textContent ?? '',
        inputDisabled: input?.disabled ?? false,
      });
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

async function seen(): Promise<{ text: string; phase: string; inputDisabled: boolean }[]> {
  return page.evaluate(
    () => (window as unknown as { seen: { text: string; phase: string; inputDisabled: boolean }[] }).seen,
  );
}

/** The text of every narration on screen (the Markdown body, without the "Narrator" label). */
async function narrations(): Promise<string[]> {
  return page.locator('[data-testid="narration"] .md').allTextContents();
}

async function lastNarration(): Promise<string> {
  return (await page.locator('[data-testid="narration"] .md').last().textContent()) ?? '';
}

async function textOf(testId: string): Promise<string> {
  return (await page.getByTestId(testId).first().textContent()) ?? '';
}

/** Types a line, sends it with Enter, and waits until the turn is committed and shown. */
async function playTurn(
  text: string,
  expectEnd: string,
  inputAfter: 'enabled' | 'blocked' = 'enabled',
): Promise<void> {
  const input = page.getByTestId('player-input');
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.fill(text);
  await input.press('Enter');
  await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain(expectEnd);
  await expect.poll(() => page.getByTestId('live-narration').count()).toBe(0);
  expect(await input.isEnabled()).toBe(inputAfter === 'enabled');
}

/** The first number a state panel row shows (a plain number, or a bar's value). */
async function statNumber(path: string): Promise<number> {
  const text = await textOf(`stat-${path}`);
  return Number(/-?\d+/.exec(text)?.[0]);
}

async function openTab(name: 'state' | 'world' | 'tree' | 'saves' | 'author'): Promise<void> {
  await page.getByTestId(`tab-${name}`).click();
}

describe.runIf(chromium)('web client', () => {
  it('serves the client and lists the demo cartridge', async () => {
    await page.goto(server.url);
    await expect
      .poll(() => page.getByTestId('cartridge-item').allTextContents())
      .toContainEqual(expect.stringContaining('Lanternmere'));
    await screenshot(page, '01-library');
  });

  it('uploads a good cartridge and shows a bad one’s problems as file:line:col', async () => {
    const good = tarGz({
      'fenlight/yare.yaml': read('yare.yaml').replace('bot_name: "Lanternmere"', 'bot_name: "Fenlight"'),
      'fenlight/bot_lore.md': read('bot_lore.md'),
      'fenlight/prompt_directives.yaml': read('prompt_directives.yaml'),
      'fenlight/first-message.md': `${read('first-message.md')}\n(An uploaded copy.)\n`,
    });
    await page
      .getByTestId('upload-file')
      .setInputFiles({ name: 'fenlight.tar.gz', mimeType: 'application/gzip', buffer: good });
    await page.getByTestId('upload-submit').click();
    // Checking an upload (rules, lint, a sandboxed rules script) can take a few seconds on a busy machine.
    await expect.poll(() => textOf('upload-result'), { timeout: 20_000 }).toContain('Added');
    await expect
      .poll(() => page.getByTestId('cartridge-item').allTextContents())
      .toContainEqual(expect.stringContaining('Fenlight'));

    const badYare = read('yare.yaml').replace('var: state.player.location', 'var: state.player.locaton');
    const bad = tarGz({ 'broken/yare.yaml': badYare, 'broken/bot_lore.md': read('bot_lore.md') });
    await page
      .getByTestId('upload-file')
      .setInputFiles({ name: 'broken.tar.gz', mimeType: 'application/gzip', buffer: bad });
    await page.getByTestId('upload-submit').click();
    const problems = page.getByTestId('upload-problems').locator('li');
    await expect.poll(() => problems.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const first = (await problems.first().textContent()) ?? '';
    expect(first).toMatch(/^yare\.yaml:\d+:\d+: /);
    expect(first).toContain('locaton');
    await screenshot(page, '02-upload-errors');
  });

  it('starts a game with a chosen version and seed', async () => {
    await page.getByTestId('new-cartridge').selectOption('Lanternmere');
    await expect.poll(() => page.getByTestId('new-version').locator('option').count()).toBeGreaterThan(0);
    await page.getByTestId('new-seed').fill('42');
    await page.getByTestId('start-game').click();
    await expect.poll(() => page.url()).toContain('#/play/');
    await expect.poll(() => narrations()).toHaveLength(1);
    expect(await lastNarration()).toContain('Lanternmere');
    // The state panel is laid out by the schema route: numbers with min and max are bars (hp 0–24); a number
    // with a min alone is plain (gold has no meaningful maximum, nor has the foe's hp), inventory a list.
    await expect.poll(() => statNumber('player.hp')).toBe(24);
    await expect.poll(() => page.getByTestId('stat-player.hp').locator('.bar').count()).toBe(1);
    await expect.poll(() => statNumber('player.gold')).toBe(20);
    expect(await page.getByTestId('stat-player.gold').locator('.bar').count()).toBe(0);
    expect(await page.getByTestId('stat-foe.hp').locator('.bar').count()).toBe(0);
    expect(await textOf('stat-player.inventory')).toContain('iron hook');
    await screenshot(page, '03-new-game');
  });

  it('plays three turns with the narration arriving in pieces, input disabled and the phase shown', async () => {
    server.queueTurn({
      tools: [{ name: 'travel', args: { destination: 'reedmaze' } }],
      narration: ['You wade ', 'into the ', '**reedmaze**, ', 'where the lamps ', 'grow few.'],
    });
    server.queueTurn({ narration: ['Frogs ', 'fall silent ', 'as you ', 'listen.'] });
    server.queueTurn({ narration: ['A bell ', 'tolls once ', 'far away, ', '*then again*.'] });

    await watchStream();
    await playTurn('I head out into the reedmaze', 'grow few.');
    const frames = await seen();
    const partial = new Set(
      frames
        .map((f) => f.text)
        .filter((t) => t !== '' && t !== 'You wade into the reedmaze, where the lamps grow few.'),
    );
    expect(partial.size).toBeGreaterThanOrEqual(2); // at least two intermediate texts were on screen
    expect(frames.some((f) => f.inputDisabled && f.phase.startsWith('Narrating'))).toBe(true);
    expect(frames.some((f) => f.phase.startsWith('Thinking') || f.phase.startsWith('Rolling'))).toBe(true);
    // Markdown: the strong text is bold, not asterisks.
    expect(await page.getByTestId('narration').last().locator('strong').textContent()).toBe('reedmaze');

    await playTurn('I listen', 'listen.');
    await playTurn('I wait for the bell', 'then again.');
    expect(await narrations()).toHaveLength(4);
    expect(await page.getByTestId('player-message').count()).toBe(3);
    expect(await textOf('stat-player.location')).toContain('reedmaze');
    expect(server.pending()).toBe(0);
    await screenshot(page, '04-three-turns');
  });

  it('undoes the last turn', async () => {
    await page.getByTestId('undo').click();
    await expect.poll(() => narrations()).toHaveLength(3);
    expect(await lastNarration()).toContain('Frogs fall silent');
    await screenshot(page, '05-undo');
  });

  it('regenerates a turn and swipes between the versions', async () => {
    server.queueTurn({ narration: ['Nothing ', 'stirs; ', 'even the frogs ', 'hold their breath.'] });
    await page.getByTestId('regenerate').click();
    await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain('hold their breath.');
    await expect.poll(() => textOf('swipe-position')).toBe('2/2');
    await page.getByTestId('swipe-prev').click();
    // The first version led on to the bell turn: swiping back restores that whole branch.
    await expect.poll(() => narrations()).toHaveLength(4);
    expect((await narrations())[2]).toContain('Frogs fall silent');
    expect(await lastNarration()).toContain('then again.');
    await expect.poll(() => textOf('swipe-position')).toBe('1/2');
    await page.getByTestId('swipe-next').click();
    await expect.poll(() => lastNarration()).toContain('hold their breath.');
    await expect.poll(() => narrations()).toHaveLength(3);
    await screenshot(page, '06-swipes');
  });

  it('jumps to an earlier turn through the tree and branches from it', async () => {
    await openTab('tree');
    const depthOne = page.locator('[data-testid="tree-node"][data-depth="1"]');
    await depthOne.first().click();
    await expect.poll(() => narrations()).toHaveLength(2);
    expect(await lastNarration()).toContain('grow few.');
    server.queueTurn({ narration: ['Instead ', 'you follow ', 'a line of ', 'drowned lanterns.'] });
    await playTurn('I follow the drowned lanterns', 'drowned lanterns.');
    // Depth 2 now has three turns: the two swipes and the new branch.
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-depth="2"]').count()).toBe(3);
    // The branch marker is an inline SVG icon (no emoji font needed).
    expect(await page.getByTestId('tree').locator('svg.icon').count()).toBeGreaterThan(0);
    expect(await narrations()).toHaveLength(3);
    await screenshot(page, '07-branch');
  });

  it('saves and loads a named save', async () => {
    await openTab('saves');
    await page.getByTestId('save-name').fill('by the lanterns');
    await page.getByTestId('save-submit').click();
    await expect.poll(() => textOf('save-list')).toContain('by the lanterns');
    await page.getByTestId('undo').click();
    await expect.poll(() => narrations()).toHaveLength(2);
    await page.getByRole('button', { name: 'Load by the lanterns' }).click();
    await expect.poll(() => narrations()).toHaveLength(3);
    expect(await lastNarration()).toContain('drowned lanterns.');
    await screenshot(page, '08-save-load');
  });

  it('edits an earlier message and plays it again as a new branch', async () => {
    server.queueTurn({ narration: ['You follow ', 'the ', 'lanterns ', 'at a run.'] });
    await page.getByTestId('edit-message').last().click();
    await page.getByTestId('edit-input').fill('I run after the drowned lanterns');
    await page.getByTestId('edit-submit').click();
    await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain('at a run.');
    expect(await narrations()).toHaveLength(3);
    expect(await page.getByTestId('player-message').last().textContent()).toContain(
      'I run after the drowned lanterns',
    );
    // The edited message is a new version of that turn; the original is one swipe away.
    await expect.poll(() => textOf('swipe-position')).toBe('4/4');
    await screenshot(page, '09-edit');
  });

  it('plays the lights-out mini-game to a result, free text blocked meanwhile', async () => {
    server.queueTurn({
      tools: [{ name: 'travel', args: { destination: 'drowned chapel' } }],
      narration: ['The chapel ', 'leans out ', 'of the water.'],
    });
    await playTurn('I go to the drowned chapel', 'of the water.');
    server.queueTurn({
      tools: [{ name: 'unseal_chapel', args: {} }],
      narration: ['The witch-lamps ', 'wake ', 'in a ring.'],
    });
    await playTurn('I work the lamp-lock', 'in a ring.', 'blocked');
    const game = page.getByTestId('minigame');
    await expect.poll(() => game.isVisible()).toBe(true);
    expect(await page.getByTestId('player-input').isDisabled()).toBe(true);
    await openTab('state');
    const gold = await statNumber('player.gold');

    const size = Number(await page.getByTestId('lamps').getAttribute('data-size'));
    expect(size).toBe(5); // lanternmere's config.difficulty.grid_size
    const lamps = page.getByTestId('lamp');
    const board = (await lamps.evaluateAll((els) => els.map((e) => e.getAttribute('aria-pressed')))).map(
      (v) => v === 'true',
    );
    await screenshot(page, '10-lights-out-start');
    const presses = solve(board, size);
    expect(presses).toBeDefined();
    // Played with the keyboard: arrow keys move between lamps, Enter presses one.
    await lamps.first().focus();
    let at = 0;
    for (const target of presses ?? []) {
      const [dr, dc] = [Math.floor(target / size) - Math.floor(at / size), (target % size) - (at % size)];
      for (let k = 0; k < Math.abs(dr); k++) await page.keyboard.press(dr > 0 ? 'ArrowDown' : 'ArrowUp');
      for (let k = 0; k < Math.abs(dc); k++) await page.keyboard.press(dc > 0 ? 'ArrowRight' : 'ArrowLeft');
      await page.keyboard.press('Enter');
      at = target;
    }
    await expect.poll(() => game.getAttribute('data-status')).toBe('completed');
    await screenshot(page, '10-lights-out-solved');

    server.queueTurn({ narration: ['The last lamp ', 'dies ', 'and the door ', 'grinds open.'] });
    await page.getByTestId('minigame-send').click();
    await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain('grinds open.');
    await expect.poll(() => game.count()).toBe(0);
    expect(await page.getByTestId('player-input').isEnabled()).toBe(true);
    await expect.poll(() => textOf('stat-world.chapel_sealed')).toContain('✘ no');
    expect(await statNumber('player.gold')).toBe(gold + 30);
    await screenshot(page, '11-lights-out-result');
  });

  it('shows the last turn’s roll in author mode', async () => {
    // Back to the reedmaze turn (no creature about), then search: explore_fen rolls a d20.
    await openTab('tree');
    await page.locator('[data-testid="tree-node"][data-depth="1"]').first().click();
    await expect.poll(() => narrations()).toHaveLength(2);
    server.queueTurn({ tools: [{ name: 'explore_fen', args: {} }], narration: ['You part ', 'the reeds.'] });
    await playTurn('I search the reeds', 'the reeds.');
    await openTab('author');
    const roll = page.getByTestId('trace-roll').first();
    await expect.poll(() => roll.isVisible()).toBe(true);
    expect(await roll.textContent()).toMatch(/1d20 → \[\d+\] = \d+/);
    expect(await textOf('trace-tool')).toContain('explore_fen');
    // Each prompt section's receipts, the history's messages among them: why each is there, its tokens.
    const receipts = await page.getByTestId('prompt-receipt').allTextContents();
    expect(receipts).toContainEqual(expect.stringMatching(/message:-1\d+recency: the newest story message/));
    await screenshot(page, '12-author-roll');
    // The console runs an event on the current state without changing the game.
    await page.getByTestId('console-event').fill('check_pack');
    await page.getByTestId('console-run').click();
    await expect.poll(() => textOf('console-result')).toContain('Pack item 1: iron hook.');
    expect(await narrations()).toHaveLength(3);
  });

  it('keeps model settings on the server, never in the page URL, and reloads the story in one request', async () => {
    const playUrl = page.url();
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => textOf('settings-server')).toContain('set by the server’s code');
    // The test server was not started with --allow-user-base-url: no base URL field.
    expect(await page.getByTestId('settings-endpoint-locked').isVisible()).toBe(true);
    expect(await page.getByTestId('settings-base-url').count()).toBe(0);
    await page.getByTestId('settings-model-narrator').fill('my-narrator');
    await page.getByTestId('settings-temperature').fill('0.4');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => textOf('settings-status')).toBe('Saved.');
    // Models given by code (the scripted test models) take the temperature only, and the page says so.
    expect(await textOf('settings-problem')).toContain('only the temperature applies');
    expect(page.url()).not.toContain('my-narrator');
    const stored = await (await fetch(`${server.url}/v1/settings`)).json();
    expect(stored.settings).toEqual({ models: { narrator: 'my-narrator' }, temperature: 0.4 });
    await page.reload();
    await expect.poll(() => page.getByTestId('settings-model-narrator').inputValue()).toBe('my-narrator');
    expect(await page.getByTestId('settings-temperature').inputValue()).toBe('0.4');
    await screenshot(page, '12-settings');

    const reads: string[] = [];
    const onRequest = (request: { method(): string; url(): string }): void => {
      if (request.method() === 'GET') reads.push(new URL(request.url()).pathname);
    };
    page.on('request', onRequest);
    try {
      await page.goto(playUrl);
      await expect.poll(() => narrations().then((n) => n.length)).toBeGreaterThanOrEqual(3);
    } finally {
      page.off('request', onRequest);
    }
    expect(reads.filter((path) => path.endsWith('/history'))).toHaveLength(1);
    expect(reads.filter((path) => /\/turns\/[^/]+$/.test(path))).toEqual([]);
    expect(reads.filter((path) => path.endsWith('/schema'))).toHaveLength(1);
  });

  it('plays a turn and moves between panels with the keyboard alone', async () => {
    server.queueTurn({ narration: ['The reeds ', 'whisper ', 'back.'] });
    // A player arriving at the game: the page opens with the focus in the input.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    await page.reload();
    await expect.poll(() => focused()).toBe('player-input');
    await page.keyboard.type('I whisper to the reeds');
    await page.keyboard.press('Enter');
    await expect.poll(() => lastNarration(), { timeout: 15_000 }).toContain('whisper back.');
    // After the turn the input has the focus again; Tab reaches the selected panel tab (State), and the
    // arrow keys move between tabs.
    await expect.poll(() => focused()).toBe('player-input');
    for (let i = 0; i < 5 && (await focused()) !== 'tab-state'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('tab-state');
    await page.keyboard.press('ArrowLeft'); // wraps round to the last tab
    expect(await focused()).toBe('tab-author');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('tab-world').getAttribute('aria-selected')).toBe('true');
    expect(await focused()).toBe('tab-world');
    await expect.poll(() => page.getByTestId('world-panel').isVisible()).toBe(true);
    expect(await textOf('world-panel')).toContain('Scene');
    await screenshot(page, '13-keyboard-world');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openTab('state');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const input = await page.getByTestId('player-input').boundingBox();
    expect(input).not.toBeNull();
    expect((input?.x ?? 0) + (input?.width ?? 0)).toBeLessThanOrEqual(390);
    await screenshot(page, '14-phone');
    expect(foreignRequests).toEqual([]);
  });
});
