// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A turn read aloud and pictured over the real HTTP server (src/apps/server/routes/turn-media.ts), with the
// fake OpenAI-compatible speech and image server: the WAV of the narration, the picture's prompt built from
// the scene and public state (the dial-secret fixture's private combination never reaches the provider), the
// cartridge's picture_style line, the picture stored with the turn and counted in the storage quota (at the
// quota and past it), one at a time per caller, provider failures as 502, and both off without a provider.

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWav } from '../../../src/adapters/media/index.ts';
import { NO_MEDIA, type ServerMedia } from '../../../src/apps/server/index.ts';
import { type FakeMedia, startFakeMedia, TINY_PNG } from '../../helpers/fake-media-server.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { KEY_A, startTestServer, type TestServer } from '../../apps/server/helpers.ts';
import { FIXTURES } from '../../engine/turn/helpers.ts';
import { SECRET } from '../../engine/turn/private-derived-fixture.ts';

const STYLE = 'Ink and watercolour, muted colours.';

let fake: FakeMedia;
let dir: string;
const servers: TestServer[] = [];

function mediaOf(url: string): ServerMedia {
  return {
    speech: { kind: 'http', config: { baseUrl: url, model: 'tts-1' } },
    images: { baseUrl: url, model: 'img-1' },
    voices: { narrator: 'nova', npcs: new Map() },
  };
}

async function serverWith(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer({ cartridgeDirs: [join(dir, 'dial-secret')], ...options });
  servers.push(server);
  return server;
}

/** A session on the dial-secret cartridge with one played turn; its id and the turn's. */
async function playedTurn(
  server: TestServer,
  key?: string,
): Promise<{ id: string; turnId: string; narration: string }> {
  const auth = key === undefined ? {} : { key };
  const created = await server.json('/v1/sessions', {
    method: 'POST',
    json: { cartridge: 'Dial Secret' },
    ...auth,
  });
  expect(created.status).toBe(201);
  const id = created.body.session.id as string;
  const played = await server.json(`/v1/sessions/${id}/turns`, {
    method: 'POST',
    json: { input: '/via_temp' },
    ...auth,
  });
  expect(played.status).toBe(201);
  return { id, turnId: played.body.turn.id, narration: played.body.turn.narration };
}

