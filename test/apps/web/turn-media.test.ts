// A turn read aloud and pictured in the web client (src/apps/web/play/turn-media.tsx), in headless Chromium
// against the real server with the fake OpenAI-compatible speech and image server: the play control fetches
// the turn's WAV and loads it into an audio element, the picture button has the scene pictured and shows it,
// and "Read new turns aloud" reads the next turn as it arrives, not the turn the page opened on.

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
