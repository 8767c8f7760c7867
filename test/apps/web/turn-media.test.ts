// A turn read aloud and pictured in the web client (src/apps/web/play/turn-media.tsx), in headless Chromium
// against the real server with the fake OpenAI-compatible speech and image server: the play control fetches
// the turn's WAV and loads it into an audio element, the picture button has the scene pictured and shows it,
// and "Read new turns aloud" reads the next turn as it arrives, not the turn the page opened on; a turn played with it
// on is read part by part while its narration streams (parts in order, Stop ends it), and a swipe reads a version
// the page had not shown, once.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './helpers/browser.ts';
import { type ClientPage, openClientPage } from './helpers/client-page.ts';
import { type FakeMedia, startFakeMedia } from '../../helpers/fake-media-server.ts';

const chromium = chromiumAvailable('the web client voices and pictures tests');

let fake: FakeMedia;
let client: ClientPage | undefined;
let page: Page;

beforeAll(async () => {
  if (!chromium) return;
  fake = await startFakeMedia();
  client = await openClientPage({
    viewport: { width: 1280, height: 900 },
    actionTimeoutMs: 10_000,
    media: {
      speech: { kind: 'http', config: { baseUrl: fake.url, model: 'tts-1' } },
      images: { baseUrl: fake.url, model: 'img-1' },
      voices: { npcs: new Map() },
    },
  });
  page = client.page;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await fake?.close();
});

const speechRequests = () => fake.requests.filter((r) => r.path === '/v1/audio/speech');

describe.runIf(chromium)('voices and pictures in the web client', () => {
  it('reads a turn aloud into an audio element and pictures its scene', async () => {
    const created = await fetch(`${client!.server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartridge: 'Lanternmere' }),
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: { id: string } };
    await page.goto(`${client!.server.url}/#/play/${session.id}`);
    const read = page.getByTestId('read-aloud').first();
    await read.click();
    await expect.poll(() => speechRequests().length).toBeGreaterThan(0);
    // The fake's WAV has one sample per character at 8 kHz: the audio element reads its length.
    await expect
      .poll(() =>
        page
          .getByTestId('turn-audio')
          .first()
          .evaluate((a) => (a as HTMLAudioElement).duration),
      )
      .toBeGreaterThan(0);
    expect(speechRequests().every((r) => typeof r.body.input === 'string' && r.body.input !== '')).toBe(true);

    await page.getByTestId('make-picture').first().click();
    const picture = page.getByTestId('turn-picture').first();
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth).catch(() => 0))
      .toBe(1);
    expect(fake.requests.some((r) => r.path === '/v1/images/generations')).toBe(true);
    // The stored picture is shown again when the page is opened again.
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByTestId('turn-picture')
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth)
          .catch(() => 0),
      )
      .toBe(1);
  });

  it('with "Read new turns aloud" on, the next turn is read as it arrives', async () => {
    await page.getByTestId('auto-read').check();
    fake.requests.length = 0;
    client!.server.queueTurn({ narration: ['The lantern ', 'gutters ', 'and glows.'] });
    const input = page.getByTestId('player-input');
    await input.fill('I trim the lantern');
    await input.press('Enter');
    await expect
      .poll(
        () =>
          speechRequests()
            .map((r) => String(r.body.input))
            .join(' '),
        { timeout: 20_000 },
      )
      .toContain('gutters');
    // Only the new turn was read, not the one the page opened on.
    for (const request of speechRequests())
      expect('The lantern gutters and glows.').toContain(String(request.body.input).trim());
  });
});

