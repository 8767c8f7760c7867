// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Library management over the real HTTP server: the ownership matrix over every
// cartridge route (owner, another key, no key; and the local user on loopback), visibility, metadata,
// covers, version tags/notes/archiving, deleting while sessions play, single-file updates, OpenAPI.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { MAX_LORE_BYTES } from '../../../src/core/cartridge/limits.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { MAX_COVER_BYTES, MAX_LISTED_DESCRIPTION_CHARS } from '../../../src/adapters/store/library-limits.ts';
import { cartridgeZip, KEY_A, KEY_B, LANTERNMERE_DIR, startTestServer, type TestServer } from './helpers.ts';

const YARE = readFileSync(join(LANTERNMERE_DIR, 'yare.yaml'), 'utf8');
const withName = (name: string) => YARE.replace(/^bot_name:.*$/m, `bot_name: "${name}"`);
const renamed = (name: string, lore = `# ${name}\n\nA fen town.\n`) =>
  cartridgeZip({ 'yare.yaml': withName(name), 'bot_lore.md': lore });

/** A PNG of exactly `bytes` bytes as far as the server can tell (the signature, then padding). */
function png(bytes: number): Buffer {
  const out = Buffer.alloc(bytes, 0);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(out);
  return out;
}

type Call = (key: string | undefined) => Promise<{ status: number; body: any; headers: Headers }>;

function client(server: TestServer) {
  const req =
    (path: string, init: RequestInit & { json?: unknown } = {}): Call =>
    (key) =>
      server.json(path, { ...init, ...(key === undefined ? {} : { key }) });
  return {
    req,
    upload: (bytes: Uint8Array, key: string | undefined, query = '') =>
      server.json(`/v1/cartridges${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: Buffer.from(bytes),
        ...(key === undefined ? {} : { key }),
      }),
    putFile: (ref: string, file: string, text: string | Buffer, key: string | undefined, query = '') =>
      server.json(`/v1/cartridges/${encodeURIComponent(ref)}/files/${file}${query}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: typeof text === 'string' ? text : new Uint8Array(text),
        ...(key === undefined ? {} : { key }),
      }),
    putCover: (ref: string, bytes: Buffer, key: string | undefined, type = 'image/png') =>
      server.json(`/v1/cartridges/${encodeURIComponent(ref)}/cover`, {
        method: 'PUT',
        headers: { 'content-type': type },
        body: new Uint8Array(bytes),
        ...(key === undefined ? {} : { key }),
      }),
  };
}