beforeAll(async () => {
  fake = await startFakeMedia();
  dir = mkdtempSync(join(tmpdir(), 'mnesos-turn-media-'));
  cpSync(join(FIXTURES, 'dial-secret'), join(dir, 'dial-secret'), { recursive: true });
  writeFileSync(join(dir, 'dial-secret', 'prompt_directives.yaml'), `picture_style: ${STYLE}\n`);
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a turn read aloud and pictured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith({ media: mediaOf(fake.url) });
  });

  it('GET …/speech answers the narration as one WAV, in the narrator’s voice', async () => {
    const { id, turnId, narration } = await playedTurn(server);
    expect(narration).toContain('The dial clicks');
    fake.requests.length = 0;
    const response = await server.call(`/v1/sessions/${id}/turns/${turnId}/speech`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = readWav(Buffer.from(await response.arrayBuffer()));
    const spoken = fake.requests.filter((r) => r.path === '/v1/audio/speech');
    expect(spoken.length).toBeGreaterThan(0);
    expect(spoken.every((r) => r.body.voice === 'nova')).toBe(true);
    // The fake speaks one sample per character: the samples read back as the text it was sent.
    let text = '';
    for (let i = 0; i + 1 < wav.samples.length; i += 2)
      text += String.fromCharCode(wav.samples.readUInt16LE(i));
    expect(text).toContain('The dial clicks');
    expect(text).not.toContain(SECRET);
  });

  it('POST …/picture builds the prompt from the scene, public state and style, never a private field', async () => {
    const { id, turnId } = await playedTurn(server);
    fake.requests.length = 0;
    const made = await server.json(`/v1/sessions/${id}/turns/${turnId}/picture`, { method: 'POST' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ turnId, mediaType: 'image/png', bytes: TINY_PNG.length });
    const sent = fake.requests.find((r) => r.path === '/v1/images/generations');
    const prompt = String(sent?.body.prompt);
    expect(sent?.body.model).toBe('img-1');
    expect(prompt).toContain(`Style: ${STYLE}`);
    expect(prompt).toContain('The dial clicks');
    expect(prompt).toContain('room.visits: 1');
    expect(prompt).toContain('Counting Room');
    expect(prompt).not.toContain(SECRET);
    expect(prompt).not.toContain('3d5');
    expect(made.body.prompt).toBe(prompt);

    const image = await server.call(made.body.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(TINY_PNG)).toBe(true);
    const listed = await server.json('/v1/cartridges');
    expect(listed.body.storage.pictureBytes).toBe(TINY_PNG.length);
  });

  it('a turn with no picture, or of no such session, is a 404', async () => {
    const { id, turnId } = await playedTurn(server);
    expect((await server.json(`/v1/sessions/${id}/turns/${turnId}/picture`)).status).toBe(404);
    expect((await server.json(`/v1/sessions/nope/turns/${turnId}/picture`, { method: 'POST' })).status).toBe(
      404,
    );
    expect((await server.json(`/v1/sessions/nope/turns/${turnId}/speech`)).status).toBe(404);
  });

  it('one reading or picture at a time per caller: a second while one hangs is 429; a failing provider is 502', async () => {
    const { id, turnId } = await playedTurn(server);
    fake.mode = 'hang';
    const controller = new AbortController();
    const hanging = server.call(`/v1/sessions/${id}/turns/${turnId}/speech`, { signal: controller.signal });
    hanging.catch(() => undefined);
    await expect.poll(() => fake.requests.some((r) => r.path === '/v1/audio/speech')).toBe(true);
    const second = await server.json(`/v1/sessions/${id}/turns/${turnId}/picture`, { method: 'POST' });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('media_busy');
    // The client going away cancels the reading and frees the caller's place.
    controller.abort();
    fake.mode = 'error';
    await expect
      .poll(
        async () =>
          (await server.json(`/v1/sessions/${id}/turns/${turnId}/picture`, { method: 'POST' })).status,
      )
      .toBe(502);
    fake.mode = 'ok';
  });
});

describe('the storage quota counts pictures', () => {
  it('stores a picture that reaches the quota exactly, and refuses one that passes it', async () => {
    // With API keys each key's quota is its own: nothing stored yet (the cartridge is the server's own).
    const atQuota = await serverWith({
      media: mediaOf(fake.url),
      apiKeys: parseApiKeys(`alice=${KEY_A}`),
      limits: { cartridgeQuotaBytes: TINY_PNG.length },
    });
    const picture = (turn: { id: string; turnId: string }) =>
      atQuota.json(`/v1/sessions/${turn.id}/turns/${turn.turnId}/picture`, { method: 'POST', key: KEY_A });
    const first = await playedTurn(atQuota, KEY_A);
    expect((await picture(first)).status).toBe(200);
    // Picturing the same turn again replaces its picture: still within the quota.
    expect((await picture(first)).status).toBe(200);
    const storage = (await atQuota.json('/v1/cartridges', { key: KEY_A })).body.storage;
    expect(storage).toMatchObject({ usedBytes: TINY_PNG.length, pictureBytes: TINY_PNG.length });
    const second = await playedTurn(atQuota, KEY_A);
    const past = await picture(second);
    expect(past.status).toBe(413);
    expect(past.body.error.code).toBe('quota_exceeded');
    const kept = await atQuota.call(`/v1/sessions/${first.id}/turns/${first.turnId}/picture`, { key: KEY_A });
    expect(kept.status).toBe(200);
  });
});

describe('off without a provider', () => {
  it('speech_off and pictures_off, and the provider is never called', async () => {
    const off = await serverWith({ media: NO_MEDIA });
    const { id, turnId } = await playedTurn(off);
    fake.requests.length = 0;
    const speech = await off.json(`/v1/sessions/${id}/turns/${turnId}/speech`);
    expect(speech.status).toBe(404);
    expect(speech.body.error.code).toBe('speech_off');
    const picture = await off.json(`/v1/sessions/${id}/turns/${turnId}/picture`, { method: 'POST' });
    expect(picture.status).toBe(404);
    expect(picture.body.error.code).toBe('pictures_off');
    expect(fake.requests).toEqual([]);
  });
});
