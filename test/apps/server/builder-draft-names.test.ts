// A builder draft never silently joins another cartridge: over real HTTP (SQLite), a draft whose bot_name
// is the name of a cartridge the caller already has is refused with 409 name_taken (nothing stored) until
// the caller says which cartridge it joins (addTo); a draft with a name of its own starts its own
// cartridge; the same files saved again are that version again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { KEY_A, KEY_B, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;

const yare = (botName: string, hp: number) => `version: "1.0"
bot_name: "${botName}"
state_schema:
  player:
    visibility: public
    hp: { type: int, default: ${hp}, min: 0 }
events:
  rest:
    description: "Rest."
    steps:
      - action: note
        message: "[SYSTEM LOG: The player rests.]"
`;
const files = (botName: string, hp: number) => ({
  'yare.yaml': yare(botName, hp),
  'bot_lore.md': '# Mill\n\nA mill pond.\n',
  'first-message.md': 'The wheel turns.\n',
});

beforeAll(async () => {
  server = await startTestServer({
    apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`),
    models: () => null,
    modelMode: 'offline',
  });
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, json: unknown, key = KEY_A) => server.json(path, { method: 'POST', json, key });
const versionsOf = async (name: string, key = KEY_A) =>
  (
    (await server.json(`/v1/cartridges/${encodeURIComponent(name)}/versions`, { key })).body.versions ?? []
  ).map((v: { id: string }) => v.id);

describe('a draft named like an existing cartridge', () => {
  it('is refused with 409 name_taken and nothing stored, until addTo names the cartridge it joins', async () => {
    const first = (await post('/v1/builder/drafts', { name: 'Mill', files: files('Mill Pond', 10) })).body
      .draft;
    const created = await post(`/v1/builder/drafts/${first.id}/versions`, undefined);
    expect(created.status).toBe(201);
    expect(created.body.version.name).toBe('Mill Pond');
    // The same draft's same files again: that version again, nothing asked.
    const again = await post(`/v1/builder/drafts/${first.id}/versions`, undefined);
    expect(again.status).toBe(200);
    expect(again.body.version.id).toBe(created.body.version.id);

    // Another draft whose bot_name happens to be the same.
    const other = (await post('/v1/builder/drafts', { name: 'Other', files: files('Mill Pond', 12) })).body
      .draft;
    const refused = await post(`/v1/builder/drafts/${other.id}/versions`, undefined);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('name_taken');
    expect(refused.body.error.name).toBe('Mill Pond');
    expect(refused.body.error.cartridgeId).toEqual(expect.any(String));
    expect(refused.body.error.message).toMatch(/already have a cartridge named 'Mill Pond'.*bot_name/);
    expect(await versionsOf('Mill Pond')).toEqual([created.body.version.id]);

    // addTo naming another cartridge is no consent to join this one.
    const wrong = await server.json(`/v1/builder/drafts/${other.id}/versions?addTo=Elsewhere`, {
      method: 'POST',
      key: KEY_A,
    });
    expect(wrong.status).toBe(409);

    const joined = await server.json(
      `/v1/builder/drafts/${other.id}/versions?addTo=${encodeURIComponent('Mill Pond')}`,
      {
        method: 'POST',
        key: KEY_A,
      },
    );
    expect(joined.status).toBe(201);
    expect(await versionsOf('Mill Pond')).toEqual(
      expect.arrayContaining([created.body.version.id, joined.body.version.id]),
    );
  });

  it('a draft with a name of its own starts its own cartridge; another caller’s names are not in the way', async () => {
    const own = (await post('/v1/builder/drafts', { name: 'Kiln', files: files('Kiln Yard', 5) })).body.draft;
    const saved = await post(`/v1/builder/drafts/${own.id}/versions`, undefined);
    expect(saved.status).toBe(201);
    expect(saved.body.version.name).toBe('Kiln Yard');
    // Bob has no cartridge of that name: his draft of the same bot_name starts his own.
    const bobs = (await post('/v1/builder/drafts', { name: 'Kiln', files: files('Kiln Yard', 6) }, KEY_B))
      .body.draft;
    const his = await post(`/v1/builder/drafts/${bobs.id}/versions`, undefined, KEY_B);
    expect(his.status).toBe(201);
  });
});