/** Records every value the live reading's `data-played` takes (the parts it started, in order). */
async function watchPlayed(): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { played: string[] };
    w.played = [];
    new MutationObserver(() => {
      const value = document.querySelector('[data-testid="live-reading"]')?.getAttribute('data-played');
      if (value && w.played.at(-1) !== value) w.played.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}
const played = () => page.evaluate(() => (window as unknown as { played: string[] }).played);

async function send(text: string): Promise<void> {
  const input = page.getByTestId('player-input');
  await input.fill(text);
  await input.press('Enter');
}

/** Waits for the turn to be committed and shown (no live narration left). */
async function settled(): Promise<void> {
  await expect.poll(() => page.getByTestId('live-narration').count(), { timeout: 30_000 }).toBe(0);
}

describe.runIf(chromium)('reading a turn aloud as its narration streams', () => {
  it('asks for the first sentence before the narration ends, plays the parts in order, and does not read the turn again', async () => {
    await page.getByTestId('auto-read').check();
    await settled();
    await watchPlayed();
    fake.requests.length = 0;
    client!.server.queueTurn({
      narration: ['The fog lifts. ', 'A bell rings. ', 'Gulls cry. ', 'The tide turns. ', 'Night falls.'],
      delayMs: 700,
    });
    await send('I listen');
    await expect.poll(() => speechRequests().length, { timeout: 20_000 }).toBeGreaterThan(0);
    // The first part was asked for while the narration was still streaming.
    const shown = (await page.getByTestId('live-narration').textContent()) ?? '';
    expect(shown).toContain('The fog lifts.');
    expect(shown).not.toContain('Night falls.');
    expect(speechRequests()[0]?.body.input).toBe('The fog lifts.');

    await settled();
    await expect.poll(() => page.getByTestId('live-reading').count(), { timeout: 20_000 }).toBe(0);
    expect(await played()).toEqual(['0', '0,1']);
    expect(speechRequests().map((r) => r.body.input)).toEqual([
      'The fog lifts.',
      'A bell rings. Gulls cry. The tide turns. Night falls.',
    ]);
    // The committed turn is not read a second time.
    await page.waitForTimeout(1_000);
    expect(speechRequests()).toHaveLength(2);
    expect(await page.getByTestId('live-reading-failed').count()).toBe(0);
  });

  it('Stop ends the reading: no part after it is asked of the speech server', async () => {
    fake.requests.length = 0;
    client!.server.queueTurn({
      narration: ['The door opens. ', 'Wind ', 'howls ', 'through. ', 'Snow follows.'],
      delayMs: 600,
    });
    await send('I open the door');
    await expect.poll(() => speechRequests().length, { timeout: 20_000 }).toBe(1);
    await page.getByTestId('live-reading-stop').click();
    await expect.poll(() => page.getByTestId('live-reading').count()).toBe(0);
    await settled();
    await page.waitForTimeout(1_000);
    expect(speechRequests().map((r) => r.body.input)).toEqual(['The door opens.']);
  });

  it('a swipe reads a version this page had not shown, once; versions already shown are not read again', async () => {
    await page.getByTestId('auto-read').uncheck();
    client!.server.queueTurn({ narration: ['Version one ', 'speaks.'], delayMs: 20 });
    await send('I wait');
    await settled();
    client!.server.queueTurn({ narration: ['Version two ', 'speaks.'], delayMs: 20 });
    await page.getByTestId('regenerate').click();
    await settled();
    // The page opens again on version two; version one is in the tree, not shown.
    await page.reload();
    await expect.poll(() => page.getByTestId('swipe-position').last().textContent()).toBe('2/2');
    await page.getByTestId('auto-read').check();
    fake.requests.length = 0;

    await page.getByTestId('swipe-prev').last().click();
    await expect.poll(() => page.getByTestId('swipe-position').last().textContent()).toBe('1/2');
    await expect.poll(() => speechRequests().map((r) => r.body.input)).toEqual(['Version one speaks.']);
    // Back and forth again: the page has shown both (version two is the one it opened on).
    await page.getByTestId('swipe-next').last().click();
    await expect.poll(() => page.getByTestId('swipe-position').last().textContent()).toBe('2/2');
    await page.getByTestId('swipe-prev').last().click();
    await expect.poll(() => page.getByTestId('swipe-position').last().textContent()).toBe('1/2');
    await page.waitForTimeout(1_000);
    expect(speechRequests()).toHaveLength(1);

    // A new version played with auto-read on is read as it streams, and not again once committed.
    fake.requests.length = 0;
    client!.server.queueTurn({ narration: ['Version three ', 'speaks.'], delayMs: 20 });
    await page.getByTestId('regenerate').click();
    await settled();
    await expect.poll(() => page.getByTestId('swipe-position').last().textContent()).toBe('3/3');
    await expect.poll(() => page.getByTestId('live-reading').count(), { timeout: 20_000 }).toBe(0);
    await page.waitForTimeout(1_000);
    expect(speechRequests().map((r) => r.body.input)).toEqual(['Version three speaks.']);
  });

  it('a persona given a voice in its form reads the player’s lines in that voice', async () => {
    await page.goto(client!.server.url);
    await page.getByTestId('persona-new').click();
    await page.getByTestId('persona-name').fill('Wren');
    await page.getByTestId('persona-voice').fill('wren-voice');
    await page.getByTestId('persona-save').click();
    await expect
      .poll(() => page.getByTestId('persona-item').allTextContents())
      .toContainEqual(expect.stringContaining('Wren'));
    const listed = (await (await fetch(`${client!.server.url}/v1/personas`)).json()) as {
      personas: Array<{ id: string; name: string; voice?: string }>;
    };
    const wren = listed.personas.find((p) => p.name === 'Wren');
    expect(wren?.voice).toBe('wren-voice');

    const created = await fetch(`${client!.server.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartridge: 'Lanternmere', personaId: wren?.id }),
    });
    const { session } = (await created.json()) as { session: { id: string } };
    await page.goto(`${client!.server.url}/#/play/${session.id}`);
    await page.getByTestId('auto-read').check();
    fake.requests.length = 0;
    client!.server.queueTurn({ narration: ['"Evening," you say. ', 'Nobody answers.'], delayMs: 20 });
    await send('I greet the room');
    await expect
      .poll(() => speechRequests().map((r) => [r.body.input, r.body.voice]), { timeout: 20_000 })
      .toEqual([
        ['Evening,', 'wren-voice'],
        ['you say. Nobody answers.', 'alloy'],
      ]);
  });
});
