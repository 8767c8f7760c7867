// TurnJob alone, on a real SQLite file, from a hand-made context and claim (no prepare stage): run streams
// and commits, and however the turn ends the claim is given back once and the observer hears one outcome.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../../src/adapters/llm/scripted.ts';
import { SessionError } from '../../../../src/engine/session/errors.ts';
import { TurnClaim } from '../../../../src/engine/session/turn-job/claim.ts';
import { TurnJob } from '../../../../src/engine/session/turn-job/job.ts';
import type { TurnContext, TurnOutcome } from '../../../../src/engine/session/turn-job/types.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store, Turn } from '../../../../src/adapters/store/repository.ts';
import type { TurnEvent, TurnRecord } from '../../../../src/engine/turn/types.ts';
import { fixture } from '../helpers.ts';
import { contextAtHead, stageEnv } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-job-'));
const stores: Store[] = [];
let n = 0;
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Heard {
  outcome: TurnOutcome;
  durationMs: number;
  record: TurnRecord | undefined;
}

async function setup(input: string, fields: Partial<TurnContext> = {}) {
  n += 1;
  const store = await openStore(join(dir, `j${n}.db`));
  stores.push(store);
  const f = await fixture(store);
  const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
  const heard: Heard[] = [];
  let now = 0;
  const env = stageEnv(store, f.library, {
    // Each read moves the clock by 10 ms: a turn's duration is the two reads of `run`, start and end.
    monotonic: () => (now += 10),
    observer: { onTurn: (outcome, durationMs, record) => heard.push({ outcome, durationMs, record }) },
  });
  const context = await contextAtHead(
    store,
    f.library,
    f.principal.id,
    session.id,
    { turn: { input } },
    fields,
  );
  const job = new TurnJob(env, context, TurnClaim.acquire(env, session.id, undefined, context.turnId));
  return { f, session, env, context, job, heard };
}

async function played(
  job: TurnJob,
  signal?: AbortSignal,
): Promise<{ events: TurnEvent[]; turn?: Turn; error?: unknown }> {
  const events: TurnEvent[] = [];
  try {
    const run = job.run(signal === undefined ? {} : { signal });
    for (;;) {
      const next = await run.next();
      if (next.done) return { events, turn: next.value };
      events.push(next.value);
    }
  } catch (error) {
    return { events, error };
  }
}

describe('TurnJob', () => {
  it('shows the context it runs, and release without running frees the session', async () => {
    const { env, context, job } = await setup('check pack');
    expect(job).toMatchObject({ kind: 'ready', turnId: context.turnId, parentId: context.parentId, seed: 7 });
    expect(job.mode).toBe('offline');
    expect(env.inFlight.size).toBe(1);
    job.release();
    expect(env.inFlight.size).toBe(0);
  });

  it('streams the run, commits one turn, releases the claim and reports committed with the record', async () => {
    const { f, session, env, context, job, heard } = await setup('check pack');
    const { events, turn, error } = await played(job);
    expect(error).toBeUndefined();
    expect(turn?.id).toBe(context.turnId);
    expect(events.at(-1)?.type).toBe('done');
    expect((await f.store.listTree(session.id)).length).toBe(2);
    expect(env.inFlight.size).toBe(0);
    expect(heard).toHaveLength(1);
    expect(heard[0]?.outcome).toBe('committed');
    expect(heard[0]?.durationMs).toBe(10);
    expect(heard[0]?.record?.narration).toBe(turn?.narration);
  });

  it('an aborted run commits nothing, releases the claim and reports aborted', async () => {
    const models = createScriptedModels({ director: [{ text: 'ok', delayMs: 5_000 }], narrator: [] });
    const { f, session, env, job, heard } = await setup('wait', { models });
    expect(job.mode).toBe('online');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const { error } = await played(job, controller.signal);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).code).toBe('aborted');
    expect((await f.store.listTree(session.id)).length).toBe(1);
    expect(env.inFlight.size).toBe(0);
    expect(heard.map((h) => [h.outcome, h.record])).toEqual([['aborted', undefined]]);
  });

  it('a refused commit (the head moved) throws conflict and reports it with the finished record', async () => {
    const { f, session, env, job, heard } = await setup('check pack');
    await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } });
    const { error } = await played(job);
    expect((error as SessionError).code).toBe('conflict');
    expect((await f.store.listTree(session.id)).length).toBe(2);
    expect(env.inFlight.size).toBe(0);
    expect(heard.map((h) => h.outcome)).toEqual(['conflict']);
    expect(heard[0]?.record).toBeDefined();
  });

  it('a caller that stops reading the stream ends the turn: nothing committed, claim released, error', async () => {
    const { f, session, env, job, heard } = await setup('check pack');
    const run = job.run();
    expect((await run.next()).done).toBe(false);
    await run.return(undefined as unknown as Turn);
    expect((await f.store.listTree(session.id)).length).toBe(1);
    expect(env.inFlight.size).toBe(0);
    expect(heard.map((h) => h.outcome)).toEqual(['error']);
  });
});
