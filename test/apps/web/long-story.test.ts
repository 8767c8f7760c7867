// A long story in Chromium, on a phone's width: the play screen opens from the newest turns (one small
// history request), draws only a window of them, draws older turns as the player scrolls up without moving
// what they read, keeps the turns read when the player leaves and comes back, and a swipe away and back
// returns to the version chosen further down. Sessions are stored directly (as a long game leaves them).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OLDER_PAGE_TURNS, OPEN_TURNS } from '../../../src/apps/web/play/turn-cache.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import type { TestServer } from './helpers/server.ts';

const chromium = chromiumAvailable('the long-story browser tests');
const TURNS = 150;

let client: ClientPage | undefined;
let server: TestServer;
let page: Page;
/** The history requests the page made (path and query). */
const histories: string[] = [];
/** How many times the page read a session's tree (whole or its branch's end). */
let treeReads = 0;
/** The tree requests' queries: empty for the whole tree, `?limit=…` for the end of a branch. */
const trees: string[] = [];

async function newSession(): Promise<{ id: string; head: string }> {
  const created = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartridge: 'Lanternmere' }),
  });
  const { session } = (await created.json()) as { session: { id: string; headTurnId: string } };
  return { id: session.id, head: session.headTurnId };
}

/** Appends a turn after `parentId` directly to the store; returns its id. */
async function append(sessionId: string, parentId: string, text: string, seed: number): Promise<string> {
  const store = server.server.deps.store;
  const genesis = await store.getTurn(sessionId, parentId);
  const appended = await store.appendTurn({
    sessionId,
    parentId,
    input: { kind: 'text', text: `I go on (${text})` },
    narration: `Narration ${text}. The rain keeps falling on the quay.`,
    record: { kind: 'test' },
    state: genesis!.state,
    seed,
    createdAt: seed,
  });
  if (!appended.ok) throw new Error(appended.reason);
  return appended.turn.id;
}

async function moveHead(sessionId: string, turnId: string): Promise<void> {
  await fetch(`${server.url}/v1/sessions/${sessionId}/head`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ turnId }),
  });
}

const narrations = () => page.locator('[data-testid="narration"] .md').allTextContents();

beforeAll(async () => {
  if (!chromium) return;
  client = await openClientPage({ viewport: { width: 390, height: 844 }, actionTimeoutMs: 15_000 });
  ({ server, page } = client);
  page.on('request', (request) => {
    if (request.url().includes('/history')) histories.push(new URL(request.url()).search);
    if (new URL(request.url()).pathname.endsWith('/tree')) {
      treeReads += 1;
      trees.push(new URL(request.url()).search);
    }
  });
}, 120_000);

afterAll(() => client?.close());

