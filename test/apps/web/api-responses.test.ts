// The web client parses the server's answers with the contract's schemas (apps/contract): a real
// server's answers (SQLite, offline) all pass and read back as sent, and a malformed answer — from a stub
// fetch — is an ApiFailure `bad_response` whose message names the request and the wrong fields, which is
// what the UI shows (failureText).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/apps/server/start.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import { MAX_SHOWN_PROBLEMS, parseAnswer } from '../../../src/apps/web/lib/answer.ts';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';
import { LibraryApi } from '../../../src/apps/web/library/library-api.ts';
import { PersonasApi } from '../../../src/apps/web/personas/personas-api.ts';
import { PlayApi, type StreamEvent } from '../../../src/apps/web/play/play-api.ts';
import { SettingsApi } from '../../../src/apps/web/settings/settings-api.ts';
import { ApiFailure, failureText } from '../../../src/apps/web/lib/errors.ts';
import { modelSettingsSchema, SETTINGS_PROVIDERS } from '../../../src/engine/session/model-settings.ts';
import { ONLINE_PROVIDERS } from '../../../src/adapters/llm/index.ts';
import * as responses from '../../../src/apps/contract/responses.ts';
import * as contract from '../../../src/apps/contract/index.ts';
import { responseProblems, sessionsResponse } from '../../../src/apps/contract/responses.ts';
import { safeParse } from 'zod/mini';

const PERSONA = {
  name: 'Wren',
  pronoun_sub: 'she',
  pronoun_obj: 'her',
  pronoun_poss: 'her',
  pronoun_poss_obj: 'hers',
};