describe('the ownership matrix (keys mode): owner, another key, no key', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let cartridgeId: string;
  let v1: string;
  let v2: string;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`) });
    api = client(server);
    v1 = (await api.upload(renamed('Marsh'), KEY_A)).body.version.id;
    const second = await api.upload(renamed('Marsh', '# Marsh\n\nA wetter fen town.\n'), KEY_A);
    v2 = second.body.version.id;
    cartridgeId = (await server.json('/v1/cartridges/Marsh', { key: KEY_A })).body.cartridge.id;
  });
  afterAll(() => server.stop());

  it('every cartridge route: another key’s private cartridge is 404, no key is 401, the owner succeeds', async () => {
    const routes: Array<{ name: string; call: Call; owner: number }> = [
      { name: 'versions by id', call: api.req(`/v1/cartridges/${cartridgeId}/versions`), owner: 200 },
      { name: 'versions by name', call: api.req('/v1/cartridges/Marsh/versions'), owner: 200 },
      { name: 'get cartridge', call: api.req(`/v1/cartridges/${cartridgeId}`), owner: 200 },
      { name: 'get version', call: api.req(`/v1/cartridge-versions/${v1}`), owner: 200 },
      {
        name: 'start on a version',
        call: api.req('/v1/sessions', { method: 'POST', json: { cartridge: v1 } }),
        owner: 201,
      },
      {
        name: 'a stateless turn on a version',
        call: api.req('/v1/turn', { method: 'POST', json: { cartridge: v1, input: '/travel brine market' } }),
        owner: 200,
      },
      {
        name: 'open a version in the builder',
        call: api.req('/v1/builder/drafts', {
          method: 'POST',
          json: { name: 'From Marsh', fromVersion: v1 },
        }),
        owner: 201,
      },
      {
        name: 'update metadata',
        call: api.req(`/v1/cartridges/${cartridgeId}`, { method: 'PATCH', json: { title: 'The Marsh' } }),
        owner: 200,
      },
      { name: 'set cover', call: (key) => api.putCover(cartridgeId, png(64), key), owner: 200 },
      {
        name: 'get cover',
        call: async (key) => {
          const response = await server.call(`/v1/cartridges/${cartridgeId}/cover`, key ? { key } : {});
          return { status: response.status, body: await response.arrayBuffer(), headers: response.headers };
        },
        owner: 200,
      },
      {
        name: 'update one file',
        call: (key) => api.putFile(cartridgeId, 'bot_lore.md', '# Marsh\n\nRain.\n', key),
        owner: 201,
      },
      {
        name: 'start on the cartridge',
        call: api.req('/v1/sessions', { method: 'POST', json: { cartridge: cartridgeId } }),
        owner: 201,
      },
      {
        name: 'tag a version',
        call: api.req(`/v1/cartridge-versions/${v1}`, { method: 'PATCH', json: { tag: 'first' } }),
        owner: 200,
      },
      {
        name: 'delete cover',
        call: api.req(`/v1/cartridges/${cartridgeId}/cover`, { method: 'DELETE' }),
        owner: 204,
      },
      {
        name: 'delete a version',
        call: api.req(`/v1/cartridge-versions/${v2}`, { method: 'DELETE' }),
        owner: 204,
      },
    ];
    for (const route of routes) {
      const other = await route.call(KEY_B);
      expect([route.name, other.status]).toEqual([route.name, 404]);
      expect([route.name, (await route.call(undefined)).status]).toEqual([route.name, 401]);
      expect([route.name, (await route.call(KEY_A)).status]).toEqual([route.name, route.owner]);
    }
    // Nothing Bob tried changed anything: the title is Alice's, and the list he sees lacks the cartridge.
    const mine = await server.json(`/v1/cartridges/${cartridgeId}`, { key: KEY_A });
    expect(mine.body.cartridge).toMatchObject({ title: 'The Marsh', visibility: 'private', owner: 'self' });
    expect(mine.body.versions.find((v: any) => v.id === v1).tag).toBe('first');
    const bobs = (await server.json('/v1/cartridges', { key: KEY_B })).body.cartridges;
    expect(bobs.map((c: any) => c.name)).toEqual(['Lanternmere']);
    expect((await server.json('/v1/cartridges')).status).toBe(401);

    // Deleting the whole cartridge comes last: 404 for Bob, 401 without a key; Alice's sessions play v1.
    const remove = api.req(`/v1/cartridges/${cartridgeId}`, { method: 'DELETE' });
    expect((await remove(KEY_B)).status).toBe(404);
    expect((await remove(undefined)).status).toBe(401);
    const refused = await remove(KEY_A);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('in_use');
    expect(refused.body.error.message).toMatch(/archive/);
  });

  it('public: every key lists, reads and starts it (by id), but only the owner changes it', async () => {
    const c = (await api.upload(renamed('Heath'), KEY_A)).body.version;
    const id = (await server.json('/v1/cartridges/Heath', { key: KEY_A })).body.cartridge.id;
    await api.putCover(id, png(100), KEY_A);
    const made = await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { visibility: 'public', genre: 'moorland', tags: ['fen', 'quiet'], description: 'Wide.\nOpen.' },
      key: KEY_A,
    });
    expect(made.body.cartridge).toMatchObject({
      visibility: 'public',
      genre: 'moorland',
      tags: ['fen', 'quiet'],
    });
    const listed = (await server.json('/v1/cartridges', { key: KEY_B })).body.cartridges.find(
      (x: any) => x.id === id,
    );
    expect(listed).toMatchObject({ owner: 'other', canEdit: false, title: 'Heath', latest: { id: c.id } });
    expect((await server.json(`/v1/cartridges/${id}/versions`, { key: KEY_B })).status).toBe(200);
    expect((await server.json(`/v1/cartridge-versions/${c.id}`, { key: KEY_B })).body.version.view).toBe(
      'public',
    );
    const cover = await server.call(`/v1/cartridges/${id}/cover`, { key: KEY_B });
    expect(cover.status).toBe(200);
    const started = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: id },
      key: KEY_B,
    });
    expect(started.status).toBe(201);
    expect(started.body.session.cartridgeVersionId).toBe(c.id);
    // A name means the server's cartridge or the caller's own: Alice's public one is found by its id.
    expect(
      (await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Heath' }, key: KEY_B }))
        .status,
    ).toBe(404);
    const changes: Call[] = [
      api.req(`/v1/cartridges/${id}`, { method: 'PATCH', json: { title: 'Bob’s' } }),
      api.req(`/v1/cartridges/${id}`, { method: 'DELETE' }),
      api.req(`/v1/cartridges/${id}/cover`, { method: 'DELETE' }),
      (key) => api.putCover(id, png(10), key),
      (key) => api.putFile(id, 'bot_lore.md', '# Heath\n\nBob was here.\n', key),
      api.req(`/v1/cartridge-versions/${c.id}`, { method: 'PATCH', json: { archived: true } }),
      api.req(`/v1/cartridge-versions/${c.id}`, { method: 'DELETE' }),
    ];
    for (const change of changes) expect((await change(KEY_B)).status).toBe(404);
    expect((await server.json(`/v1/cartridges/${id}`, { key: KEY_A })).body.cartridge.title).toBe('Heath');
    // Back to private: Bob's session keeps playing it, but he no longer lists or starts it.
    await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { visibility: 'private' },
      key: KEY_A,
    });
    expect((await server.json(`/v1/cartridges/${id}`, { key: KEY_B })).status).toBe(404);
    const turn = await server.json(`/v1/sessions/${started.body.session.id}/turns`, {
      method: 'POST',
      json: { input: '/travel brine market' },
      key: KEY_B,
    });
    expect(turn.status).toBe(201);
  });
});

describe('versions: tags, notes, archiving and deleting while sessions play', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`) });
    api = client(server);
  });
  afterAll(() => server.stop());

  it('an upload may carry a tag and notes; a tag taken by another version is 409 and nothing is stored', async () => {
    const first = await api.upload(renamed('Tarn'), KEY_A, '?tag=v1&notes=First%20cut');
    expect(first.status).toBe(201);
    const listed = await server.json('/v1/cartridges/Tarn/versions', { key: KEY_A });
    expect(listed.body.versions[0]).toMatchObject({ tag: 'v1', notes: 'First cut', archived: false });
    const clash = await api.upload(renamed('Tarn', '# Tarn\n\nSecond.\n'), KEY_A, '?tag=v1');
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({
      code: 'tag_taken',
      tag: 'v1',
      versionId: first.body.version.id,
    });
    expect((await server.json('/v1/cartridges/Tarn/versions', { key: KEY_A })).body.versions).toHaveLength(1);
    const tooLong = await api.upload(renamed('Tarn', '# Tarn\n\nThird.\n'), KEY_A, `?tag=${'t'.repeat(65)}`);
    expect(tooLong.status).toBe(400);
    const patched = await server.json(`/v1/cartridge-versions/${first.body.version.id}`, {
      method: 'PATCH',
      json: { tag: 't'.repeat(64), notes: null },
      key: KEY_A,
    });
    expect(patched.body.version).toMatchObject({ tag: 't'.repeat(64), notes: null });
  });

  it('archive, then delete: a played version is refused with a clear 409 until archived; its sessions keep playing', async () => {
    const v1 = (await api.upload(renamed('Mere'), KEY_A)).body.version.id;
    const v2 = (await api.upload(renamed('Mere', '# Mere\n\nNewer.\n'), KEY_A)).body.version.id;
    const session = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: v1 },
      key: KEY_A,
    });
    const refused = await server.json(`/v1/cartridge-versions/${v1}`, { method: 'DELETE', key: KEY_A });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('archive it first');
    const archived = await server.json(`/v1/cartridge-versions/${v1}`, {
      method: 'PATCH',
      json: { archived: true },
      key: KEY_A,
    });
    expect(archived.body.version.archived).toBe(true);
    const listed = await server.json('/v1/cartridges/Mere/versions', { key: KEY_A });
    expect(listed.body.versions.map((v: any) => v.id)).toEqual([v2]);
    const all = await server.json('/v1/cartridges/Mere/versions?archived=true', { key: KEY_A });
    expect(all.body.versions.map((v: any) => [v.id, v.archived])).toEqual([
      [v2, false],
      [v1, true],
    ]);
    const startArchived = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: v1 },
      key: KEY_A,
    });
    expect(startArchived.status).toBe(409);
    expect(startArchived.body.error.code).toBe('archived');
    expect((await server.json(`/v1/cartridge-versions/${v1}`, { method: 'DELETE', key: KEY_A })).status).toBe(
      204,
    );
    const turn = await server.json(`/v1/sessions/${session.body.session.id}/turns`, {
      method: 'POST',
      json: { input: '/travel brine market' },
      key: KEY_A,
    });
    expect(turn.status).toBe(201);
    expect(turn.body.turn).toBeDefined();
  });

  it('a whole cartridge: 409 while played, archived then deleted, its sessions still play', async () => {
    const v = (await api.upload(renamed('Carr'), KEY_A)).body.version.id;
    const id = (await server.json('/v1/cartridges/Carr', { key: KEY_A })).body.cartridge.id;
    const session = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: 'Carr' },
      key: KEY_A,
    });
    const refused = await server.json(`/v1/cartridges/${id}`, { method: 'DELETE', key: KEY_A });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'in_use', sessions: 1, versions: 1 });
    await server.json(`/v1/cartridge-versions/${v}`, {
      method: 'PATCH',
      json: { archived: true },
      key: KEY_A,
    });
    expect((await server.call(`/v1/cartridges/${id}`, { method: 'DELETE', key: KEY_A })).status).toBe(204);
    expect((await server.json(`/v1/cartridges/${id}`, { key: KEY_A })).status).toBe(404);
    expect(
      (await server.json('/v1/cartridges', { key: KEY_A })).body.cartridges.map((c: any) => c.name),
    ).not.toContain('Carr');
    const turn = await server.json(`/v1/sessions/${session.body.session.id}/turns`, {
      method: 'POST',
      json: { input: '/travel brine market' },
      key: KEY_A,
    });
    expect(turn.status).toBe(201);
  });

  it('an archived cartridge is listed only for its owner with archived=true, and not startable', async () => {
    await api.upload(renamed('Shelf'), KEY_A);
    const id = (await server.json('/v1/cartridges/Shelf', { key: KEY_A })).body.cartridge.id;
    await server.json(`/v1/cartridges/${id}`, { method: 'PATCH', json: { archived: true }, key: KEY_A });
    const names = async (query: string) =>
      (await server.json(`/v1/cartridges${query}`, { key: KEY_A })).body.cartridges.map((c: any) => c.name);
    expect(await names('')).not.toContain('Shelf');
    expect(await names('?archived=true')).toContain('Shelf');
    expect(
      (await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Shelf' }, key: KEY_A }))
        .status,
    ).toBe(404);
  });
});

