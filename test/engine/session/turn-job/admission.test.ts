// The one admission of a turn, at each limit and just past it: the operator's input limit, the
// Idempotency-Key's length, the request's shape; the limits' own ranges; and a scoped key claimed as a
// digest. Through the service too: a refused request reads and claims nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionError } from '../../../../src/engine/session/errors.ts';
import {
  admission,
  DEFAULT_ADMISSION,
  resolveAdmission,
  storedIdempotencyKey,
} from '../../../../src/engine/session/turn-job/admission.ts';
import type { TurnRequest } from '../../../../src/engine/session/turn-job/types.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../../../src/adapters/store/limits.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import { MAX_INPUT_CHARS } from '../../../../src/engine/turn/limits.ts';
import { fixture } from '../helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-admission-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(admit: (request: TurnRequest) => unknown, request: TurnRequest): SessionError | undefined {
  try {
    admit(request);
    return undefined;
  } catch (error) {
    if (error instanceof SessionError) return error;
    throw error;
  }
}

describe('admission', () => {
  const admit = admission(resolveAdmission({ maxInputChars: 100 }));

  it('an input at the operator’s limit is admitted; one character more is input-too-long naming the limit', () => {
    expect(refusal(admit, { turn: { input: 'a'.repeat(100) } })).toBeUndefined();
    const over = refusal(admit, { turn: { input: 'a'.repeat(101) } });
    expect(over?.code).toBe('input-too-long');
    expect(over?.message).toBe('the input is 101 characters; the limit is 100');
    expect(over?.details).toEqual({ limit: 100 });
  });

  it('by default the limit is the engine’s own MAX_INPUT_CHARS', () => {
    const byDefault = admission(DEFAULT_ADMISSION);
    expect(refusal(byDefault, { turn: { input: 'a'.repeat(MAX_INPUT_CHARS) } })).toBeUndefined();
    expect(refusal(byDefault, { turn: { input: 'a'.repeat(MAX_INPUT_CHARS + 1) } })?.code).toBe(
      'input-too-long',
    );
  });

  it(`an Idempotency-Key of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters is admitted; 0 or one more is malformed`, () => {
    const turn = { input: 'look' };
    expect(refusal(admit, { turn, idempotencyKey: 'k' })).toBeUndefined();
    expect(refusal(admit, { turn, idempotencyKey: 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH) })).toBeUndefined();
    for (const key of ['', 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1)]) {
      const refused = refusal(admit, { turn, idempotencyKey: key });
      expect(refused?.code).toBe('malformed');
      expect(refused?.message).toBe(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
    }
  });

  it('the shape: exactly one of input and interaction, a well-formed mini-game result, no unknown field', () => {
    const both = { input: 'x', interaction: { minigame_id: 'a', status: 'completed' } };
    expect(refusal(admit, { turn: both as unknown as TurnRequest['turn'] })?.message).toBe(
      'give exactly one of input (the player text) and interaction (a mini-game result)',
    );
    const badStatus = refusal(admit, {
      turn: { interaction: { minigame_id: 'a', status: 'won' as 'completed' } },
    });
    expect(badStatus?.code).toBe('malformed');
    expect(badStatus?.message).toMatch(/^the turn request is not valid: turn\.interaction\.status: /);
    expect(badStatus?.details.issues).toEqual([expect.objectContaining({ path: 'turn.interaction.status' })]);
    const unknown = refusal(admit, { turn: { input: 'x' }, admin: true } as unknown as TurnRequest);
    expect(unknown?.code).toBe('malformed');
    expect(
      refusal(admit, {
        turn: { interaction: { minigame_id: 'a', status: 'completed', metrics: { moves: 9 } } },
      }),
    ).toBeUndefined();
  });

  it('the limits’ own ranges: 1 to MAX_INPUT_CHARS characters, a positive timeout or none', () => {
    expect(resolveAdmission({ maxInputChars: 1 }).maxInputChars).toBe(1);
    expect(resolveAdmission({ maxInputChars: MAX_INPUT_CHARS }).maxInputChars).toBe(MAX_INPUT_CHARS);
    expect(() => resolveAdmission({ maxInputChars: 0 })).toThrow(/positive integer/);
    expect(() => resolveAdmission({ maxInputChars: MAX_INPUT_CHARS + 1 })).toThrow(/MAX_INPUT_CHARS/);
    expect(resolveAdmission({ turnTimeoutMs: 1 }).turnTimeoutMs).toBe(1);
    expect(resolveAdmission().turnTimeoutMs).toBeUndefined();
    expect(() => resolveAdmission({ turnTimeoutMs: 0 })).toThrow(/turnTimeoutMs/);
  });

  it('a key in a scope is stored as a fixed-length digest of the session and the key', () => {
    const request = { turn: { input: 'x' }, idempotencyKey: 'k'.repeat(200), idempotencyScope: 'openai' };
    const a = storedIdempotencyKey(request, 'session-a');
    expect(a).toMatch(/^openai:[0-9a-f]{40}$/);
    expect(storedIdempotencyKey(request, 'session-b')).not.toBe(a);
    expect(storedIdempotencyKey({ turn: { input: 'x' }, idempotencyKey: 'plain' }, 'session-a')).toBe(
      'plain',
    );
  });

  it('the service admits before it reads: a refused request on a missing session is still input-too-long', async () => {
    const store = await openStore(join(dir, 'service.db'));
    try {
      const f = await fixture(store, { service: { admission: { maxInputChars: 11 } } });
      const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
      await expect(
        f.service.prepareTurn(f.principal.id, 'no-such-session', { turn: { input: 'a'.repeat(12) } }),
      ).rejects.toMatchObject({ code: 'input-too-long' });
      const played = await f.service.playTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
      expect(played.replayed).toBe(false);
      await expect(
        f.service.playTurn(f.principal.id, session.id, {
          turn: { input: '/check_pack' },
          idempotencyKey: '',
        }),
      ).rejects.toMatchObject({ code: 'malformed' });
      expect((await store.listTree(session.id)).length).toBe(2);
      expect(f.service.turnsInFlight).toBe(0);
    } finally {
      await store.close();
    }
  });
});
