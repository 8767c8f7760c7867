// A turn read aloud while it streams (src/apps/server/speech-parts.ts, live-narration.ts, the route
// `GET …/turns/:turnId/speech/:part`), over the real HTTP server with real SSE, a narrator that streams
// slowly and the fake OpenAI-compatible speech server: part 0 (the first sentence) is spoken before the
// narration's last piece reaches the player; the parts, asked for one after another, read the whole
// narration in order and end in a 204; the same parts come back after the commit; the player's lines take
// the persona's voice; the part number's limit, the wait's limit, a turn that never commits, and a speech
// server that hangs without holding up the turn.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { espeakInstalled, readWav } from '../../../src/adapters/media/index.ts';
import { DEFAULT_SPEECH_LIMITS } from '../../../src/core/media/index.ts';
import { type FakeMedia, startFakeMedia } from '../../helpers/fake-media-server.ts';
import { startTestServer, type TestServer } from '../web/helpers/server.ts';

let fake: FakeMedia;
let server: TestServer;
let impatient: TestServer;
let staticDir: string;

const NARRATION = [
  'The lantern gutters. ',
  'Rain needles the glass. ',
  '"Sit," says Mother Hesk. ',
  '"Thanks," you say. ',
  'The fire ',
  'settles.',
];

beforeAll(async () => {
  fake = await startFakeMedia();
  staticDir = mkdtempSync(join(tmpdir(), 'mnesos-speech-parts-'));
  const media = {
    speech: { kind: 'http', config: { baseUrl: fake.url, model: 'tts-1' } },
    voices: { narrator: 'nar', npcs: new Map([['Mother Hesk', 'hesk']]) },
  } as const;
  server = await startTestServer(staticDir, { media });
  impatient = await startTestServer(staticDir, { media: { ...media, partWaitMs: 300 } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await impatient?.close();
  await fake?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

const speechInputs = () =>
  fake.requests.filter((r) => r.path === '/v1/audio/speech').map((r) => String(r.body.input));

async function newSession(on: TestServer, personaId?: string): Promise<string> {
  const created = await fetch(`${on.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartridge: 'Lanternmere', ...(personaId ? { personaId } : {}) }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { session: { id: string } }).session.id;
}

interface StreamedTurn {
  /** The turn's id, from its `start` event. */
  readonly turnId: Promise<string>;
  /** When each narration event arrived (ms since the request), and its text. */
  readonly narration: Array<{ at: number; text: string }>;
  /** Resolves with the last event's name when the stream ends. */
  readonly done: Promise<string>;
  readonly abort: () => void;
}

/** Plays a turn with `Accept: text/event-stream`, reading its events as they come. */
function streamTurn(on: TestServer, sessionId: string, input: string): StreamedTurn {
  const controller = new AbortController();
  const started = Date.now();
  const narration: Array<{ at: number; text: string }> = [];
  let gotTurnId: (id: string) => void = () => undefined;
  const turnId = new Promise<string>((resolve) => {
    gotTurnId = resolve;
  });
  const done = (async () => {
    const response = await fetch(`${on.url}/v1/sessions/${sessionId}/turns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ input }),
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let last = '';
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (ended) return last;
      buffer += value;
      for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data === undefined) continue;
        last = event;
        const parsed = JSON.parse(data) as { turnId?: string; text?: string };
        if (event === 'start') gotTurnId(parsed.turnId ?? '');
        if (event === 'narration') narration.push({ at: Date.now() - started, text: parsed.text ?? '' });
      }
    }
  })();
  return { turnId, narration, done, abort: () => controller.abort() };
}

async function part(on: TestServer, sessionId: string, turnId: string, index: number): Promise<Response> {
  return fetch(`${on.url}/v1/sessions/${sessionId}/turns/${turnId}/speech/${index}`);
}

