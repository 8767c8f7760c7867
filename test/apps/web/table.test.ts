// A shared table in the web client, two players at once in two Chromium browser contexts: the owner invites
// (a link and a code), the second player opens the link and joins (a guest on a keyless server, their own
// key on a keyed one), both see who sits at the table, and each sees the other's turn arrive — its prose as
// it streams, then in the story — without reloading — and each sees their own character's sheet. Once on
// one server over SQLite; once on two server replicas sharing a PostgreSQL database (their buses joined by
// LISTEN/NOTIFY), each player on their own.
// Screenshots go to artifacts/web/.

import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { postgresAvailable, postgresHarness, testPgUrl } from '../../adapters/store/harness.ts';
import { chromiumAvailable, screenshot } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';

const chromium = chromiumAvailable('the shared-table browser tests');
const pgUrl = testPgUrl();
const postgres = chromium && (await postgresAvailable('the shared-table browser tests on PostgreSQL', pgUrl));
const ALICE = 'mnesos_web_table_key_alice_0123';
const BOB = 'mnesos_web_table_key_bob_012345';

type Calls = { name: string; args: Record<string, unknown> }[];

/**
 * Narration streamed slowly enough that the other player sees it arrive before the turn commits; the
 * Director first calls the rule events `calls()` names (none: it only describes).
 */
function models(narration: () => string, calls: () => Calls = () => []): () => ModelSet {
  return () => {
    const words = narration().split(/(?<= )/);
    const toolCalls = calls();
    const set = createScriptedModels({
      director: [...(toolCalls.length > 0 ? [{ toolCalls }] : []), { text: 'Describe it plainly.' }],
      narrator: [{ text: words.join(''), chunks: words }],
    });
    return set;
  };
}

/** What the state panel shows at `path` (the player's own sheet). */
async function stat(page: Page, path: string): Promise<string> {
  await page.getByTestId('tab-state').click();
  return (await page.getByTestId(`stat-${path}`).textContent()) ?? '';
}

