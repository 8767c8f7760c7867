// GET /v1/minigames (the manifests) and a mini-game result with a list-valued metric over HTTP: the
// original refused `selected_sequence` with a 422; here the resolver of Ember Toll (rules in yare.ts) runs.
// A hostile rules module uploaded is a 422 naming the limit, and the server keeps answering.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_METRIC_LIST_ITEMS } from '../../../src/core/minigames/index.ts';
import { zip } from './archives.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const EMBER_TOLL = join(import.meta.dirname, '..', '..', '..', 'cartridges', 'ember-toll');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const upload = await server.json('/v1/cartridges', {
    method: 'POST',
    headers: { 'content-type': 'application/zip' },
    body: Buffer.from(
      zip(
        ['yare.ts', 'bot_lore.md'].map((name) => ({
          name,
          data: readFileSync(join(EMBER_TOLL, name), 'utf8'),
        })),
      ),
    ),
  });
  if (upload.status !== 201) throw new Error(JSON.stringify(upload.body));
}, 60_000);
afterAll(() => server.stop());

describe('GET /v1/minigames', () => {
  it('lists the three manifests with their config schema', async () => {
    const list = await server.json('/v1/minigames');
    expect(list.status).toBe(200);
    expect(list.body.minigames.map((m: { minigame_id: string }) => m.minigame_id)).toEqual([
      'lights_out',
      'articulation_scramble',
      'reflex_dial',
    ]);
    const scramble = list.body.minigames[1];
    expect(scramble.metrics).toContainEqual(
      expect.objectContaining({ name: 'selected_sequence', kind: 'text_list' }),
    );
    expect(scramble.config_schema.properties.difficulty.required).toEqual(['correct_sequence']);
    expect(scramble.accessibility).toContain('Keyboard');
  });

  it('one manifest by id; an unknown id is a 404 naming the known ones', async () => {
    const one = await server.json('/v1/minigames/reflex_dial');
    expect(one.status).toBe(200);
    expect(one.body.difficulty.indicator_speed).toMatchObject({ min: 0.05, max: 3 });
    const none = await server.json('/v1/minigames/tetris');
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('lights_out, articulation_scramble, reflex_dial');
  });
});

describe('a list-valued metric in a mini-game result', () => {
  const pending = {
    _pending_interaction: {
      interaction_type: 'minigame',
      minigame_id: 'articulation_scramble',
      resolver_event: 'resolve_password',
      config: {},
    },
  };
  const turn = (selected: unknown[]) =>
    server.json('/v1/turn', {
      method: 'POST',
      json: {
        cartridge: 'Ember Toll',
        state: pending,
        interaction: {
          minigame_id: 'articulation_scramble',
          status: 'completed',
          metrics: { success: true, selected_sequence: selected, time_spent_seconds: 4.2 },
        },
      },
    });

  it('is accepted and the resolver runs', async () => {
    const response = await turn(['ash', 'over', 'water']);
    expect(response.status).toBe(200);
    expect(response.body.state.player).toMatchObject({ crossed: true, knows_password: true });
  });

  it(`at ${MAX_METRIC_LIST_ITEMS} items it is accepted; one more is refused with the limit named`, async () => {
    expect((await turn(Array(MAX_METRIC_LIST_ITEMS).fill('w'))).status).toBe(200);
    const refused = await turn(Array(MAX_METRIC_LIST_ITEMS + 1).fill('w'));
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('MAX_METRIC_LIST_ITEMS');
  });
});

describe('a hostile rules module uploaded', () => {
  it('an endless yare.js is 422 with the time limit named, nothing is stored, and the server answers next', async () => {
    const before = (await server.json('/v1/cartridges')).body.cartridges.length;
    const upload = await server.json('/v1/cartridges?name=endless', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: Buffer.from(
        zip([
          { name: 'yare.js', data: 'for (;;) {}\nexport default {};\n' },
          { name: 'bot_lore.md', data: '# x\n' },
        ]),
      ),
    });
    expect(upload.status).toBe(422);
    expect(upload.body.error.errors[0]).toMatchObject({ file: 'yare.js', code: 'CART_RULES_SCRIPT_LIMIT' });
    expect(upload.body.error.errors[0].message).toContain('did not finish within');
    expect((await server.json('/v1/cartridges')).body.cartridges.length).toBe(before);
    expect((await server.json('/v1/minigames')).status).toBe(200);
  });
});
