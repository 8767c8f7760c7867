// Invariants through the HTTP API (a real server, SQLite, offline): a session turn whose event breaks an
// invariant is committed with the breach in its record; with `strict: true` it is refused (422, kind
// `invariant`) and the head does not move.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartridgeZip, startTestServer, type TestServer } from '../../apps/server/helpers.ts';

const KEEPER = resolve(import.meta.dirname, '../../fixtures/cartridges/explore-keeper');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const upload = await server.json('/v1/cartridges', {
    method: 'POST',
    headers: { 'content-type': 'application/zip' },
    body: Buffer.from(
      cartridgeZip({
        'yare.yaml': readFileSync(join(KEEPER, 'yare.yaml'), 'utf8'),
        'bot_lore.md': readFileSync(join(KEEPER, 'bot_lore.md'), 'utf8'),
      }),
    ),
  });
  if (upload.status !== 201 && upload.status !== 200)
    throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
});
afterAll(async () => {
  await server?.stop();
});

async function session(): Promise<{ id: string; head: string }> {
  const created = await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Keeper' } });
  expect(created.status).toBe(201);
  return { id: created.body.session.id, head: created.body.session.headTurnId };
}

describe('strict turns over HTTP', () => {
  it('without strict the turn is committed; with strict it is refused and the head stays', async () => {
    const played = await session();
    const turn = await server.json(`/v1/sessions/${played.id}/turns`, {
      method: 'POST',
      json: { input: '/borrow n=3' },
    });
    expect(turn.status).toBe(201);

    const strict = await session();
    const refused = await server.json(`/v1/sessions/${strict.id}/turns`, {
      method: 'POST',
      json: { input: '/borrow n=3', strict: true },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_turn');
    expect(refused.body.error.kind).toBe('invariant');
    expect(refused.body.error.message).toContain("invariant 'debt_never_negative' does not hold");
    expect((await server.json(`/v1/sessions/${strict.id}`)).body.session.headTurnId).toBe(strict.head);
    const kept = await server.json(`/v1/sessions/${strict.id}/turns`, {
      method: 'POST',
      json: { input: '/borrow n=0', strict: true },
    });
    expect(kept.status).toBe(201);
  });
});
