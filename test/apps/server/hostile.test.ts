// The request-side hostile inputs (oversized and malformed requests, forged principals, archive uploads),
// over real HTTP: each gets the right 4xx, and nothing is stored or changed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ENTRY_BYTES } from '../../../src/adapters/files/archive/limits.ts';
import { zip } from './archives.ts';
import { cartridgeTarGz, cartridgeZip, newSession, startTestServer, type TestServer } from './helpers.ts';

describe('hostile requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { maxUploadBytes: 1024 * 1024 } });
  });
  afterAll(() => server.stop());

  const post = (path: string, body: string, type = 'application/json') =>
    server.json(path, { method: 'POST', headers: { 'content-type': type }, body });

  it('malformed JSON is 400 malformed_json', async () => {
    for (const body of ['{', '{"cartridge": }', '', 'nul', '{"a":1}{"b":2}']) {
      const response = await post('/v1/sessions', body);
      expect([body, response.status, response.body.error.code]).toEqual([body, 400, 'malformed_json']);
    }
    expect((await post('/v1/sessions', '\xff\xfe')).status).toBe(400);
  });

  it('a nesting bomb is 400 too_deep, found without recursion', async () => {
    const bomb = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await post('/v1/personas', bomb);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('too_deep');
  });

  it('__proto__, constructor and prototype keys are refused anywhere and never merged', async () => {
    for (const body of [
      '{"__proto__":{"admin":true},"name":"A","pronoun_sub":"s","pronoun_obj":"o","pronoun_poss":"p","pronoun_poss_obj":"q"}',
      '{"name":"A","pronoun_sub":"s","pronoun_obj":"o","pronoun_poss":"p","pronoun_poss_obj":"q","background":"x","constructor":{"prototype":{"y":1}}}',
    ]) {
      const response = await post('/v1/personas', body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('forbidden_key');
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect((await server.store.listPersonas('local-user')).length).toBe(0);
  });

  it('a forbidden key wins over an unstorable string met first; without one, the unstorable string is named', async () => {
    const both = await post('/v1/personas', '{"x":{"constructor":1},"name":"A\\u0000"}');
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('forbidden_key');
    const unstorable = await post('/v1/personas', '{"name":"A","x":{"bio":"b\\u0000"}}');
    expect(unstorable.status).toBe(400);
    expect(unstorable.body.error.code).toBe('invalid_string');
    expect(unstorable.body.error.path).toBe('/x/bio');
    expect((await server.store.listPersonas('local-user')).length).toBe(0);
  });

  it('wrong content types are 415 (a cross-site text/plain POST cannot start a turn)', async () => {
    const { id } = await newSession(server);
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await post(`/v1/sessions/${id}/turns`, '{"input":"/check_pack"}', type);
      expect([type, response.status]).toEqual([type, 415]);
    }
    expect(
      (await server.call(`/v1/sessions/${id}/turns`, { method: 'POST', body: '{"input":"/check_pack"}' }))
        .status,
    ).toBe(415);
    expect((await server.store.listTree(id)).length).toBe(1);
  });

  it('unknown fields and wrong types are 400 with the field named', async () => {
    const response = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', admin: true },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error.issues)).toContain('admin');
    const both = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: 'x', interaction: { minigame_id: 'a', status: 'completed' } },
    });
    expect(both.status).toBe(400);
  });

  it('query strings have no nesting: prototype-looking keys are plain names', async () => {
    const response = await server.json('/v1/sessions?__proto__[x]=1&a[constructor][prototype][y]=1');
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });

  it('ids with path traversal, encoded dots and NUL are not found, never files', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f', '%00', 'CON']) {
      const response = await server.call(`/v1/sessions/${id}`);
      expect([id, response.status]).toEqual([id, 404]);
    }
    expect((await server.call('/v1/cartridge-versions/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
  });

  it('concurrent turns on one session: each commits on the head or is refused with 409; the commits form one chain', async () => {
    const { id } = await newSession(server);
    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: '/check_pack' } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    const committed = statuses.filter((s) => s === 201).length;
    expect(committed).toBeGreaterThanOrEqual(1);
    for (const r of responses) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 409) expect(r.body.error.code).toMatch(/^[a-z_]+$/);
    }
    // Never a double apply: no two committed turns share a parent (that would be two turns applied to the
    // same head); they form one chain from the first message, and the session's head is its end.
    const tree = await server.store.listTree(id);
    expect(tree).toHaveLength(1 + committed);
    const byDepth = [...tree].sort((a, b) => a.depth - b.depth);
    expect(byDepth.map((t) => t.depth)).toEqual(Array.from({ length: 1 + committed }, (_, i) => i));
    for (let i = 1; i < byDepth.length; i++) {
      expect(byDepth[i]!.parentId).toBe(byDepth[i - 1]!.id);
      expect(byDepth[i]!.siblingIndex).toBe(0);
    }
    const session = await server.json(`/v1/sessions/${id}`);
    expect(session.body.session.headTurnId).toBe(byDepth.at(-1)!.id);
  });

  it('a retry with the same Idempotency-Key gets the first result, not a second turn', async () => {
    const { id } = await newSession(server);
    const first = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: { 'idempotency-key': 'retry-1' },
      json: { input: '/check_pack' },
    });
    const again = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: { 'idempotency-key': 'retry-1' },
      json: { input: '/check_pack' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.turn.id).toBe(first.body.turn.id);
    expect((await server.store.listTree(id)).length).toBe(2);
    const tooLong = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: { 'idempotency-key': 'k'.repeat(201) },
      json: { input: '/check_pack' },
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('hostile uploads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { maxUploadBytes: 1024 * 1024 } });
  });
  afterAll(() => server.stop());

  const upload = (bytes: Uint8Array, type = 'application/zip', query = '') =>
    server.json(`/v1/cartridges${query}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: Buffer.from(bytes),
    });
  const versions = async () => (await server.store.listCartridges()).reduce((n, c) => n + c.versionCount, 0);

  it('a valid folder uploads as .zip (201, new version) and as .tar.gz (same files: the same version)', async () => {
    const changed = cartridgeZip({ 'bot_lore.md': '# Lanternmere, again\n\nA second edition.\n' });
    const created = await upload(changed);
    expect(created.status).toBe(201);
    expect(created.body.version.name).toBe('Lanternmere');
    const same = await upload(
      cartridgeTarGz({ 'bot_lore.md': '# Lanternmere, again\n\nA second edition.\n' }),
      'application/gzip',
    );
    expect(same.status).toBe(200);
    expect(same.body.version.id).toBe(created.body.version.id);
    const listed = await server.json('/v1/cartridges/Lanternmere/versions');
    expect(listed.body.versions).toHaveLength(2);
  });

  it('an invalid cartridge is 422 with every error as file:line:col, and nothing is stored', async () => {
    const before = await versions();
    const broken = await upload(
      cartridgeZip({
        'yare.yaml':
          'version: "1.0"\nstate_schema:\n  hp: { type: int, default: 1 }\nevents:\n  hit:\n    steps:\n      - set: { path: state.nope, value: 1 }\n',
      }),
    );
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('cartridge_invalid');
    expect(broken.body.error.errors.length).toBeGreaterThan(0);
    for (const e of broken.body.error.errors) {
      expect(e.file).toBe('yare.yaml');
      expect(e.line).toBeGreaterThan(0);
      expect(e.where).toMatch(/^yare\.yaml:\d+:\d+$/);
    }
    const missing = await upload(cartridgeZip({ 'bot_lore.md': undefined }));
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.error.errors)).toContain('bot_lore.md');
    expect(await versions()).toBe(before);
  });

  it('path traversal, links and bombs in uploads are refused with nothing stored', async () => {
    const before = await versions();
    const traversal = await upload(zip([{ name: '../../yare.yaml', data: 'x' }]));
    expect([traversal.status, traversal.body.error.code]).toEqual([422, 'archive_bad_path']);
    const link = await upload(
      zip([{ name: 'yare.yaml', data: '/etc/passwd', unixMode: 0o120777, method: 0 }]),
    );
    expect([link.status, link.body.error.code]).toEqual([422, 'archive_link']);
    const bomb = await upload(
      zip([{ name: 'yare.yaml', data: new Uint8Array(MAX_ENTRY_BYTES), declaredSize: 10 }]),
    );
    expect([bomb.status, bomb.body.error.code]).toEqual([413, 'archive_too_large']);
    expect(await versions()).toBe(before);
  });

  it('wrong content types are 415; a JSON body is not an archive', async () => {
    expect((await upload(cartridgeZip(), 'text/plain')).status).toBe(415);
    expect((await upload(cartridgeZip(), 'application/json')).status).toBe(415);
    const notArchive = await upload(new TextEncoder().encode('{"a":1}'), 'application/octet-stream');
    expect([notArchive.status, notArchive.body.error.code]).toEqual([422, 'archive_format']);
  });

  it('an upload at the size limit is read; one byte over is 413', async () => {
    const limit = 1024 * 1024;
    const padded = (size: number) => {
      const bytes = new Uint8Array(size);
      bytes.set([0x50, 0x4b, 3, 4]);
      return bytes;
    };
    const at = await upload(padded(limit));
    expect(at.status).toBe(422); // read in full, then refused as a malformed zip
    const over = await upload(padded(limit + 1));
    expect([over.status, over.body.error.code]).toEqual([413, 'body_too_large']);
  });
});
