// Compressed answers: JSON answers to GETs and the web client's text files go out as brotli or gzip when the
// client accepts it, from COMPRESS_MIN_BYTES on; event streams, POST answers and small answers do not. Read
// with node:http (fetch would decompress without saying so).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPRESS_MIN_BYTES,
  compressJsonAnswers,
  pickEncoding,
} from '../../../src/apps/server/compression.ts';
import { serveStatic } from '../../../src/apps/server/static.ts';
import { startTestServer, type TestServer } from './helpers.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, acceptEncoding?: string, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(raw: Raw): string {
  const coding = raw.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(raw.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(raw.body).toString('utf8');
  return raw.body.toString('utf8');
}

describe('pickEncoding', () => {
  it('prefers brotli, falls back to gzip, honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding('br;q=0,gzip;q=0')).toBeUndefined();
    expect(pickEncoding('br;q=nonsense')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});

describe('compressJsonAnswers', () => {
  // `{"t":"xxx…"}` is 8 bytes around the text.
  const app = new Hono();
  app.use('*', compressJsonAnswers());
  app.get('/json/:n', (c) => c.json({ t: 'x'.repeat(Number(c.req.param('n')) - 8) }));
  app.post('/json/:n', (c) => c.json({ t: 'x'.repeat(Number(c.req.param('n')) - 8) }));
  const call = (path: string, coding: string, method = 'GET') =>
    app.request(path, { method, headers: { 'accept-encoding': coding } });

  it(`compresses from ${COMPRESS_MIN_BYTES} bytes on, not one byte below`, async () => {
    const at = await call(`/json/${COMPRESS_MIN_BYTES}`, 'br');
    expect(at.headers.get('content-encoding')).toBe('br');
    expect(at.headers.get('content-type')).toMatch(/^application\/json/);
    expect(at.headers.get('vary')).toBe('Accept-Encoding');
    const text = brotliDecompressSync(Buffer.from(await at.arrayBuffer())).toString('utf8');
    expect(text).toHaveLength(COMPRESS_MIN_BYTES);
    expect(JSON.parse(text).t).toHaveLength(COMPRESS_MIN_BYTES - 8);
    const below = await call(`/json/${COMPRESS_MIN_BYTES - 1}`, 'br');
    expect(below.headers.get('content-encoding')).toBeNull();
    expect(await below.text()).toHaveLength(COMPRESS_MIN_BYTES - 1);
  });

  it('leaves POST answers and clients that accept no coding alone', async () => {
    const post = await call('/json/5000', 'br, gzip', 'POST');
    expect(post.headers.get('content-encoding')).toBeNull();
    const plain = await call('/json/5000', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toHaveLength(5000);
  });
});

describe('compressed answers of a real server', () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mnesos-compress-'));
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), `<p>${'index '.repeat(400)}</p>`);
    await writeFile(join(root, 'assets', 'app-1a2b.js'), `console.log("${'a'.repeat(5000)}")`);
    await writeFile(join(root, 'assets', 'small.js'), 'x'.repeat(COMPRESS_MIN_BYTES - 1));
    server = await startTestServer({ staticDir: root });
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('sends the OpenAPI document as brotli or gzip, the same JSON either way', async () => {
    const plain = await get(`${server.url}/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(`${server.url}/openapi.json`, 'gzip, deflate, br');
    const gz = await get(`${server.url}/openapi.json`, 'gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 4);
    expect(JSON.parse(decoded(br))).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(JSON.parse(decoded(gz))).toEqual(JSON.parse(plain.body.toString('utf8')));
    // The security headers survive the new body.
    expect(br.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the client files compressed once, hashed assets cached for good, small files as they are', async () => {
    const js = await get(`${server.url}/assets/app-1a2b.js`, 'br');
    expect(js.headers['content-encoding']).toBe('br');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(decoded(js)).toBe(`console.log("${'a'.repeat(5000)}")`);
    const again = await get(`${server.url}/assets/app-1a2b.js`, 'br');
    expect(again.body.equals(js.body)).toBe(true);
    const html = await get(`${server.url}/some/route`, 'gzip');
    expect(html.headers['content-encoding']).toBe('gzip');
    expect(html.headers['cache-control']).toBeUndefined();
    expect(decoded(html)).toContain('index index');
    const small = await get(`${server.url}/assets/small.js`, 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.byteLength).toBe(COMPRESS_MIN_BYTES - 1);
  });

  it('serveStatic answers uncompressed without an Accept-Encoding', async () => {
    const r = await serveStatic(root, '/assets/app-1a2b.js');
    expect(r?.headers.get('content-encoding')).toBeNull();
    expect(await r?.text()).toBe(`console.log("${'a'.repeat(5000)}")`);
  });
});
