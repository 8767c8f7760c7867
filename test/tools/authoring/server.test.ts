// The authoring parts of the HTTP API on a real server: the editor schemas at /v1/schemas/:kind (the
// same documents `mnesos schema` prints), and an upload of what `tar czf x.tar.gz -C folder .` makes.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../../src/tools/authoring/schema/index.ts';
import { scaffoldCartridge } from '../../../src/tools/authoring/scaffold.ts';
import { startTestServer, type TestServer } from '../../apps/server/helpers.ts';

describe('authoring over HTTP', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'mnesos-authoring-'));
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves each editor schema, and 404 for an unknown kind', async () => {
    for (const kind of ['yare', 'directives', 'scenario'] as const) {
      const got = await server.json(`/v1/schemas/${kind}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(jsonSchemaOf(kind));
    }
    const missing = await server.json('/v1/schemas/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('yare, directives, scenario');
    const doc = await server.json('/openapi.json');
    expect(doc.body.paths['/v1/schemas/{kind}']).toBeDefined();
  });

  it('accepts a cartridge packed with tar czf x.tar.gz -C folder .', async () => {
    const folder = join(dir, 'gull');
    expect(scaffoldCartridge(folder, 'minimal').ok).toBe(true);
    execFileSync('tar', ['czf', join(dir, 'gull.tar.gz'), '-C', folder, '.']);
    const uploaded = await server.json('/v1/cartridges', {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: readFileSync(join(dir, 'gull.tar.gz')),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.version.name).toBe('Gullrock Light');
  });
});
