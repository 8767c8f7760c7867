// The HTTP turn path's fast lanes, over real HTTP: a JSON body with a Content-Length is read
// straight from Node's request (whole when it arrives in pieces; a client that leaves mid-body harms
// nothing), a JSON answer is written whole (Content-Length, not chunked) with the security headers, and an
// event stream and an error answer carry the same headers.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, parseSse, startTestServer, type TestServer } from './helpers.ts';

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

function securityOf(headers: Headers): Record<string, string | null> {
  return Object.fromEntries(Object.keys(SECURITY).map((name) => [name, headers.get(name)]));
}

/** A POST written by hand: the headers, then each piece of the body after a pause; `end: false` leaves early. */
function rawPost(
  server: TestServer,
  path: string,
  declaredLength: number,
  pieces: readonly string[],
  end = true,
): Promise<{ status: number; text: string } | 'closed'> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(declaredLength) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (error) => (end ? reject(error) : resolve('closed')));
    void (async () => {
      for (const piece of pieces) {
        req.write(piece);
        await new Promise((done) => setTimeout(done, 30));
      }
      if (end) req.end();
      else {
        req.destroy();
        resolve('closed');
      }
    })();
  });
}

describe('the HTTP turn path', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { rateLimit: 0 } });
  });
  afterAll(() => server.stop());

  it('a JSON turn is answered whole: Content-Length, not chunked, with the security headers', async () => {
    const { id } = await newSession(server);
    const response = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/check_pack' },
    });
    const text = await response.text();
    expect(response.status).toBe(201);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(response.headers.get('x-mnesos-model-mode')).toBe('offline');
    expect(securityOf(response.headers)).toEqual(SECURITY);
    expect(JSON.parse(text).turn.depth).toBe(1);
  });

  it('an event stream and an error answer carry the security headers too', async () => {
    const { id } = await newSession(server);
    const stream = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: { accept: 'text/event-stream' },
      json: { input: '/check_pack' },
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(securityOf(stream.headers)).toEqual(SECURITY);
    expect(parseSse(await stream.text()).at(-1)?.event).toBe('committed');
    const refused = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"input":"/check_pack"}',
    });
    expect(refused.status).toBe(415);
    expect(securityOf(refused.headers)).toEqual(SECURITY);
  });

  it('a body that arrives in pieces is read whole', async () => {
    const { id } = await newSession(server);
    const body = JSON.stringify({ input: '/check_pack' });
    const answer = await rawPost(server, `/v1/sessions/${id}/turns`, Buffer.byteLength(body), [
      body.slice(0, 5),
      body.slice(5, 12),
      body.slice(12),
    ]);
    expect(answer).not.toBe('closed');
    if (answer === 'closed') return;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text).turn.input).toBe('/check_pack');
  });

  it('a client that leaves mid-body stores nothing and the server keeps answering', async () => {
    const { id } = await newSession(server);
    const body = JSON.stringify({ input: '/check_pack' });
    const left = await rawPost(
      server,
      `/v1/sessions/${id}/turns`,
      Buffer.byteLength(body),
      [body.slice(0, 8)],
      false,
    );
    expect(left).toBe('closed');
    await new Promise((done) => setTimeout(done, 50));
    expect((await server.store.listTree(id)).length).toBe(1);
    const next = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/check_pack' },
    });
    expect(next.status).toBe(201);
  });
});
