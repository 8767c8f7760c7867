// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A real server over loopback for HTTP tests: @hono/node-server on 127.0.0.1 port 0, a SQLite store in a
// temporary folder, real fetch. Each test file starts the servers it needs and closes them.

import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { type RunningServer, type StartOptions, startServer } from '../../../src/apps/server/start.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { ROOT } from '../../engine/turn/helpers.ts';
import { type TarEntry, tarGz, zip } from './archives.ts';

export const LANTERNMERE_DIR = resolve(ROOT, 'cartridges/lanternmere');
export const KEY_A = 'mnesos_test_key_alice_0123456789';
export const KEY_B = 'mnesos_test_key_bob_0123456789ab';

export interface TestServer extends RunningServer {
  readonly store: Store;
  /** fetch relative to the server, with JSON and the key when given. */
  call(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<Response>;
  /** call + parse JSON. */
  json<T = any>(
    path: string,
    init?: RequestInit & { json?: unknown; key?: string },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  stop(): Promise<void>;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-server-test-'));
  const store = options.store ?? (await openStore(join(dir, 'mnesos.db')));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    seeds: countingSeeds(1000),
    ...options,
    store,
  });
  const call = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => {
    const { json, key, headers, ...rest } = init;
    const h = new Headers(headers);
    if (json !== undefined && !h.has('content-type')) h.set('content-type', 'application/json');
    if (key !== undefined) h.set('authorization', `Bearer ${key}`);
    return fetch(`${server.url}${path}`, {
      ...rest,
      headers: h,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  return {
    ...server,
    store,
    call,
    async json(path, init) {
      const response = await call(path, init);
      const text = await response.text();
      return {
        status: response.status,
        body: text === '' ? undefined : JSON.parse(text),
        headers: response.headers,
      };
    },
    async stop() {
      await server.close();
      if (options.store === undefined) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The lanternmere folder's files, optionally changed, as archive entries under one top folder. */
export function cartridgeEntries(
  changes: Record<string, string | undefined> = {},
  top = 'lanternmere',
): TarEntry[] {
  const files: Record<string, string | undefined> = {
    'yare.yaml': readFileSync(join(LANTERNMERE_DIR, 'yare.yaml'), 'utf8'),
    'bot_lore.md': readFileSync(join(LANTERNMERE_DIR, 'bot_lore.md'), 'utf8'),
    'prompt_directives.yaml': readFileSync(join(LANTERNMERE_DIR, 'prompt_directives.yaml'), 'utf8'),
    'first-message.md': readFileSync(join(LANTERNMERE_DIR, 'first-message.md'), 'utf8'),
    ...changes,
  };
  return Object.entries(files)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, data]) => ({ name: top === '' ? name : `${top}/${name}`, data }));
}

export const cartridgeZip = (changes?: Record<string, string | undefined>, top?: string) =>
  zip(cartridgeEntries(changes, top));
export const cartridgeTarGz = (changes?: Record<string, string | undefined>, top?: string) =>
  tarGz(cartridgeEntries(changes, top));

/** Reads an SSE body into events (event, id, data parsed). */
export async function readSse(response: Response): Promise<Array<{ event: string; id?: string; data: any }>> {
  const text = await response.text();
  return parseSse(text);
}

export function parseSse(text: string): Array<{ event: string; id?: string; data: any }> {
  const out: Array<{ event: string; id?: string; data: any }> = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event = 'message';
    let id: string | undefined;
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    out.push({
      event,
      ...(id === undefined ? {} : { id }),
      data: data === '' ? undefined : JSON.parse(data),
    });
  }
  return out;
}

/** Creates a session on the demo cartridge; returns its id and head. */
export async function newSession(server: TestServer, key?: string): Promise<{ id: string; head: string }> {
  const created = await server.json('/v1/sessions', {
    method: 'POST',
    json: { cartridge: 'Lanternmere' },
    ...(key ? { key } : {}),
  });
  if (created.status !== 201)
    throw new Error(`session create: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.session.id, head: created.body.session.headTurnId };
}
