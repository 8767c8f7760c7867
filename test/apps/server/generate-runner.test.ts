// The generator's worker (src/apps/server/generate/runner.ts) at its own limits: a generation's time
// (GENERATE_TIMEOUT_MS: one that ends inside it is saved, one that runs past fails naming it and its model
// call is cancelled), the worker's memory (GENERATE_WORKER_HEAP_MB: generations that fit finish; past it
// they fail naming the limit and the next one runs in a new worker), and a client gone (its generation
// stopped, its model call cancelled, its place counted until the worker confirms), and the findings its
// events list (MAX_LISTED_FINDINGS, the counts whole). Real worker threads,
// the real fake OpenAI-compatible HTTP server for online models and a scripted model relayed for the rest.

import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { PortableModels } from '../../../src/engine/session/index.ts';
import { GENERATE_WORKER_NICE, type GenerationJob } from '../../../src/apps/server/generate/protocol.ts';
import { progressEvent, resultOf } from '../../../src/apps/server/generate/job.ts';
import { GenerateRunner, GenerationFailed } from '../../../src/apps/server/generate/runner.ts';
import type { Diagnostic } from '../../../src/core/diagnostics.ts';
import { MAX_LISTED_FINDINGS } from '../../../src/tools/authoring/builder/limits.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { invalidCartridge } from '../../helpers/invalid-cartridge.ts';
import { FIRST_ANSWER } from '../../tools/authoring/builder/drafts.ts';

let runner: GenerateRunner | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await runner?.close();
  await fake?.close();
  runner = undefined;
  fake = undefined;
});

const JOB: GenerationJob = { requirements: 'A mill pond.', rounds: 0 };

/** Models the worker builds itself from their config: the fake server's. */
async function online(reply: Parameters<typeof startFakeOpenAI>[0]): Promise<PortableModels> {
  fake = await startFakeOpenAI(reply);
  const config = loadModelConfig({
    MNESOS_LLM_BASE_URL: fake.url,
    MNESOS_MODEL: 'fake-model',
    MNESOS_LLM_MAX_RETRIES: '0',
  });
  if (config.provider === 'offline' || config.provider === 'file')
    throw new Error('expected an online config');
  return { kind: 'config', config };
}

/** Models given by code: their calls are relayed to this thread. */
const relayed = (answers: readonly string[]): PortableModels => ({
  kind: 'here',
  models: createScriptedModels({ director: answers.map((text) => ({ text })) }),
});

async function failureOf(run: Promise<unknown>): Promise<GenerationFailed> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GenerationFailed))
    throw new Error(`expected GenerationFailed, got ${String(error)}`);
  return error;
}