describe('single-file updates and covers', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A}`) });
    api = client(server);
    await api.upload(renamed('Weir'), KEY_A);
    id = (await server.json('/v1/cartridges/Weir', { key: KEY_A })).body.cartridge.id;
  });
  afterAll(() => server.stop());
  const count = async () =>
    (await server.json(`/v1/cartridges/${id}/versions`, { key: KEY_A })).body.versions.length;

  it('a valid file makes a new version with the other files unchanged; the same again is 200', async () => {
    const before = await count();
    const put = await api.putFile(
      id,
      'first-message.md',
      'The weir roars.\n',
      KEY_A,
      '?tag=weir-2&notes=New%20opening',
    );
    expect(put.status).toBe(201);
    expect(put.body.version).toMatchObject({ name: 'Weir', tag: 'weir-2', notes: 'New opening' });
    const full = await server.json(`/v1/cartridge-versions/${put.body.version.id}`, { key: KEY_A });
    expect(full.body.version.files['first-message.md']).toBe('The weir roars.\n');
    expect(full.body.version.files['yare.yaml']).toBe(withName('Weir'));
    expect(await count()).toBe(before + 1);
    const again = await api.putFile(id, 'first-message.md', 'The weir roars.\n', KEY_A);
    expect(again.status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('a bad rules file is 422 with file:line:col and nothing is stored', async () => {
    const before = await count();
    const broken = withName('Weir').replace(/^events:/m, 'events: [oops\nevents:');
    const put = await api.putFile(id, 'yare.yaml', broken, KEY_A);
    expect(put.status).toBe(422);
    expect(put.body.error.code).toBe('cartridge_invalid');
    expect(put.body.error.errors[0].where).toMatch(/^yare\.yaml:\d+:\d+$/);
    expect(await count()).toBe(before);
  });

  it('rules naming another cartridge, an unknown file, non-UTF-8, a file past its limit: refused, nothing stored', async () => {
    const before = await count();
    const renamedRules = await api.putFile(id, 'yare.yaml', withName('Elsewhere'), KEY_A);
    expect(renamedRules.status).toBe(422);
    expect(renamedRules.body.error).toMatchObject({
      code: 'name_changed',
      name: 'Elsewhere',
      expected: 'Weir',
    });
    expect((await api.putFile(id, 'notes.txt', 'x', KEY_A)).body.error.code).toBe('unknown_file');
    expect(
      (await api.putFile(id, 'bot_lore.md', Buffer.from([0x23, 0xff, 0xfe]), KEY_A)).body.error.code,
    ).toBe('not_utf8');
    const atLimit = `# Weir\n\n${'w'.repeat(MAX_LORE_BYTES - 9)}\n`;
    expect(Buffer.byteLength(atLimit)).toBe(MAX_LORE_BYTES);
    expect((await api.putFile(id, 'bot_lore.md', `${atLimit}x`, KEY_A)).status).toBe(413);
    expect(await count()).toBe(before);
    expect((await api.putFile(id, 'bot_lore.md', atLimit, KEY_A)).status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('a rules file replaces the other rules file: yare.js in, yare.yaml out', async () => {
    const module = `export default ${JSON.stringify(parseYaml(withName('Weir')))};\n`;
    const put = await api.putFile(id, 'yare.js', module, KEY_A);
    expect(put.status).toBe(201);
    const full = await server.json(`/v1/cartridge-versions/${put.body.version.id}`, { key: KEY_A });
    expect(Object.keys(full.body.version.files).sort()).toEqual(
      ['bot_lore.md', 'first-message.md', 'prompt_directives.yaml', 'yare.js'].sort(),
    );
    const back = await api.putFile(id, 'yare.yaml', `${withName('Weir')}\n# back to YAML\n`, KEY_A);
    expect(back.status).toBe(201);
    const yaml = await server.json(`/v1/cartridge-versions/${back.body.version.id}`, { key: KEY_A });
    expect(Object.keys(yaml.body.version.files)).toContain('yare.yaml');
    expect(Object.keys(yaml.body.version.files)).not.toContain('yare.js');
  });

  it('covers: at MAX_COVER_BYTES stored and served safely; one byte more 413; wrong bytes 422; SVG 415', async () => {
    const put = await api.putCover(id, png(MAX_COVER_BYTES), KEY_A);
    expect(put.status).toBe(200);
    expect(put.body.cartridge.cover).toMatchObject({ mediaType: 'image/png', bytes: MAX_COVER_BYTES });
    const served = await server.call(`/v1/cartridges/${id}/cover`, { key: KEY_A });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(png(MAX_COVER_BYTES))).toBe(true);
    expect((await api.putCover(id, png(MAX_COVER_BYTES + 1), KEY_A)).status).toBe(413);
    const lying = await api.putCover(id, Buffer.from('<svg onload="alert(1)"/>'), KEY_A);
    expect(lying.status).toBe(422);
    expect(lying.body.error.code).toBe('cover_invalid');
    expect((await api.putCover(id, Buffer.from('<svg/>'), KEY_A, 'image/svg+xml')).status).toBe(415);
    expect((await server.json(`/v1/cartridges/${id}`, { key: KEY_A })).body.cartridge.cover.bytes).toBe(
      MAX_COVER_BYTES,
    );
  });

  it('a listing cuts a description to MAX_LISTED_DESCRIPTION_CHARS; the cartridge’s own answer has all of it', async () => {
    const listedOf = async () =>
      (await server.json('/v1/cartridges', { key: KEY_A })).body.cartridges.find((c: any) => c.id === id);
    const exact = `${'d'.repeat(MAX_LISTED_DESCRIPTION_CHARS - 1)}🜲`;
    await server.json(`/v1/cartridges/${id}`, { method: 'PATCH', json: { description: exact }, key: KEY_A });
    expect(await listedOf()).toMatchObject({ description: exact, descriptionCut: false });
    const longer = `${exact}!`;
    await server.json(`/v1/cartridges/${id}`, { method: 'PATCH', json: { description: longer }, key: KEY_A });
    expect(await listedOf()).toMatchObject({ description: exact, descriptionCut: true });
    const own = await server.json(`/v1/cartridges/${id}`, { key: KEY_A });
    expect(own.body.cartridge).toMatchObject({ description: longer, descriptionCut: false });
  });

  it('metadata limits: a title of 200 characters is kept, 201 is 400', async () => {
    const ok = await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { title: 't'.repeat(200) },
      key: KEY_A,
    });
    expect(ok.status).toBe(200);
    const past = await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { title: 't'.repeat(201) },
      key: KEY_A,
    });
    expect(past.status).toBe(400);
    const tags = await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { tags: Array.from({ length: 17 }, (_, i) => `t${i}`) },
      key: KEY_A,
    });
    expect(tags.status).toBe(400);
    expect(
      (await server.json(`/v1/cartridges/${id}`, { method: 'PATCH', json: {}, key: KEY_A })).status,
    ).toBe(400);
  });
});

