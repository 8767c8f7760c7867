// POST /v1/builder/generate over real SSE: a scripted model writes three known errors and then fixes
// them; the stream shows each round and the checker's file:line:col findings, and the final valid files land
// in the draft `done` names. The scripted model is relayed from the generator's worker to this thread
// (src/apps/server/generate/relayed-model.ts). With no model the route refuses (409); a failing model ends
// the stream with an error event.
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { FIRST_ANSWER, FIXED_YARE, REPAIR_ANSWER } from '../../tools/authoring/builder/drafts.ts';
import { readSse, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const generate = (s: TestServer, body: unknown) =>
  s.call('/v1/builder/generate', { method: 'POST', json: body, headers: { accept: 'text/event-stream' } });

describe('POST /v1/builder/generate', () => {
  it('streams the rounds: three errors found, repaired, done naming the draft with the valid files and the transcript', async () => {
    const models = createScriptedModels({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] });
    server = await startTestServer({ models: () => models, modelMode: 'online' });
    const response = await generate(server, { requirements: 'A mill pond with a swim and a wheel puzzle.' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(response);
    expect(events.map((e) => e.event)).toEqual([
      'round',
      'answered',
      'checked',
      'round',
      'answered',
      'checked',
      'saved',
      'done',
    ]);
    expect(
      events[2]?.data.errors.map((e: { where: string; code: string }) => `${e.where} ${e.code}`),
    ).toEqual([
      'yare.yaml:15:14 YARE_UNKNOWN_PATH',
      'yare.yaml:16:13 YARE_BAD_STEP',
      'yare.yaml:34:38 CART_MINIGAME_CONFIG',
    ]);
    expect(events[3]?.data).toEqual({ round: 2, kind: 'repair', errors: 3 });
    expect(events[2]?.data.errorCount).toBe(3);
    const done = events.at(-1)?.data;
    expect(done).toEqual({
      ok: true,
      errors: [],
      errorCount: 0,
      warnings: [],
      warningCount: 0,
      rounds: 2,
      draftId: events.at(-2)?.data.draftId,
    });
    // The files and the transcript are the draft's, not the stream's.
    const draft = (await server.json(`/v1/builder/drafts/${done.draftId}`)).body.draft;
    expect(draft.files['yare.yaml']).toBe(FIXED_YARE);
    expect(draft.transcript).toContain('## Round 2 (repair)');
  });

  it('refuses with 409 no_model when the caller has no model', async () => {
    server = await startTestServer({ models: () => null, modelMode: 'offline' });
    const response = await server.json('/v1/builder/generate', {
      method: 'POST',
      json: { requirements: 'x' },
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('no_model');
  });

  it('a model failure ends the stream with an error event; bad bodies are 400', async () => {
    const models = createScriptedModels({
      director: [{ error: { kind: 'http', status: 503, message: 'overloaded' } }],
    });
    server = await startTestServer({ models: () => models, modelMode: 'online' });
    const events = await readSse(await generate(server, { requirements: 'x' }));
    expect(events.map((e) => e.event)).toEqual(['round', 'error']);
    expect(events[1]?.data.code).toBe('model');
    expect((await generate(server, { requirements: '' })).status).toBe(400);
    expect((await generate(server, { requirements: 'x', rounds: 9 })).status).toBe(400);
    expect((await generate(server, { requirements: 'x', existing: { 'bot_lore.md': '#' } })).status).toBe(
      400,
    );
  });
});