const until = async (what: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('GENERATE_TIMEOUT_MS', () => {
  it('a generation that ends inside the limit is returned; one past it fails naming the limit, its model call cancelled', async () => {
    const timeoutMs = 4_000;
    runner = new GenerateRunner({ timeoutMs });
    const models = await online((_request, index) =>
      index === 0 ? { kind: 'text', text: FIRST_ANSWER, delayMs: 1_000 } : { kind: 'hang' },
    );
    const never = new AbortController().signal;
    const inside = await runner.run(JOB, models, never, () => {});
    expect(inside.files['yare.yaml']).toContain('bot_name');
    const started = Date.now();
    const past = await failureOf(runner.run(JOB, models, never, () => {}));
    expect(Date.now() - started).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(past.failure).toEqual({
      code: 'generator_timeout',
      message: `the generation ran for ${timeoutMs} ms; the limit is ${timeoutMs} ms (GENERATE_TIMEOUT_MS)`,
    });
    await until(() => fake!.requests.at(-1)?.clientClosed === true);
    expect(runner.running).toBe(0);
  }, 120_000);
});

describe('a client gone', () => {
  it('stops its generation: the online model call is cancelled, and its place is held until the worker confirms', async () => {
    runner = new GenerateRunner();
    let asked = 0;
    const models = await online(() => {
      asked++;
      return { kind: 'hang' };
    });
    const client = new AbortController();
    const events: string[] = [];
    const run = failureOf(runner.run(JOB, models, client.signal, (e) => events.push(e.event)));
    await until(() => asked === 1);
    expect(events).toEqual(['round']);
    expect(runner.running).toBe(1);
    client.abort();
    // Its place is still counted: the worker has not confirmed yet (messages cross threads asynchronously).
    expect(runner.running).toBe(1);
    expect((await run).failure.code).toBe('aborted');
    expect(runner.running).toBe(0);
    await until(() => fake!.requests.every((r) => r.clientClosed));
  }, 120_000);

  it('a relayed model call is cancelled too, and a client gone before the start never reaches the worker', async () => {
    runner = new GenerateRunner();
    let callSignal: AbortSignal | undefined;
    const hanging: PortableModels = {
      kind: 'here',
      models: {
        ...createScriptedModels({ director: [] }),
        director: {
          id: 'hanging',
          generate: () => Promise.reject(new Error('not used')),
          async *stream(request) {
            callSignal = request.signal;
            await new Promise((_resolve, reject) =>
              request.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
            );
          },
        },
      },
    };
    const client = new AbortController();
    const run = failureOf(runner.run(JOB, hanging, client.signal, () => {}));
    await until(() => callSignal !== undefined);
    client.abort();
    expect((await run).failure.code).toBe('aborted');
    expect(callSignal?.aborted).toBe(true);
    const gone = new AbortController();
    gone.abort();
    expect(
      (await failureOf(runner.run(JOB, relayed([FIRST_ANSWER]), gone.signal, () => {}))).failure.code,
    ).toBe('aborted');
    // The worker still serves the next one.
    const next = await runner.run(JOB, relayed([FIRST_ANSWER]), new AbortController().signal, () => {});
    expect(next.rounds).toBe(1);
  }, 120_000);
});

describe('GENERATE_WORKER_HEAP_MB', () => {
  it('generations past the worker heap fail naming the limit; the next one runs in a new worker', async () => {
    const heapMb = 48;
    runner = new GenerateRunner({ heapMb });
    const never = new AbortController().signal;
    // Inside the limit: one generation of a small answer.
    expect((await runner.run(JOB, relayed([FIRST_ANSWER]), never, () => {})).rounds).toBe(1);
    // Past it: many big invalid answers checked at once.
    const big = invalidCartridge(590_000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, () =>
        runner!.run(JOB, relayed([big]), new AbortController().signal, () => {}),
      ),
    );
    const memory = outcomes
      .map((o) => (o.status === 'rejected' && o.reason instanceof GenerationFailed ? o.reason : undefined))
      .find((f) => f?.failure.code === 'generator_memory');
    expect(memory?.failure.message).toBe(
      `the generator's worker ran out of memory; the limit is ${heapMb} MB (GENERATE_WORKER_HEAP_MB)`,
    );
    expect(runner.running).toBe(0);
    expect((await runner.run(JOB, relayed([FIRST_ANSWER]), never, () => {})).rounds).toBe(1);
  }, 240_000);
});

