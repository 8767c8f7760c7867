// biome-ignore-all lint/suspicious/noExplicitAny: response bodies and stored records are read loosely.
// What a model answers and what a cartridge writes cannot make a turn's record huge: over real HTTP, a
// fake OpenAI-compatible model answering with a 1 MB model id and 900 KB tool-call ids gives a turn that
// commits with a record of normal size (the refused values kept as reason, length and sha256); a cartridge
// whose events write megabytes of notes gets a 422 naming the event, never a 400 blaming the request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { MAX_MODEL_ID_CHARS, MAX_TOOL_CALL_ID_CHARS } from '../../../src/adapters/llm/output-caps.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { MAX_RECORD_BYTES } from '../../../src/adapters/store/limits.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { cartridgeZip, LANTERNMERE_DIR, newSession, startTestServer, type TestServer } from './helpers.ts';

const isNarrator = (body: unknown) => JSON.stringify(body ?? '').includes('You are the Narrator');

describe('model output over its caps, through a real server', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  const hugeModel = 'm'.repeat(1_000_000);
  const hugeId = (i: number) => `${i}`.padEnd(900_000, 'i');
  /** What the fake model answers with: a 1 MB model id, or 900 KB call ids. */
  let mode: 'model' | 'ids' = 'model';
  let directorCalls = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI((request) => {
      const model = mode === 'model' ? hugeModel : 'fake-model';
      if (isNarrator(request.body)) return { kind: 'text', text: 'The fen is quiet.', model };
      directorCalls += 1;
      if (directorCalls % 2 === 1) {
        return {
          kind: 'tool-calls',
          model,
          calls: Array.from({ length: 24 }, (_, i) => ({
            ...(mode === 'ids' ? { id: hugeId(i) } : {}),
            name: 'lore_lookup',
            arguments: { queries: ['fen'] },
          })),
        };
      }
      return { kind: 'text', text: 'Describe the fen plainly.', model };
    });
    const config = loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_API_KEY: 'test',
      MNESOS_LLM_MAX_RETRIES: '0',
    });
    server = await startTestServer({ models: () => createModels(config), modelMode: 'online' });
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  async function playStored(): Promise<{ record: any; narration: string }> {
    const { id } = await newSession(server);
    const played = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'I look at the fen' },
    });
    expect(played.status, JSON.stringify(played.body).slice(0, 400)).toBe(201);
    const stored = await server.store.getTurn(id, played.body.turn.id as string);
    return { record: stored!.record as any, narration: played.body.turn.narration };
  }

  it('a 1 MB model id: the turn commits, the configured id is kept, the refusal is a reason, length and hash', async () => {
    mode = 'model';
    const { record, narration } = await playStored();
    expect(JSON.stringify(record).length).toBeLessThan(100_000);
    expect(record.models).toEqual({ director: 'fake-model', narrator: 'fake-model' });
    const refused = record.refusedOutput as any[];
    expect(refused.map((r) => `${r.role} ${r.field}`)).toEqual([
      'director modelId',
      'director modelId',
      'narrator modelId',
    ]);
    for (const r of refused) {
      expect(r).toMatchObject({ chars: hugeModel.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(r.reason).toMatch(/MAX_MODEL_ID_CHARS/);
    }
    expect(narration).toBe('The fen is quiet.');
    expect(hugeModel.length).toBeGreaterThan(MAX_MODEL_ID_CHARS);
  });

  it('900 KB tool-call ids: the calls run under stand-in ids and the stored record stays small', async () => {
    mode = 'ids';
    const { record, narration } = await playStored();
    expect(JSON.stringify(record).length).toBeLessThan(100_000);
    const refused = record.refusedOutput as any[];
    expect(refused).toHaveLength(24);
    refused.forEach((r, i) => {
      expect(r).toMatchObject({ role: 'director', field: `toolCalls[${i}].id`, chars: 900_000 });
      expect(r.reason).toMatch(/MAX_TOOL_CALL_ID_CHARS/);
    });
    expect(record.tools.length).toBeGreaterThan(0);
    for (const tool of record.tools) expect(tool.id).toMatch(/^call_capped_\d+$/);
    // The Director's next request echoes the same stand-in ids, never the 900 KB ones.
    const directorBodies = fake.chatRequests().filter((b) => !isNarrator(b));
    const echoed = JSON.stringify(directorBodies.at(-1)!.messages);
    expect(echoed.length).toBeLessThan(200_000);
    expect(echoed).toContain('call_capped_0');
    expect(narration).toBe('The fen is quiet.');
    expect(900_000).toBeGreaterThan(MAX_TOOL_CALL_ID_CHARS);
  });
});

describe('a record too large because of the cartridge', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  // Three cycle ticks, each writing 99 × 40 notes of 2,000 characters: 11,880 notes, about 24 MB.
  const yare = readFileSync(join(LANTERNMERE_DIR, 'yare.yaml'), 'utf8');
  const items = `[${Array.from({ length: 99 }, (_, i) => i).join(', ')}]`;
  const forty = `[${Array.from({ length: 40 }, (_, i) => i).join(', ')}]`;
  const tick = (name: string) => `  ${name}:
    internal: true
    trigger_on: cycle_tick
    description: "Writes too much."
    steps:
      - action: foreach
        array: "@ ${items}"
        item: a
        steps:
          - action: foreach
            array: "@ ${forty}"
            item: b
            steps:
              - action: note
                message: "{state.world.pad}"
`;
  const spam = yare
    .replace(/^events:\n/m, `events:\n${tick('spam_notes')}${tick('spam_more')}${tick('spam_again')}`)
    .replace(/^ {2}world:\n/m, `  world:\n    pad: { type: string, default: "${'p'.repeat(2_000)}" }\n`);

  it('is a 422 naming the event and its notes; nothing is saved', async () => {
    const uploaded = await server.json('/v1/cartridges?name=Spam', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: Buffer.from(cartridgeZip({ 'yare.yaml': spam.replace(/^bot_name:.*$/m, 'bot_name: "Spam"') })),
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const created = await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Spam' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.session.id as string;
    const played = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/check_pack' },
    });
    expect(played.status, JSON.stringify(played.body).slice(0, 500)).toBe(422);
    expect(played.body.error.code).toBe('turn_too_large');
    expect(played.body.error.part).toBe('notes');
    expect(played.body.error.event).toMatch(/^spam_/);
    expect(played.body.error.message).toMatch(/event 'spam_\w+' wrote 3960 notes/);
    expect(played.body.error.message).toMatch(/MAX_(RECORD|NARRATION)_BYTES/);
    expect((await server.store.listTree(id)).length).toBe(1);
    expect(MAX_RECORD_BYTES).toBeLessThan(11_880 * 2_000);
  });
});
