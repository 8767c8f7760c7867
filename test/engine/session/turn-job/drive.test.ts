// driveTurn, the one pump of a prepared turn: events reach the sink in order and the committed turn comes
// back; a replayed turn sends no event; a sink that throws, or a cancelled signal, ends the run with the
// claim given back and nothing committed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driveTurn, pump } from '../../../../src/engine/session/turn-job/drive.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import type { TurnEvent } from '../../../../src/engine/turn/types.ts';
import { fixture } from '../helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-drive-'));
const stores: Store[] = [];
let n = 0;
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setup() {
  n += 1;
  const store = await openStore(join(dir, `d${n}.db`));
  stores.push(store);
  const f = await fixture(store);
  const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
  return { f, session, store };
}

describe('driveTurn', () => {
  it('sends every event to the sink, the done event last, and returns the committed turn', async () => {
    const { f, session, store } = await setup();
    const prepared = await f.service.prepareTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
      idempotencyKey: 'drive-1',
    });
    const events: TurnEvent[] = [];
    const driven = await driveTurn(prepared, { onEvent: (event) => void events.push(event) });
    expect(driven.replayed).toBe(false);
    expect(events.at(-1)?.type).toBe('done');
    expect(events.some((e) => e.type === 'tool_call' && e.name === 'check_pack')).toBe(true);
    expect((await store.getSession(session.id, f.principal.id))?.headTurnId).toBe(driven.turn.id);

    const again = await f.service.prepareTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
      idempotencyKey: 'drive-1',
    });
    const replayedEvents: TurnEvent[] = [];
    const replayed = await driveTurn(again, { onEvent: (event) => void replayedEvents.push(event) });
    expect(replayed).toEqual({ turn: driven.turn, replayed: true });
    expect(replayedEvents).toEqual([]);
  });

  it('a sink that throws ends the run: nothing committed, the session free for the next turn', async () => {
    const { f, session, store } = await setup();
    const prepared = await f.service.prepareTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
    });
    expect(f.service.turnsInFlight).toBe(1);
    await expect(
      driveTurn(prepared, {
        onEvent: (event) => {
          if (event.type === 'phase') throw new Error('the terminal went away');
        },
      }),
    ).rejects.toThrow('the terminal went away');
    expect(f.service.turnsInFlight).toBe(0);
    expect((await store.listTree(session.id)).length).toBe(1);
    const next = await f.service.playTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    expect(next.replayed).toBe(false);
  });

  it('a cancelled signal is a SessionError aborted, nothing committed', async () => {
    const { f, session, store } = await setup();
    const controller = new AbortController();
    controller.abort();
    const prepared = await f.service.prepareTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
    });
    await expect(driveTurn(prepared, { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
    expect(f.service.turnsInFlight).toBe(0);
    expect((await store.listTree(session.id)).length).toBe(1);
  });

  it('pump finishes a generator it leaves early, so its finally runs', async () => {
    let finished = false;
    async function* run(): AsyncGenerator<number, string, undefined> {
      try {
        yield 1;
        yield 2;
        return 'end';
      } finally {
        finished = true;
      }
    }
    await expect(
      pump(run(), (value) => {
        if (value === 1) throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(finished).toBe(true);
    const seen: number[] = [];
    expect(await pump(run(), (value) => void seen.push(value))).toBe('end');
    expect(seen).toEqual([1, 2]);
  });
});