describe('GENERATE_STOP_GRACE_MS', () => {
  /** Models given by code that answer `answer` in one part; once the call has ended, `client` leaves. */
  const answersThenLeaves = (answer: string, client: AbortController): PortableModels => ({
    kind: 'here',
    models: {
      ...createScriptedModels({ director: [] }),
      director: {
        id: 'leaves',
        generate: () => Promise.reject(new Error('not used')),
        async *stream() {
          try {
            yield { type: 'text-delta', text: answer };
          } finally {
            // After the call's end is relayed: the worker is then checking the answer (seconds, synchronously).
            setImmediate(() => client.abort());
          }
        },
      },
    },
  });
  /** Models given by code whose call never ends (until cancelled). */
  const hanging = (): PortableModels => ({
    kind: 'here',
    models: {
      ...createScriptedModels({ director: [] }),
      director: {
        id: 'hanging',
        generate: () => Promise.reject(new Error('not used')),
        async *stream(request) {
          await new Promise((_resolve, reject) =>
            request.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      },
    },
  });

  /** A generation that hangs beside one whose client leaves while the worker checks its big answer. */
  async function stopWhileChecking(stopGraceMs: number) {
    runner = new GenerateRunner({ stopGraceMs });
    const bystander = runner.run(JOB, hanging(), new AbortController().signal, () => {});
    const client = new AbortController();
    const leaving = runner.run(
      JOB,
      answersThenLeaves(invalidCartridge(590_000), client),
      client.signal,
      () => {},
    );
    return {
      bystander: bystander.then(
        () => undefined,
        (e: unknown) => e,
      ),
      leaving: leaving.then(
        () => 'result',
        (e: unknown) => e,
      ),
    };
  }

  it('a worker that confirms a stop within the grace is kept: the generations beside it go on', async () => {
    const { bystander, leaving } = await stopWhileChecking(60_000);
    // The check ran to its end before the worker read the stop: its result came back, and nothing was replaced.
    expect(await leaving).toBe('result');
    expect(runner!.running).toBe(1);
    await runner!.close();
    expect(((await bystander) as GenerationFailed).failure.code).toBe('closing');
  }, 120_000);

  it('one that does not is replaced after the grace: what it ran fails naming the limit', async () => {
    const stopGraceMs = 50;
    const { bystander, leaving } = await stopWhileChecking(stopGraceMs);
    expect(((await leaving) as GenerationFailed).failure.code).toBe('aborted');
    expect((await bystander) as GenerationFailed).toMatchObject({
      failure: {
        code: 'generator_stuck',
        message: `the generator's worker did not stop a generation within ${stopGraceMs} ms (GENERATE_STOP_GRACE_MS)`,
      },
    });
    expect(runner!.running).toBe(0);
    // The next generation runs in a new worker.
    expect(
      (await runner!.run(JOB, relayed([FIRST_ANSWER]), new AbortController().signal, () => {})).rounds,
    ).toBe(1);
  }, 120_000);
});

describe('MAX_LISTED_FINDINGS', () => {
  const diagnostics = (n: number, severity: 'error' | 'warning'): Diagnostic[] =>
    Array.from({ length: n }, (_, i) => ({
      severity,
      code: 'unknown_path',
      message: `state.missing_${i} is not declared`,
      place: { file: 'yare.yaml', line: i + 1, col: 5 },
    }));
  const result = (errors: number, warnings: number) =>
    resultOf({
      ok: false,
      files: { 'yare.yaml': 'bot_name: "Flood"\n' },
      errors: diagnostics(errors, 'error'),
      warnings: diagnostics(warnings, 'warning'),
      transcript: { requirements: 'A flood.', changed: false, model: 'fake', rounds: [], ok: false },
    });

  it('at the limit every finding is listed; past it the first MAX_LISTED_FINDINGS, the counts whole', () => {
    const at = result(MAX_LISTED_FINDINGS, MAX_LISTED_FINDINGS);
    expect(at.errors).toHaveLength(MAX_LISTED_FINDINGS);
    expect(at.warnings).toHaveLength(MAX_LISTED_FINDINGS);
    expect(at.errorCount).toBe(MAX_LISTED_FINDINGS);
    const past = result(MAX_LISTED_FINDINGS + 1, MAX_LISTED_FINDINGS + 1);
    expect(past.errors).toHaveLength(MAX_LISTED_FINDINGS);
    expect(past.errors[0]).toMatchObject({ where: 'yare.yaml:1:5', file: 'yare.yaml', line: 1, col: 5 });
    expect(past.errorCount).toBe(MAX_LISTED_FINDINGS + 1);
    expect(past.warnings).toHaveLength(MAX_LISTED_FINDINGS);
    expect(past.warningCount).toBe(MAX_LISTED_FINDINGS + 1);
    expect(past.botName).toBe('Flood');
  });

  it('a checked event lists the first MAX_LISTED_FINDINGS errors and counts them all', () => {
    const checked = (n: number) =>
      progressEvent({ type: 'checked', round: 1, errors: diagnostics(n, 'error'), warnings: [] });
    const at = checked(MAX_LISTED_FINDINGS);
    const past = checked(MAX_LISTED_FINDINGS + 1);
    if (at.event !== 'checked' || past.event !== 'checked') throw new Error('expected checked events');
    expect(at.data.errors).toHaveLength(MAX_LISTED_FINDINGS);
    expect(past.data.errors).toHaveLength(MAX_LISTED_FINDINGS);
    expect(past.data.errorCount).toBe(MAX_LISTED_FINDINGS + 1);
  });
});

describe('GENERATE_WORKER_NICE', () => {
  /** The niceness of each of this process's threads (Linux's per-thread counters). */
  const threadNices = (): number[] =>
    readdirSync('/proc/self/task').map((task) => {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      // nice is field 19 of the line, 17 after the command's ')'.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });

  it.skipIf(process.platform !== 'linux')(
    "the generator's worker thread runs below the request thread's priority",
    async () => {
      expect(threadNices()).not.toContain(GENERATE_WORKER_NICE);
      runner = new GenerateRunner();
      await runner.run(JOB, relayed([FIRST_ANSWER]), new AbortController().signal, () => {});
      expect(threadNices()).toContain(GENERATE_WORKER_NICE);
      expect(threadNices()).toContain(0);
    },
    120_000,
  );
});
