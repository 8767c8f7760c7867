import { describe, expect, it } from 'vitest';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';
import { cartridgeNameOf } from '../../../src/apps/web/library/library-api.ts';
import { PlayApi, streamEventOf } from '../../../src/apps/web/play/play-api.ts';
import { settingsBody } from '../../../src/apps/web/settings/settings-api.ts';

/** A turn as the server's player view shows it (contract/responses.ts publicTurnSchema). */
function turn(id: string, parentId: string | null) {
  return {
    id,
    parentId,
    depth: parentId === null ? 0 : 1,
    siblingIndex: 0,
    seq: parentId === null ? 0 : 1,
    createdAt: 1,
    sessionId: 's1',
    input: parentId === null ? null : 'look',
    narration: 'The fen is quiet.',
    mode: 'offline',
    state: {},
    pendingInteraction: null,
    outcome: null,
  };
}
import {
  ApiFailure,
  failureOf,
  formatProblem,
  issueLines,
  problemsOf,
} from '../../../src/apps/web/lib/errors.ts';

describe('stream events', () => {
  it('reads the server’s turn events', () => {
    expect(streamEventOf('start', { turnId: 't2', parentId: 't1' })).toEqual({
      event: 'start',
      data: { turnId: 't2', parentId: 't1' },
    });
    expect(streamEventOf('phase', { phase: 'narrator' })).toEqual({
      event: 'phase',
      data: { phase: 'narrator' },
    });
    expect(streamEventOf('tool_call', { round: 1, name: 'attack' })).toEqual({
      event: 'tool_call',
      data: { round: 1, name: 'attack' },
    });
    expect(streamEventOf('narration', { text: 'The ' })).toEqual({
      event: 'narration',
      data: { text: 'The ' },
    });
    expect(streamEventOf('committed', { turn: turn('t2', 't1'), replayed: false })).toEqual({
      event: 'committed',
      data: { turn: turn('t2', 't1'), replayed: false },
    });
  });

  it('turns an error event into a failure with the server’s status and code', () => {
    const event = streamEventOf('error', {
      status: 409,
      error: { code: 'turn_conflict', message: 'the session moved on while this turn ran' },
    });
    expect(event?.event).toBe('failed');
    const failure = event?.event === 'failed' ? event.failure : undefined;
    expect(failure).toBeInstanceOf(ApiFailure);
    expect([failure?.status, failure?.code, failure?.message]).toEqual([
      409,
      'turn_conflict',
      'the session moved on while this turn ran',
    ]);
  });

  it('skips unknown events; a malformed event of a known kind is a bad_response failure naming its field', () => {
    expect(streamEventOf('future_event', {})).toBeUndefined();
    // `__proto__` and other names an object inherits are no events of the contract.
    expect(streamEventOf('__proto__', {})).toBeUndefined();
    expect(streamEventOf('toString', {})).toBeUndefined();
    const narration = streamEventOf('narration', { text: 42 });
    expect(narration?.event === 'failed' ? narration.failure.message : undefined).toBe(
      "the server's answer to the turn stream (narration) is not what this client expects: text: expected string",
    );
    const event = streamEventOf('committed', 'nope');
    expect(event?.event).toBe('failed');
    expect(event?.event === 'failed' ? event.failure.code : undefined).toBe('bad_response');
  });
});

describe('API failures', () => {
  it('reads cartridge problems in the server’s shape and formats them as file:line:col', () => {
    const failure = failureOf(422, {
      error: {
        code: 'cartridge_invalid',
        message: 'the cartridge has 1 error(s)',
        errors: [
          {
            file: 'yare.yaml',
            line: 12,
            col: 7,
            code: 'YARE_PATH',
            message: 'unknown path state.player.locaton',
          },
        ],
      },
    });
    expect(failure.problems.map(formatProblem)).toEqual([
      'yare.yaml:12:7: unknown path state.player.locaton',
    ]);
    expect(
      problemsOf([{ place: { file: 'a.md', line: 1, col: 2 }, message: 'm' }]).map(formatProblem),
    ).toEqual(['a.md:1:2: m']);
  });

  it('survives a body that is not the API’s error shape', () => {
    for (const body of [undefined, null, 'Bad Gateway', [1], { error: 'x' }]) {
      const failure = failureOf(502, body);
      expect(failure.code).toBe('http_502');
      expect(failure.message).toBe('the server answered 502');
      expect(failure.problems).toEqual([]);
    }
  });
});

describe('cartridge names from archive names', () => {
  it('strips the folder and the archive extension', () => {
    expect(cartridgeNameOf('fenlight.tar.gz')).toBe('fenlight');
    expect(cartridgeNameOf('C:\\\\carts\\\\Marsh Tale.ZIP')).toBe('Marsh Tale');
    expect(cartridgeNameOf('x.tgz')).toBe('x');
  });
});

describe('model settings requests', () => {
  it('leave blank fields out and trim model names, so the server’s models apply to them', () => {
    expect(
      settingsBody({
        baseUrl: '  ',
        models: { director: ' llama3.1:8b ', narrator: '', npc: undefined },
        temperature: 0,
      }),
    ).toEqual({ models: { director: 'llama3.1:8b' }, temperature: 0 });
    expect(settingsBody({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1' })).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:1/v1',
    });
    expect(settingsBody({})).toEqual({});
  });

  it('lists the field problems of a 400 as path: message', () => {
    const failure = failureOf(400, {
      error: {
        code: 'invalid_request',
        message: 'the request body is not valid',
        issues: [
          { path: 'models.narrator', message: 'must be at most 200 characters' },
          'junk',
          { message: 'x' },
        ],
      },
    });
    expect(issueLines(failure)).toEqual(['models.narrator: must be at most 200 characters', 'x']);
    expect(issueLines(failureOf(500, 'nope'))).toEqual([]);
  });
});

describe('history requests', () => {
  it('read the turns and whether the branch is complete, asking for the given turn', async () => {
    const asked: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Response(
        JSON.stringify({ turnId: 't9', turns: [turn('t8', null), turn('t9', 't8')], complete: false }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    }) as typeof fetch;
    try {
      const history = await new PlayApi(new ApiHttp('http://127.0.0.1:1')).history('s 1', 't9');
      expect(history.turns.map((t) => t.id)).toEqual(['t8', 't9']);
      expect(history.complete).toBe(false);
      expect(asked).toEqual(['http://127.0.0.1:1/v1/sessions/s%201/history?turnId=t9']);
    } finally {
      globalThis.fetch = original;
    }
  });
});