/** Reads parts 0, 1, … until a 204; each part's text from its fake WAV, and when it was answered. */
async function readAll(
  on: TestServer,
  sessionId: string,
  turnId: string,
): Promise<Array<{ text: string; status: number; last: string | null }>> {
  const parts: Array<{ text: string; status: number; last: string | null }> = [];
  for (let index = 0; index <= DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn; index++) {
    const response = await part(on, sessionId, turnId, index);
    if (response.status === 204) return parts;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = readWav(Buffer.from(await response.arrayBuffer()));
    const samples = wav.samples;
    let text = '';
    for (let i = 0; i + 1 < samples.length; i += 2) text += String.fromCharCode(samples.readUInt16LE(i));
    parts.push({ text, status: response.status, last: response.headers.get('x-mnesos-speech-last') });
  }
  throw new Error('the reading never ended');
}

describe('speech parts while the narration streams', () => {
  it('speaks the first sentence before the narration ends, then the rest in order, and the same after the commit', async () => {
    const sessionId = await newSession(server);
    fake.requests.length = 0;
    server.queueTurn({ narration: NARRATION, delayMs: 400 });
    const turn = streamTurn(server, sessionId, 'I wait by the fire');
    const turnId = await turn.turnId;
    const first = await part(server, sessionId, turnId, 0);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // The first sentence was spoken while the narration had not all arrived.
    expect(speechInputs()).toEqual(['The lantern gutters.']);
    expect(turn.narration.map((n) => n.text).join('')).not.toContain('settles.');

    const rest = await readAll(server, sessionId, turnId);
    expect(await turn.done).toBe('committed');
    expect(rest.map((p) => p.text)).toEqual([
      'The lantern gutters.',
      'Rain needles the glass.',
      'Sit,',
      'says Mother Hesk.',
      'Thanks,',
      'you say. The fire settles.',
    ]);
    expect(rest.at(-1)?.last).toBe('true');
    expect(rest.slice(0, -1).every((p) => p.last === 'false')).toBe(true);
    const voices = fake.requests.filter((r) => r.path === '/v1/audio/speech').map((r) => r.body.voice);
    expect(voices.slice(1)).toEqual(['nar', 'nar', 'hesk', 'nar', 'nar', 'nar']);

    // After the commit the parts are read from the stored turn: the same texts.
    const again = await readAll(server, sessionId, turnId);
    expect(again.map((p) => p.text)).toEqual(rest.map((p) => p.text));
  });

  it('reads the player’s lines in the voice of the session’s persona', async () => {
    const persona = await fetch(`${server.url}/v1/personas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Wren',
        pronoun_sub: 'she',
        pronoun_obj: 'her',
        pronoun_poss: 'her',
        pronoun_poss_obj: 'hers',
        voice: 'wren-voice',
      }),
    });
    expect(persona.status).toBe(201);
    const { persona: view } = (await persona.json()) as { persona: { id: string; voice: string } };
    expect(view.voice).toBe('wren-voice');
    const sessionId = await newSession(server, view.id);
    server.queueTurn({ narration: ['"Evening," you say. ', 'Nobody answers.'], delayMs: 50 });
    const turn = streamTurn(server, sessionId, 'I greet the room');
    const turnId = await turn.turnId;
    expect(await turn.done).toBe('committed');
    fake.requests.length = 0;
    const parts = await readAll(server, sessionId, turnId);
    expect(parts.map((p) => p.text)).toEqual(['Evening,', 'you say. Nobody answers.']);
    expect(fake.requests.map((r) => r.body.voice)).toEqual(['wren-voice', 'nar']);
    // The whole-turn reading gives the persona's voice too.
    fake.requests.length = 0;
    expect((await fetch(`${server.url}/v1/sessions/${sessionId}/turns/${turnId}/speech`)).status).toBe(200);
    expect(fake.requests.map((r) => r.body.voice)).toEqual(['wren-voice', 'nar']);
  });

  it('a persona voice of 80 characters is kept; 81 is refused, naming the field', async () => {
    const body = (voice: string) =>
      JSON.stringify({
        name: 'Ash',
        pronoun_sub: 'they',
        pronoun_obj: 'them',
        pronoun_poss: 'their',
        pronoun_poss_obj: 'theirs',
        voice,
      });
    const post = (voice: string) =>
      fetch(`${server.url}/v1/personas`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(voice),
      });
    expect((await post('v'.repeat(80))).status).toBe(201);
    const past = await post('v'.repeat(81));
    expect(past.status).toBe(400);
    expect(JSON.stringify(await past.json())).toContain('voice');
  });

  it(`part ${DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn - 1} is asked for (204: no such part); part ${DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn} is refused`, async () => {
    const sessionId = await newSession(server);
    server.queueTurn({ narration: ['Short.'], delayMs: 10 });
    const turn = streamTurn(server, sessionId, 'I look');
    const turnId = await turn.turnId;
    await turn.done;
    const at = await part(server, sessionId, turnId, DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn - 1);
    expect(at.status).toBe(204);
    const past = await part(server, sessionId, turnId, DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn);
    expect(past.status).toBe(400);
  });

  it('a part that does not come within the wait is a 504; the turn goes on and commits', async () => {
    const sessionId = await newSession(impatient);
    impatient.queueTurn({ narration: ['A long ', 'breath ', 'without ', 'an end'], delayMs: 200 });
    const turn = streamTurn(impatient, sessionId, 'I hold my breath');
    const turnId = await turn.turnId;
    const waited = await part(impatient, sessionId, turnId, 0);
    expect(waited.status).toBe(504);
    expect(((await waited.json()) as { error: { code: string } }).error.code).toBe('not_ready');
    expect(await turn.done).toBe('committed');
  });

  it('a turn stopped before it commits: the waiting part is a 404', async () => {
    const sessionId = await newSession(server);
    server.queueTurn({ narration: ['No sentence ', 'ends ', 'here ', 'at all'], delayMs: 300 });
    const turn = streamTurn(server, sessionId, 'I start to speak');
    const turnId = await turn.turnId;
    const waiting = part(server, sessionId, turnId, 0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    turn.abort();
    expect((await waiting).status).toBe(404);
  });

  it('a speech server that hangs holds up no turn: the narration streams and commits on time', async () => {
    const sessionId = await newSession(server);
    fake.mode = 'hang';
    try {
      server.queueTurn({ narration: ['One. ', 'Two. ', 'Three.'], delayMs: 100 });
      const started = Date.now();
      const turn = streamTurn(server, sessionId, 'I count');
      const turnId = await turn.turnId;
      const controller = new AbortController();
      const hanging = fetch(`${server.url}/v1/sessions/${sessionId}/turns/${turnId}/speech/0`, {
        signal: controller.signal,
      }).catch(() => undefined);
      expect(await turn.done).toBe('committed');
      // Three pieces 100 ms apart, on a loaded machine: well under the speech request's 30 s.
      expect(Date.now() - started).toBeLessThan(10_000);
      controller.abort();
      await hanging;
    } finally {
      fake.mode = 'ok';
    }
  });
});

describe('speech parts with the real espeak-ng', () => {
  const installed = espeakInstalled();
  if (!installed) {
    console.log(
      'espeak-ng is not installed: the espeak-ng speech-parts test is skipped (.ci/run installs it)',
    );
    if (process.env.CI === 'true') throw new Error('espeak-ng must be installed under CI=true (.ci/run)');
  }

  it.runIf(installed)(
    'speaks the first sentence of a streaming narration as a playable WAV before it ends',
    async () => {
      const spoken = await startTestServer(staticDir, {
        media: {
          speech: { kind: 'espeak' },
          voices: { narrator: 'en', npcs: new Map([['Mother Hesk', 'en-us+f3']]) },
        },
      });
      try {
        const sessionId = await newSession(spoken);
        spoken.queueTurn({
          narration: ['The lantern gutters. ', '"Sit," says Mother Hesk. ', 'Rain.'],
          delayMs: 700,
        });
        const turn = streamTurn(spoken, sessionId, 'I sit');
        const turnId = await turn.turnId;
        const first = await part(spoken, sessionId, turnId, 0);
        expect(first.status).toBe(200);
        const wav = readWav(Buffer.from(await first.arrayBuffer()));
        expect(wav.samples.length).toBeGreaterThan(1000);
        expect(turn.narration.map((n) => n.text).join('')).not.toContain('Rain.');
        const second = await part(spoken, sessionId, turnId, 1);
        expect(second.status).toBe(200);
        expect(readWav(Buffer.from(await second.arrayBuffer())).samples.length).toBeGreaterThan(1000);
        expect(await turn.done).toBe('committed');
      } finally {
        await spoken.close();
      }
    },
  );
});