describe('a real server’s answers', () => {
  let dir: string;
  let server: RunningServer;
  let api: PlayApi;
  let library: LibraryApi;
  let personas: PersonasApi;
  let settings: SettingsApi;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-responses-'));
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: join(dir, 'db.sqlite'),
      models: () => null,
      seeds: countingSeeds(7),
      authorMode: true,
    });
    const http = new ApiHttp(server.url, () => undefined);
    api = new PlayApi(http);
    library = new LibraryApi(http);
    personas = new PersonasApi(http);
    settings = new SettingsApi(http);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('parse with the schemas: sessions, turns, tree, history, state, world, ledger, events, saves, personas, cartridges', async () => {
    const persona = await personas.create(PERSONA);
    expect(persona).toMatchObject({ ...PERSONA, id: expect.any(String) });
    expect((await personas.list()).map((p) => p.id)).toEqual([persona.id]);
    expect((await personas.update(persona.id, { background: 'a lamplighter' })).background).toBe(
      'a lamplighter',
    );

    const { session, turn: genesis } = await library.createSession({ cartridge: 'Lanternmere', seed: 3 });
    expect(genesis).toMatchObject({ id: session.headTurnId, parentId: null, depth: 0, input: null });
    expect(await library.sessions()).toEqual({
      sessions: [expect.objectContaining({ id: session.id })],
      nextCursor: null,
    });
    expect((await api.session(session.id)).turnCount).toBe(1);

    const events: StreamEvent[] = [];
    for await (const event of api.playTurn(session.id, { input: 'check pack' })) events.push(event);
    const committed = events.find((e) => e.event === 'committed');
    expect(committed?.event).toBe('committed');
    const played = committed?.event === 'committed' ? committed.data.turn : undefined;
    expect(played).toMatchObject({ parentId: genesis.id, depth: 1, input: 'check pack' });

    expect((await api.turn(session.id, played!.id)).narration).toBe(played!.narration);
    expect((await api.tree(session.id)).map((n) => [n.id, n.parentId])).toEqual([
      [genesis.id, null],
      [played!.id, genesis.id],
    ]);
    const history = await api.history(session.id, played!.id);
    expect([history.turns.map((t) => t.id), history.complete]).toEqual([[genesis.id, played!.id], true]);

    const save = await api.createSave(session.id, 'before the fen', played!.id);
    expect(save).toMatchObject({ sessionId: session.id, turnId: played!.id, name: 'before the fen' });
    expect((await api.saves(session.id)).map((s) => s.id)).toEqual([save.id]);

    expect(Object.keys(await api.state(session.id, played!.id))).toContain('player');
    expect((await api.schema(session.id)).some((f) => f.path.join('.') === 'player.hp')).toBe(true);
    expect((await api.world(session.id, played!.id)).turnId).toBe(played!.id);
    expect(Array.isArray(await api.ledger(session.id, played!.id))).toBe(true);
    const event = await api.runEvent(session.id, { event: 'check_pack', parentId: played!.id, seed: 5 });
    expect([event.record.event, event.record.seed]).toEqual(['check_pack', 5]);
    const listed = (await library.list()).cartridges.find((c) => c.latest.id === session.cartridgeVersionId);
    expect(listed?.versionCount).toBeGreaterThan(0);
    expect((await library.versions(listed!.name)).map((v) => v.id)).toContain(listed!.latest.id);

    expect((await settings.read()).settings).toEqual({});
    const saved = await settings.save({ models: { narrator: ' small-model ' }, temperature: 0.5 });
    expect([saved.settings, saved.server.allowUserBaseUrl]).toEqual([
      { models: { narrator: 'small-model' }, temperature: 0.5 },
      false,
    ]);

    expect((await api.setSessionPersona(session.id, persona.id)).personaId).toBe(persona.id);
    expect((await api.undo(session.id)).headTurnId).toBe(genesis.id);
    expect((await api.moveHead(session.id, played!.id)).headTurnId).toBe(played!.id);
  });

  it('parse with the schemas the web client does not read: me, mini-games, library, versions, turns as JSON, children, stateless, builder', async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const parsed = (schema: Parameters<typeof safeParse>[0], answer: { status: number; body: unknown }) => {
      const result = safeParse(schema, answer.body);
      return [answer.status, result.success ? [] : responseProblems(result.error)];
    };
    const { session } = await library.createSession({ cartridge: 'Lanternmere', seed: 3 });
    expect(parsed(responses.meResponse, await call('GET', '/v1/me'))).toEqual([200, []]);
    expect(parsed(responses.minigamesResponse, await call('GET', '/v1/minigames'))).toEqual([200, []]);
    expect(parsed(responses.minigameViewSchema, await call('GET', '/v1/minigames/lights_out'))).toEqual([
      200,
      [],
    ]);
    expect(parsed(responses.cartridgesResponse, await call('GET', '/v1/cartridges'))).toEqual([200, []]);
    expect(
      parsed(responses.versionsResponse, await call('GET', '/v1/cartridges/Lanternmere/versions')),
    ).toEqual([200, []]);
    expect(
      parsed(
        responses.cartridgeVersionFilesResponse,
        await call('GET', `/v1/cartridge-versions/${session.cartridgeVersionId}`),
      ),
    ).toEqual([200, []]);
    const played = await call('POST', `/v1/sessions/${session.id}/turns`, { input: 'check pack' });
    expect(parsed(responses.turnResultResponse, played)).toEqual([201, []]);
    expect(
      parsed(
        responses.childrenResponse,
        await call('GET', `/v1/sessions/${session.id}/turns/${session.headTurnId}/children`),
      ),
    ).toEqual([200, []]);
    expect(
      parsed(responses.turnResultResponse, await call('POST', `/v1/sessions/${session.id}/regenerate`, {})),
    ).toEqual([201, []]);
    expect(
      parsed(
        responses.statelessTurnResponse,
        await call('POST', '/v1/turn', { cartridge: 'Lanternmere', input: 'check pack' }),
      ),
    ).toEqual([200, []]);
    expect(parsed(responses.templatesResponse, await call('GET', '/v1/builder/templates'))).toEqual([
      200,
      [],
    ]);
    const draft = await call('POST', '/v1/builder/drafts', { name: 'draft' });
    expect(parsed(responses.draftResponse, draft)).toEqual([201, []]);
    const draftId = (draft.body as { draft: { id: string } }).draft.id;
    expect(parsed(responses.draftsResponse, await call('GET', '/v1/builder/drafts'))).toEqual([200, []]);
    expect(
      parsed(
        responses.savedDraftResponse,
        await call('PUT', `/v1/builder/drafts/${draftId}?check=true`, { name: 'd' }),
      ),
    ).toEqual([200, []]);
    const files = (draft.body as { draft: { files: Record<string, string> } }).draft.files;
    expect(
      parsed(responses.builderCheckResponse, await call('POST', '/v1/builder/check', { files })),
    ).toEqual([200, []]);
  });
});