describe.skipIf(!chromium)('a long story', () => {
  let sessionId = '';

  it(`opens a ${TURNS}-turn story from its newest ${OPEN_TURNS} turns, in one history request`, async () => {
    const { id, head } = await newSession();
    sessionId = id;
    let parent = head;
    for (let i = 1; i <= TURNS; i++) parent = await append(id, parent, `step ${i}`, i);
    await moveHead(id, parent);
    await page.goto(`${server.url}/#/play/${id}`);
    await page.locator('[data-testid="narration"]', { hasText: `step ${TURNS}.` }).waitFor();
    const shown = await narrations();
    expect(shown).toHaveLength(OPEN_TURNS);
    expect(shown[0]).toContain(`step ${TURNS - OPEN_TURNS + 1}.`);
    expect(histories).toEqual([expect.stringContaining(`limit=${OPEN_TURNS}`)]);
    // Not the whole tree: the end of the head's branch and its swipes, the same size at any length.
    expect(trees).toEqual([`?limit=${OPEN_TURNS}`]);
    await expect(page.getByTestId('story-earlier').count()).resolves.toBe(1);
  });

  it('draws older turns as the player scrolls up, keeping in place what they read', async () => {
    const firstId = await page.locator('[data-testid="narration"]').first().getAttribute('data-turn-id');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="narration"]').length >= n,
      OPEN_TURNS + OLDER_PAGE_TURNS,
    );
    // The turn that was at the top is still on screen (the new turns went above it): drawn without keeping
    // the place, it would sit some forty turns further down.
    const top = await page.evaluate(
      (id) => document.querySelector(`[data-turn-id="${id}"]`)?.getBoundingClientRect().top ?? -1,
      firstId,
    );
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(844);
    expect(histories.length).toBe(2);
    // The tree grew by the turns before the oldest one known, not read whole.
    expect(trees.length).toBe(2);
    expect(trees[1]).toMatch(new RegExp(`^\\?limit=${OLDER_PAGE_TURNS}&turnId=`));
    // Up to the first message: every turn is drawn once, none twice, and nothing is left to read.
    for (let i = 0; i < 10 && (await page.getByTestId('story-earlier').count()) > 0; i++) {
      await page.getByTestId('story-earlier').click();
      await page.waitForTimeout(200);
    }
    const all = await narrations();
    expect(all).toHaveLength(TURNS + 1);
    expect(new Set(all).size).toBe(TURNS + 1);
    expect(all.at(-1)).toContain(`step ${TURNS}.`);
    await screenshot(page, 'long-story-01-scrolled-up', 'view');
  });

  it('keeps the turns read when the player leaves and comes back', async () => {
    const before = histories.length;
    await page.goto(`${server.url}/#/library`);
    await page.getByRole('heading').first().waitFor();
    await page.goto(`${server.url}/#/play/${sessionId}`);
    await page.locator('[data-testid="narration"]', { hasText: `step ${TURNS}.` }).waitFor();
    expect(histories.length).toBe(before);
    expect(await narrations()).toHaveLength(OPEN_TURNS);
  });

  it('adds a played turn to the tree without reading it again, and undoes without reading it either', async () => {
    const before = treeReads;
    await page.getByTestId('player-input').fill('I look at the harbour');
    await page.getByTestId('player-input').press('Enter');
    await page.locator('[data-testid="narration"]', { hasText: 'The mist shifts and settles.' }).waitFor();
    await expect.poll(() => page.getByTestId('undo').isEnabled()).toBe(true);
    await page.getByTestId('undo').click();
    await expect
      .poll(async () => (await narrations()).at(-1))
      .toBe('Narration step 150. The rain keeps falling on the quay.');
    expect(treeReads).toBe(before);
    // The Tree panel reads the whole tree, once: it holds the turn played (#151, undone but kept).
    await page.getByTestId('tab-tree').click();
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-depth="151"]').count()).toBe(1);
    expect(trees.slice(before)).toEqual(['']);
    await page.getByTestId('tab-state').click();
    await page.getByTestId('tab-tree').click();
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-depth="151"]').count()).toBe(1);
    expect(treeReads).toBe(before + 1);
  });

  it(`folds the Tree panel: a ${TURNS}-turn line is a few rows, and opens fifty turns at a time`, async () => {
    const nodes = page.locator('[data-testid="tree-node"]');
    const folded = await nodes.count();
    expect(folded).toBeLessThan(12);
    const fold = page.getByTestId('tree-fold').first();
    expect(await fold.textContent()).toMatch(/^⋯ \d+ turns$/);
    await fold.click();
    await expect.poll(() => nodes.count()).toBe(folded + 50);
    // The head is shown (the path's end), and the first message.
    expect(await page.locator('[data-testid="tree-node"][aria-current="true"]').count()).toBe(1);
    expect(await page.locator('[data-testid="tree-node"][data-depth="0"]').count()).toBe(1);
    await screenshot(page, 'long-story-02-tree-folded', 'view');
  });

  it('shows a branch off the path folded, and a mini-game result in words, in the tree', async () => {
    const { id, head } = await newSession();
    let side = await append(id, head, 'side 1', 1);
    for (let i = 2; i <= 4; i++) side = await append(id, side, `side ${i}`, i);
    const store = server.server.deps.store;
    const genesis = await store.getTurn(id, head);
    const game = await store.appendTurn({
      sessionId: id,
      parentId: head,
      input: { kind: 'text', text: '[minigame:lights_out status=completed moves_made=8]' },
      narration: 'The lights go out, one by one.',
      record: { kind: 'test' },
      state: genesis!.state,
      seed: 9,
      createdAt: 9,
    });
    if (!game.ok) throw new Error(game.reason);
    await moveHead(id, game.turn.id);
    await page.goto(`${server.url}/#/play/${id}`);
    await page.locator('[data-testid="narration"]', { hasText: 'one by one' }).waitFor();
    await page.getByTestId('tab-tree').click();
    const titles = () =>
      page.getByTestId('tree-node').evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
    await expect.poll(titles).toContain('Mini-game “lights out”: completed (moves made: 8).');
    expect((await titles()).filter((title) => title.includes('[minigame:'))).toEqual([]);
    // The side branch shows its first turn and one row for the rest.
    expect(await page.locator('[data-testid="tree-node"][data-depth="1"]').count()).toBe(2);
    expect(await page.locator('[data-testid="tree-node"][data-depth="2"]').count()).toBe(0);
    await page.getByTestId('tree-open-branch').click();
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-depth="4"]').count()).toBe(1);
  });

  it('swipes turn 1 away and back to the version chosen at the end (2/3, not 1/3)', async () => {
    const { id, head } = await newSession();
    const one = await append(id, head, 'one', 1);
    await append(id, head, 'one again', 2);
    const two = await append(id, one, 'two', 3);
    const ends = [await append(id, two, 'end A', 4), await append(id, two, 'end B', 5)];
    await append(id, two, 'end C', 6);
    await moveHead(id, ends[1]!);
    await page.goto(`${server.url}/#/play/${id}`);
    const positions = page.getByTestId('swipe-position');
    await expect.poll(() => positions.allTextContents()).toEqual(['1/2', '2/3']);
    await page.getByTestId('swipe-next').first().click();
    await expect.poll(() => positions.allTextContents()).toEqual(['2/2']);
    await page.getByTestId('swipe-prev').first().click();
    await expect.poll(() => positions.allTextContents()).toEqual(['1/2', '2/3']);
    expect(await narrations()).toContain('Narration end B. The rain keeps falling on the quay.');
  });
});
