// PATCH /v1/personas/{id} is a JSON merge patch (docs/api.md, "Personas"): fields given replace, `null`
// removes an optional one — how the web client's persona form clears a voice or a description it had set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_A, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const ADA = {
  name: 'Ada',
  pronoun_sub: 'she',
  pronoun_obj: 'her',
  pronoun_poss: 'her',
  pronoun_poss_obj: 'hers',
  background: 'A ferry pilot.',
  voice: 'en-gb',
};

async function newPersona(): Promise<string> {
  const created = await server.json('/v1/personas', { method: 'POST', key: KEY_A, json: ADA });
  expect(created.status).toBe(201);
  return created.body.persona.id as string;
}

describe('PATCH /v1/personas/{id}', () => {
  it('replaces the fields given and keeps the others', async () => {
    const id = await newPersona();
    const patched = await server.json(`/v1/personas/${id}`, {
      method: 'PATCH',
      key: KEY_A,
      json: { voice: 'en-us' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.persona).toMatchObject({ name: 'Ada', voice: 'en-us', background: 'A ferry pilot.' });
  });

  it('removes an optional field given as null, and the removal is stored', async () => {
    const id = await newPersona();
    const patched = await server.json(`/v1/personas/${id}`, {
      method: 'PATCH',
      key: KEY_A,
      json: { voice: null, background: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.persona.voice).toBeUndefined();
    expect(patched.body.persona.background).toBeUndefined();
    const read = await server.json(`/v1/personas/${id}`, { key: KEY_A });
    expect(read.body.persona).not.toHaveProperty('voice');
    expect(read.body.persona).toMatchObject({ name: 'Ada', pronoun_sub: 'she' });
  });

  it('refuses null for a required field, changing nothing', async () => {
    const id = await newPersona();
    const refused = await server.json(`/v1/personas/${id}`, {
      method: 'PATCH',
      key: KEY_A,
      json: { name: null },
    });
    expect(refused.status).toBe(400);
    const read = await server.json(`/v1/personas/${id}`, { key: KEY_A });
    expect(read.body.persona).toMatchObject({ name: 'Ada', voice: 'en-gb' });
  });
});