describe('the local user on loopback (no keys) owns the library', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer();
    api = client(server);
  });
  afterAll(() => server.stop());

  it('edits the server’s own cartridge and its uploads without a key, through every route', async () => {
    const demo = await server.json('/v1/cartridges/Lanternmere');
    expect(demo.body.cartridge).toMatchObject({ owner: 'self', canEdit: true, visibility: 'public' });
    const id = demo.body.cartridge.id;
    expect(
      (await server.json(`/v1/cartridges/${id}`, { method: 'PATCH', json: { genre: 'harbour' } })).status,
    ).toBe(200);
    expect((await api.putCover(id, png(32), undefined)).status).toBe(200);
    expect((await server.call(`/v1/cartridges/${id}/cover`)).status).toBe(200);
    const upload = await api.upload(renamed('Loch'), undefined, '?tag=one');
    expect(upload.status).toBe(201);
    const loch = (await server.json('/v1/cartridges/Loch')).body.cartridge.id;
    const put = await api.putFile(loch, 'bot_lore.md', '# Loch\n\nDeep.\n', undefined);
    expect(put.status).toBe(201);
    expect(
      (
        await server.json(`/v1/cartridge-versions/${put.body.version.id}`, {
          method: 'PATCH',
          json: { tag: 'two' },
        })
      ).status,
    ).toBe(200);
    expect((await server.json('/v1/sessions', { method: 'POST', json: { cartridge: loch } })).status).toBe(
      201,
    );
    expect(
      (await server.call(`/v1/cartridge-versions/${upload.body.version.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await server.call(`/v1/cartridges/${loch}`, { method: 'DELETE' })).status).toBe(409);
    // An archived version nobody plays: the local user's new game on it is 409 `archived`, as with keys.
    const spare = await api.putFile(loch, 'bot_lore.md', '# Loch\n\nShallow.\n', undefined);
    await server.json(`/v1/cartridge-versions/${spare.body.version.id}`, {
      method: 'PATCH',
      json: { archived: true },
    });
    const archived = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: spare.body.version.id },
    });
    expect(archived.status).toBe(409);
    expect(archived.body.error.code).toBe('archived');
  });

  it('/openapi.json documents every library route', async () => {
    const doc = await server.json('/openapi.json');
    const expected: Array<[string, string]> = [
      ['/v1/cartridges', 'get'],
      ['/v1/cartridges', 'post'],
      ['/v1/cartridges/{name}/versions', 'get'],
      ['/v1/cartridges/{ref}', 'get'],
      ['/v1/cartridges/{ref}', 'patch'],
      ['/v1/cartridges/{ref}', 'delete'],
      ['/v1/cartridges/{ref}/cover', 'put'],
      ['/v1/cartridges/{ref}/cover', 'get'],
      ['/v1/cartridges/{ref}/cover', 'delete'],
      ['/v1/cartridges/{ref}/files/{file}', 'put'],
      ['/v1/cartridge-versions/{id}', 'get'],
      ['/v1/cartridge-versions/{id}', 'patch'],
      ['/v1/cartridge-versions/{id}', 'delete'],
    ];
    for (const [path, method] of expected)
      expect([path, method, doc.body.paths[path]?.[method] !== undefined]).toEqual([path, method, true]);
    expect(Object.keys(doc.body.paths['/v1/cartridges/{ref}/cover'].put.requestBody.content)).toContain(
      'image/png',
    );
    expect(doc.body.paths['/v1/cartridges/{ref}/files/{file}'].put.responses['422']).toBeDefined();
  });
});
