// A fake OpenAI-compatible speech and image server for tests: real HTTP on 127.0.0.1 (port 0).
// `POST /v1/audio/speech` answers a WAV file (16-bit mono, 8 kHz) of one sample per character of `input`,
// each sample the character's code, so a test can read back which text was spoken in which order;
// `POST /v1/images/generations` answers `{ data: [{ b64_json }] }` of a small PNG. `mode` changes the next
// answers: `hang` never answers, `error` answers 500, `huge` answers more bytes than asked for.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMediaRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

export interface FakeMedia {
  /** The base URL (ends in `/v1`). */
  readonly url: string;
  readonly requests: FakeMediaRequest[];
  mode: 'ok' | 'hang' | 'error' | 'huge';
  close(): Promise<void>;
}

/** A 1×1 PNG (its bytes are what the server sends as the picture). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The WAV the fake speaks for `text`: one 16-bit sample per UTF-16 unit, the unit's code. */
export function fakeWav(text: string): Buffer {
  const samples = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) samples.writeUInt16LE(text.charCodeAt(i), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

export async function startFakeMedia(): Promise<FakeMedia> {
  const requests: FakeMediaRequest[] = [];
  const fake = { mode: 'ok' } as { mode: FakeMedia['mode'] };
  const server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      const path = request.url ?? '';
      requests.push({ path, authorization: request.headers.authorization, body });
      if (fake.mode === 'hang') return;
      if (fake.mode === 'error') {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
        return;
      }
      if (path === '/v1/audio/speech') {
        const wav = fake.mode === 'huge' ? Buffer.alloc(1024 * 1024) : fakeWav(String(body.input));
        response.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
      } else if (path === '/v1/images/generations') {
        const b64 = (fake.mode === 'huge' ? Buffer.alloc(1024 * 1024) : TINY_PNG).toString('base64');
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [{ b64_json: b64 }] }));
      } else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeMedia;
}