/** Records every text the page's table panel shows of a turn another player is playing. */
async function watchLive(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { liveSeen: string[] };
    w.liveSeen = [];
    new MutationObserver(() => {
      const live = document.querySelector('[data-testid="table-live-narration"]');
      if (live?.textContent) w.liveSeen.push(live.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const liveSeen = (page: Page) => page.evaluate(() => (window as unknown as { liveSeen: string[] }).liveSeen);

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('player-input').fill(text);
  await page.getByTestId('send').click();
}

describe.skipIf(!chromium)('two players in two browsers', () => {
  let client: ClientPage | undefined;
  let next = 'The mist shifts.';
  let calls: Calls = [];
  let sqlite: RunningServer;
  beforeAll(async () => {
    client = await openClientPage({ viewport: { width: 1280, height: 900 }, actionTimeoutMs: 15_000 });
    sqlite = await startServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: ':memory:',
      models: models(
        () => next,
        () => calls,
      ),
      modelMode: 'online',
      staticDir: client.distDir,
      limits: { rateLimit: 100_000 },
    });
  }, 180_000);
  afterAll(async () => {
    await sqlite?.close();
    await client?.close();
  });

  it('on SQLite: the owner invites, a guest joins from the link, each sees the other’s turn live', async () => {
    const created = await fetch(`${sqlite.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartridge: 'Lanternmere' }),
    });
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
    const owner = client!.page;
    await owner.goto(`${sqlite.url}/#/play/${sessionId}`);
    await owner.getByTestId('table-invite').click();
    const link = await owner.getByTestId('table-invite-link').inputValue();
    expect(link).toContain('/?join=');
    expect(await owner.getByTestId('table-invite-code').textContent()).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const guestContext: BrowserContext = await client!.browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    const guest = await guestContext.newPage();
    guest.setDefaultTimeout(15_000);
    await guest.goto(link);
    await guest.getByTestId('join-name').fill('Mara');
    await guest.getByTestId('join-submit').click();
    await guest.waitForURL(`**/#/play/${sessionId}`);
    await expect.poll(() => guest.getByTestId('table-members').textContent()).toContain('Mara — you');
    await expect.poll(() => owner.getByTestId('table-members').textContent()).toContain('Mara');

    await watchLive(guest);
    next = 'Alice lifts the hook and lights the lamp on the post.';
    await send(owner, 'I light the lamp');
    await guest.getByTestId('narration').filter({ hasText: 'lights the lamp on the post' }).waitFor();
    expect((await liveSeen(guest)).some((text) => text.includes('lights'))).toBe(true);
    // The story says whose words they were.
    const said = guest.getByTestId('player-message').filter({ hasText: 'I light the lamp' });
    expect(await said.textContent()).toContain('local user');
    await screenshot(guest, 'table-guest-sees-owner-turn', 'view');

    await watchLive(owner);
    next = 'Mara counts her coins twice, slowly, by the lamp.';
    await send(guest, 'I count my coins');
    await owner.getByTestId('narration').filter({ hasText: 'counts her coins twice' }).waitFor();
    expect((await liveSeen(owner)).some((text) => text.includes('coins'))).toBe(true);
    // The owner steers (turn order); the guest does not see the control.
    expect(await owner.getByTestId('table-order').count()).toBe(1);
    expect(await guest.getByTestId('table-order').count()).toBe(0);
    // Undo and Regenerate are the owner's; the guest's story offers no edit (a branch) either.
    expect(await owner.getByTestId('undo').count()).toBe(1);
    await expect.poll(() => guest.getByTestId('undo').count()).toBe(0);
    expect(await guest.getByTestId('regenerate').count()).toBe(0);
    const guestEdits = guest.getByTestId('edit-message');
    expect(await guestEdits.count()).toBeGreaterThan(0);
    for (const edit of await guestEdits.all()) expect(await edit.isDisabled()).toBe(true);
    expect(await owner.getByTestId('edit-message').first().isDisabled()).toBe(false);
    await screenshot(owner, 'table-owner-sees-guest-turn', 'view');

    // Each player's own sheet: the owner walks to the market; the guest's character stays at the inn.
    calls = [{ name: 'travel', args: { destination: 'brine market' } }];
    next = 'The owner crosses the plank-way to the brine market.';
    await send(owner, 'I walk to the market');
    await guest.getByTestId('narration').filter({ hasText: 'to the brine market' }).waitFor();
    await expect.poll(() => stat(owner, 'player.location')).toContain('brine market');
    await expect.poll(() => stat(guest, 'player.location')).toContain('tallow rest');
    // The guest walks elsewhere: each sheet follows its own character, both after the same two turns.
    calls = [{ name: 'travel', args: { destination: 'drowned chapel' } }];
    next = 'Mara takes the long way out to the drowned chapel.';
    await send(guest, 'I walk to the chapel');
    await owner.getByTestId('narration').filter({ hasText: 'to the drowned chapel' }).waitFor();
    calls = [];
    await expect.poll(() => stat(guest, 'player.location')).toContain('drowned chapel');
    await expect.poll(() => stat(owner, 'player.location')).toContain('brine market');
    await screenshot(guest, 'table-guest-own-sheet', 'view');

    // Rounds: the guest's action from the story's own input is kept (a reply, not an error, the box
    // emptied) until the owner acts too; then the round plays as one turn for both.
    await owner.getByTestId('table-order').selectOption('rounds');
    await expect.poll(() => guest.getByTestId('table-round').count()).toBe(1);
    next = 'Both of them bend over the map together.';
    await send(guest, 'I unfold the map');
    await expect
      .poll(() => guest.getByTestId('play-reply').textContent())
      .toContain('Your action is in for round 1; it plays when local_user has acted');
    expect(await guest.getByTestId('play-error').count()).toBe(0);
    expect(await guest.getByTestId('player-input').inputValue()).toBe('');
    await expect.poll(() => owner.getByTestId('table-round').textContent()).toContain('Mara acted');
    await send(owner, 'I hold the lamp over it');
    await guest.getByTestId('narration').filter({ hasText: 'bend over the map' }).waitFor();
    await owner.getByTestId('narration').filter({ hasText: 'bend over the map' }).waitFor();
    // The round's words: labelled as a round, each character's action on its own line.
    const round = guest.getByTestId('player-message').filter({ hasText: 'I unfold the map' });
    expect(await round.locator('.who').textContent()).toContain('Round');
    expect(await round.locator('p').first().textContent()).toBe(
      'Mara: I unfold the maplocal user: I hold the lamp over it',
    );
    expect(await round.locator('p br').count()).toBe(1);
    await screenshot(guest, 'table-guest-round-played', 'view');
    await guestContext.close();
  }, 120_000);

  describe.skipIf(!postgres)('on two replicas over PostgreSQL', () => {
    const harness = postgresHarness(pgUrl);
    let replicas: RunningServer[] = [];
    beforeAll(async () => {
      const url = await harness.freshUrl();
      const start = () =>
        startServer({
          host: '127.0.0.1',
          port: 0,
          databaseUrl: url,
          apiKeys: parseApiKeys(`alice=${ALICE},bob=${BOB}`),
          models: models(() => next),
          modelMode: 'online',
          staticDir: client!.distDir,
          limits: { rateLimit: 100_000 },
        });
      replicas = [await start(), await start()];
    }, 60_000);
    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.close()));
      await harness.cleanup();
    });

    async function keyedPage(key: string): Promise<{ context: BrowserContext; page: Page }> {
      const context = await client!.browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript((k) => sessionStorage.setItem('mnesos.apiKey', k), key);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    }

    it('Alice on one replica, Bob on the other: the invitation, the join and each turn cross over', async () => {
      const [one, two] = replicas as [RunningServer, RunningServer];
      const created = await fetch(`${one.url}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
        body: JSON.stringify({ cartridge: 'Lanternmere' }),
      });
      const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
      const alice = await keyedPage(ALICE);
      await alice.page.goto(`${one.url}/#/play/${sessionId}`);
      await alice.page.getByTestId('table-invite').click();
      const code = (await alice.page.getByTestId('table-invite-code').textContent()) ?? '';

      const bob = await keyedPage(BOB);
      await bob.page.goto(`${two.url}/?join=${code}`);
      await bob.page.getByTestId('join-submit').click();
      await bob.page.waitForURL(`**/#/play/${sessionId}`);
      await expect.poll(() => bob.page.getByTestId('table-members').textContent()).toContain('bob — you');
      await expect.poll(() => alice.page.getByTestId('table-members').textContent()).toContain('bob');

      await watchLive(bob.page);
      next = 'Alice crosses the plank-way toward the brine market stalls.';
      await send(alice.page, 'I cross to the market');
      await bob.page.getByTestId('narration').filter({ hasText: 'toward the brine market stalls' }).waitFor();
      expect((await liveSeen(bob.page)).some((text) => text.includes('plank-way'))).toBe(true);

      next = 'Bob follows a step behind, counting the lanterns as he goes.';
      await send(bob.page, 'I follow her');
      await alice.page.getByTestId('narration').filter({ hasText: 'counting the lanterns' }).waitFor();
      await screenshot(alice.page, 'table-replicas-alice', 'view');
      await screenshot(bob.page, 'table-replicas-bob', 'view');
      await alice.context.close();
      await bob.context.close();
    }, 120_000);
  });
});