it('offers the providers of the one table: the model layer’s, the server’s settings and the browser’s list', () => {
  // One array, not copies kept equal: the browser's list is the server's.
  expect(contract.SETTINGS_PROVIDERS).toBe(SETTINGS_PROVIDERS);
  expect(SETTINGS_PROVIDERS).toEqual([...ONLINE_PROVIDERS, 'file']);
  for (const provider of SETTINGS_PROVIDERS) {
    expect(safeParse(modelSettingsSchema, { provider }).success).toBe(true);
    const answer = { settings: { provider }, updatedAt: null, problem: null };
    const server = { provider: 'offline', models: null, allowUserBaseUrl: true };
    expect(safeParse(contract.settingsResponse, { ...answer, server }).success).toBe(true);
  }
  expect(safeParse(modelSettingsSchema, { provider: 'offline' }).success).toBe(false);
});

describe('a malformed answer', () => {
  const original = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = original;
  });

  function answer(body: unknown, type = 'application/json'): void {
    globalThis.fetch = (async () =>
      new Response(JSON.stringify(body), { headers: { 'content-type': type } })) as typeof fetch;
  }

  const session = {
    id: 's1',
    cartridgeVersionId: 'v1',
    personaId: null,
    title: null,
    headTurnId: 't1',
    turnCount: 1,
    createdAt: 1,
    updatedAt: 2,
  };

  it('is a bad_response failure naming the request and the field, shown as such in the UI', async () => {
    answer({ sessions: [session, { ...session, createdAt: 'yesterday' }], nextCursor: null });
    const error = await new LibraryApi(new ApiHttp('http://127.0.0.1:1')).sessions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).code).toBe('bad_response');
    const expected =
      "the server's answer to GET /v1/sessions is not what this client expects: sessions.1.createdAt: expected number";
    expect((error as ApiFailure).message).toBe(expected);
    expect(failureText(error)).toBe(expected);
  });

  it('names a missing wrapper and a wrong type of the whole answer', async () => {
    answer({ session });
    await expect(new LibraryApi(new ApiHttp('http://127.0.0.1:1')).sessions()).rejects.toThrow(
      'GET /v1/sessions is not what this client expects: sessions: missing (expected array)',
    );
    answer([1, 2]);
    await expect(new PlayApi(new ApiHttp('http://127.0.0.1:1')).session('s1')).rejects.toThrow(
      'GET /v1/sessions/s1 is not what this client expects: (the answer): expected object',
    );
  });

  it(`shows ${MAX_SHOWN_PROBLEMS} field problems and counts the rest`, () => {
    const bad = (n: number) => ({
      sessions: Array.from({ length: n }, () => ({ ...session, id: 7 })),
      nextCursor: null,
    });
    const messageOf = (n: number) => {
      try {
        parseAnswer(sessionsResponse, bad(n), 'GET /v1/sessions');
        return 'parsed';
      } catch (error) {
        return (error as ApiFailure).message;
      }
    };
    const atLimit = messageOf(MAX_SHOWN_PROBLEMS);
    expect(atLimit.match(/expected string/g)?.length).toBe(MAX_SHOWN_PROBLEMS);
    expect(atLimit).not.toContain('more');
    const past = messageOf(MAX_SHOWN_PROBLEMS + 1);
    expect(past.match(/expected string/g)?.length).toBe(MAX_SHOWN_PROBLEMS);
    expect(past).toMatch(/\(and 1 more\)$/);
  });

  it('in a turn stream, a committed turn that does not match is a failed event, not a turn', async () => {
    const frames = 'event: committed\ndata: {"turn":{"id":"t2","narration":5}}\n\n';
    globalThis.fetch = (async () =>
      new Response(frames, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;
    const events: StreamEvent[] = [];
    for await (const event of new PlayApi(new ApiHttp('http://127.0.0.1:1')).playTurn('s1', { input: 'x' }))
      events.push(event);
    expect(events).toHaveLength(1);
    const failed = events[0];
    expect(failed?.event).toBe('failed');
    const failure = failed?.event === 'failed' ? failed.failure : undefined;
    expect(failure?.code).toBe('bad_response');
    expect(failure?.message).toContain('the turn stream (committed)');
    expect(failure?.message).toContain(
      'is not what this client expects: turn.parentId: missing (expected string); turn.depth: missing (expected number);',
    );
    // Present with the wrong type, not missing:
    expect(failure?.details.problems).toContain('turn.narration: expected string');
    expect(failure?.details.problems).toContain('replayed: missing (expected boolean)');
  });
});
