// An answer without a turn is a success (issue 32, item 4): offline, "look around", a question back and the
// rules' refusal are 200 answers that say no turn was played and why — as one JSON answer, over SSE (an
// `answered` event, no `error`), and on the stateless route — while a wrong request stays an error and a
// played turn stays a 201. Nothing is committed by an answer. Real HTTP server, offline, the demo cartridge.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noTurnResponse, turnOrAnswerResponse } from '../../../src/apps/contract/index.ts';
import { newSession, readSse, startTestServer, type TestServer } from './helpers.ts';

const SSE = { accept: 'text/event-stream' };

describe('no turn played: a 200 answer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('looking around is a 200 with played: false, reason free, and the answer; nothing is committed', async () => {
    const { id } = await newSession(server);
    const answer = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'look around' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ played: false, reason: 'free', modelMode: 'offline' });
    expect(answer.body.text).toMatch(/Tallow Rest/);
    expect(answer.body.turn).toBeUndefined();
    expect(noTurnResponse.safeParse(answer.body).success).toBe(true);
    expect(turnOrAnswerResponse.safeParse(answer.body).success).toBe(true);
    expect((await server.store.listTree(id)).length).toBe(1);
  });

  it('a question back and words that match nothing are 200 answers with their reasons', async () => {
    const { id } = await newSession(server);
    const question = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'I travel' },
    });
    expect(question.status).toBe(200);
    expect(question.body).toMatchObject({ played: false, reason: 'question' });
    expect(question.body.text).toMatch(/Which destination/);
    const nothing = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'xyzzy' },
    });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ played: false, reason: 'unmatched' });
    expect((await server.store.listTree(id)).length).toBe(1);
  });

  it('a played turn is still a 201 with the turn, and a wrong request still an error', async () => {
    const { id } = await newSession(server);
    const played = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/travel brine market' },
    });
    expect(played.status).toBe(201);
    expect(played.body.turn.state.player.location).toBe('brine market');
    const wrong = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { interaction: { minigame_id: 'lights_out', status: 'completed' } },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('invalid_turn');
  });

  it('over SSE: the last event is answered, with the reason and the text; no error, no committed', async () => {
    const { id } = await newSession(server);
    const response = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: SSE,
      json: { input: 'look around' },
    });
    expect(response.status).toBe(200);
    const events = await readSse(response);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('answered');
    expect(names.filter((n) => n === 'answered' || n === 'error' || n === 'committed')).toEqual(['answered']);
    expect(events.at(-1)!.data).toMatchObject({ played: false, reason: 'free', modelMode: 'offline' });
    expect(String(events.at(-1)!.data.text)).toMatch(/Tallow Rest/);
    expect((await server.store.listTree(id)).length).toBe(1);
  });

  it('the stateless turn answers the same way', async () => {
    const answer = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: 'look around', seed: 1 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ played: false, reason: 'free', modelMode: 'offline' });
    const played = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: '/travel reedmaze', seed: 1 },
    });
    expect(played.status).toBe(200);
    expect(played.body.played).toBeUndefined();
    expect(played.body.state.player.location).toBe('reedmaze');
  });
});
