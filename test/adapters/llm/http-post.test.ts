// The model client's kept-alive connections (src/adapters/llm/http-post.ts) against real HTTP servers that
// close idle connections at a short keep-alive timeout. The race itself is played for real: the server
// runs in another process, closes the idle connection at its timeout while this process is busy, and this
// process then sends its next call on that connection before it has read the close.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import { MODEL_SOCKET_IDLE_MS, postJson } from '../../../src/adapters/llm/http-post.ts';

/**
 * A Node HTTP server closing idle connections after `keepAliveMs`, answering with an explicit
 * `Connection: keep-alive` and so no `Keep-Alive: timeout=` hint (as uvicorn and llama.cpp's server answer),
 * each answer listing the requests it has seen so far.
 */
const SERVER_SOURCE = `
const http = require('node:http');
let connections = 0;
const seen = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    seen.push({ connection: req.socket.number, header: req.headers.connection });
    res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
    res.end(JSON.stringify(seen));
  });
});
server.on('connection', (socket) => {
  socket.number = ++connections;
  socket.on('close', () => require('node:fs').writeFileSync(process.argv[2] + '-' + socket.number, ''));
});
server.keepAliveTimeout = Number(process.argv[1]);
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
`;

const children: ChildProcess[] = [];
const folders: string[] = [];
const servers: (Server | NetServer)[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.stdin?.end();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The server above in a child process; resolves with its URL. */
function serverProcess(keepAliveMs: number, closedMarks: string): Promise<URL> {
  const child = spawn(process.execPath, ['-e', SERVER_SOURCE, String(keepAliveMs), closedMarks], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout?.on('data', (data: Buffer) => {
      const port = /port (\d+)/.exec(data.toString())?.[1];
      if (port !== undefined) resolve(new URL(`http://127.0.0.1:${port}/v1/chat/completions`));
    });
  });
}

async function listen(server: Server | NetServer): Promise<URL> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`);
}

/** One call through the client, its whole body as text. */
async function call(url: URL): Promise<{ status: number; text: string }> {
  const response = await postJson(
    url,
    { 'content-type': 'application/json' },
    '{"model":"m"}',
    new AbortController().signal,
    'm',
  );
  const parts: Buffer[] = [];
  for (let chunk = await response.body.read(); chunk !== undefined; chunk = await response.body.read())
    parts.push(chunk);
  return { status: response.status, text: Buffer.concat(parts).toString() };
}

/** Holds this thread (its event loop too) for `ms`, as a busy server does between two calls. */
function busyFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('kept-alive connections to the model', () => {
  it('a call on a connection the server closed at its keep-alive timeout is sent again on a fresh one', async () => {
    // Node's server closes an idle connection 1 s after its keepAliveTimeout: at about 1,050 ms here. It
    // leaves a mark (a file) for each connection it closed.
    const folder = mkdtempSync(join(tmpdir(), 'mnesos-keep-alive-'));
    folders.push(folder);
    const marks = join(folder, 'closed');
    const url = await serverProcess(50, marks);
    const first = await call(url);
    expect(JSON.parse(first.text)).toEqual([{ connection: 1, header: 'keep-alive' }]);
    // This thread does not look until the server has closed the connection (nor can the agent's own idle
    // timer, MODEL_SOCKET_IDLE_MS, run), so the agent still holds it and sends the next call on it.
    const until = Date.now() + 20_000;
    while (!existsSync(`${marks}-1`) && Date.now() < until) busyFor(20);
    busyFor(20);
    expect(existsSync(`${marks}-1`)).toBe(true);
    const second = await call(url);
    expect(second.status).toBe(200);
    // The call sent on the closed connection never reached the server; it came again on a connection of
    // its own (Connection: close), which happens only on that path.
    expect(JSON.parse(second.text)).toEqual([
      { connection: 1, header: 'keep-alive' },
      { connection: 2, header: 'close' },
    ]);
    // The connection after it is a kept-alive one again.
    const third = await call(url);
    expect(JSON.parse(third.text).at(-1)).toEqual({ connection: 3, header: 'keep-alive' });
  });

  it('a call is not sent twice when its connection was new, or when the answer had begun', async () => {
    let connections = 0;
    const refusing = createNetServer((socket) => {
      connections++;
      socket.once('data', () => socket.destroy());
    });
    const refusingUrl = await listen(refusing);
    const failed = await call(refusingUrl).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ModelError);
    expect((failed as ModelError).kind).toBe('network');
    expect((failed as ModelError).message).toMatch(/cannot reach the provider/);
    expect(connections).toBe(1);

    let requests = 0;
    const breaking = createHttpServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive' });
      res.write('data: {}\n\n', () => res.socket?.destroy());
    });
    const breakingUrl = await listen(breaking);
    const broken = await call(breakingUrl).catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(ModelError);
    expect((broken as ModelError).message).toMatch(/answer broke off/);
    expect(requests).toBe(1);
  });

  it(`an idle connection is kept ${MODEL_SOCKET_IDLE_MS} ms (MODEL_SOCKET_IDLE_MS), no longer`, async () => {
    const connections: number[] = [];
    const server = createHttpServer((req, res) => {
      req.resume();
      connections.push(req.socket.remotePort ?? 0);
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
      res.end('{}');
    });
    server.keepAliveTimeout = 60_000;
    const url = await listen(server);
    await call(url);
    await call(url);
    // Calls one after the other share a connection…
    expect(new Set(connections).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, MODEL_SOCKET_IDLE_MS + 500));
    await call(url);
    // …and one after more than MODEL_SOCKET_IDLE_MS idle does not.
    expect(new Set(connections).size).toBe(2);
  });
});
