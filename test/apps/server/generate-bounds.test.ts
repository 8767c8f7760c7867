// The AI generator bounded like turns (issue 35): admitted per key (MAX_RUNNING_GENERATES_PER_KEY running,
// MAX_WAITING_GENERATES_PER_KEY waiting, then 429 with Retry-After; the server's own limits, then 503), the
// model's answer stopped while it streams once it passes MAX_ANSWER_CHARS (the model call cancelled), a
// client that goes away cancelling its model call, and a stream nobody reads dropped past
// MAX_UNREAD_GENERATE_BYTES. Over real HTTP against the fake OpenAI-compatible server, each limit at and past.
// The /healthz figures under the attack are the `generator-isolation` bench's (docs/deploy.md).

import { afterEach, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import {
  GenerateAdmission,
  MAX_RUNNING_GENERATES_PER_KEY,
  MAX_WAITING_GENERATES_PER_KEY,
} from '../../../src/apps/server/generate-admission.ts';
import { ApiError } from '../../../src/apps/server/errors.ts';
import { MAX_UNREAD_GENERATE_BYTES } from '../../../src/apps/server/routes/builder-generate.ts';
import { sseResponse } from '../../../src/apps/server/sse.ts';
import { MAX_ANSWER_CHARS } from '../../../src/tools/authoring/builder/limits.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { readSse, startTestServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.stop();
  await fake?.close();
  server = undefined;
  fake = undefined;
});

const KEYS = [
  { label: 'attacker', key: 'key-attacker-0123456789' },
  { label: 'other', key: 'key-other-0123456789abc' },
];

async function serverWith(reply: Parameters<typeof startFakeOpenAI>[0]): Promise<TestServer> {
  fake = await startFakeOpenAI(reply);
  return startTestServer({
    apiKeys: KEYS,
    limits: { rateLimit: 0 },
    modelConfig: loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_MAX_RETRIES: '0',
    }),
  });
}

function generate(s: TestServer, key: string, signal?: AbortSignal, rounds = 0): Promise<Response> {
  return s.call('/v1/builder/generate', {
    method: 'POST',
    key,
    json: { requirements: 'A mill pond.', rounds },
    headers: { accept: 'text/event-stream' },
    ...(signal ? { signal } : {}),
  });
}

const until = async (what: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('admission of generations', () => {
  it(`one key: ${MAX_RUNNING_GENERATES_PER_KEY} running and ${MAX_WAITING_GENERATES_PER_KEY} waiting are admitted, one more is 429`, async () => {
    const admission = new GenerateAdmission();
    const running = await Promise.all(
      Array.from({ length: MAX_RUNNING_GENERATES_PER_KEY }, () => admission.admit('a')),
    );
    const waiting = Array.from({ length: MAX_WAITING_GENERATES_PER_KEY }, () => admission.admit('a'));
    expect([admission.running('a'), admission.waiting('a')]).toEqual([
      MAX_RUNNING_GENERATES_PER_KEY,
      MAX_WAITING_GENERATES_PER_KEY,
    ]);
    let refused: unknown;
    try {
      await admission.admit('a');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect((refused as ApiError).headers['Retry-After']).toMatch(/^\d+$/);
    expect((refused as ApiError).message).toContain('(MAX_WAITING_GENERATES_PER_KEY)');
    // Another key has its own place.
    const other = await admission.admit('b');
    other();
    // A release admits the oldest waiting one.
    running[0]!();
    const next = await waiting[0]!;
    expect(admission.running('a')).toBe(MAX_RUNNING_GENERATES_PER_KEY);
    expect(admission.waiting('a')).toBe(MAX_WAITING_GENERATES_PER_KEY - 1);
    next();
    for (const release of running.slice(1)) release();
    for (const w of waiting.slice(1)) (await w)();
    expect([admission.running(), admission.waiting()]).toEqual([0, 0]);
  });

  it('the server: past its running limit they wait; past its waiting limit, 503; a client gone leaves the queue', async () => {
    const admission = new GenerateAdmission({ runningPerKey: 1, waitingPerKey: 5, running: 2, waiting: 3 });
    const a = await admission.admit('a');
    await admission.admit('b');
    const gone = new AbortController();
    const leaving = admission.admit('c', gone.signal);
    void admission.admit('d');
    void admission.admit('e');
    expect(admission.waiting()).toBe(3);
    expect(() => admission.admit('f')).toThrowError(expect.objectContaining({ status: 503 }));
    gone.abort();
    await expect(leaving).rejects.toThrow('went away');
    expect(admission.waiting()).toBe(2);
    a();
    expect(admission.running('d')).toBe(1);
  });
});

describe('POST /v1/builder/generate, bounded', () => {
  it('one key past its queue is refused 429 while another key is served; a client gone cancels its model call', async () => {
    let asked = 0;
    server = await serverWith(() => {
      asked++;
      return { kind: 'hang' };
    });
    const aborts = Array.from(
      { length: MAX_RUNNING_GENERATES_PER_KEY + MAX_WAITING_GENERATES_PER_KEY },
      () => new AbortController(),
    );
    const admitted = aborts.map((a) => generate(server!, KEYS[0]!.key, a.signal).catch(() => undefined));
    await until(() => asked === MAX_RUNNING_GENERATES_PER_KEY);
    // The running one streams (its model call hangs); the waiting ones have no answer yet.
    const refused = await generate(server, KEYS[0]!.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).error.code).toBe('generations_queued');
    // The other key's generation starts at once (its model call is made).
    const otherAbort = new AbortController();
    const other = generate(server, KEYS[1]!.key, otherAbort.signal).catch(() => undefined);
    await until(() => asked === MAX_RUNNING_GENERATES_PER_KEY + 1);
    // Everyone goes away: every model call made is cancelled (the fake sees its client close).
    for (const a of [...aborts, otherAbort]) a.abort();
    await Promise.all([...admitted, other]);
    await until(() =>
      fake!.requests.filter((r) => r.path.endsWith('/chat/completions')).every((r) => r.clientClosed),
    );
    expect(asked).toBe(MAX_RUNNING_GENERATES_PER_KEY + 1);
  }, 60_000);

  it(`an answer that runs past MAX_ANSWER_CHARS is stopped there while it streams (the model call cancelled)`, async () => {
    // A model that streams past the cap and then never finishes: without the cap the generation would hang.
    const chunk = 'x'.repeat(50_000);
    const chunks = Array.from({ length: Math.ceil(MAX_ANSWER_CHARS / chunk.length) + 1 }, () => chunk);
    server = await serverWith(() => ({ kind: 'stall', chunks }));
    const events = await readSse(await generate(server, KEYS[0]!.key));
    const checked = events.find((e) => e.event === 'answered');
    expect(checked?.data.chars).toBeGreaterThan(MAX_ANSWER_CHARS);
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const draft = (await server.json(`/v1/builder/drafts/${done?.data.draftId}`, { key: KEYS[0]!.key })).body
      .draft;
    expect(draft.transcript).toContain(`the limit is ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)`);
    await until(() => fake!.requests.every((r) => r.clientClosed));
  }, 60_000);
});

describe('a stream nobody reads', () => {
  const event = { event: 'chunk', data: 'y'.repeat(10_000) };

  it(`is dropped once more than MAX_UNREAD_GENERATE_BYTES wait unread, and its work is told to stop`, async () => {
    let stopped: AbortSignal | undefined;
    let sent = 0;
    const response = sseResponse(
      async (send, signal) => {
        stopped = signal;
        for (let i = 0; i < 100 && !signal.aborted; i++) {
          send(event);
          sent++;
        }
      },
      { maxUnreadBytes: MAX_UNREAD_GENERATE_BYTES },
    );
    await until(() => stopped?.aborted === true);
    // At most the limit's worth of events (10 KB each) went into the queue before it was dropped.
    expect(sent).toBeLessThanOrEqual(Math.ceil(MAX_UNREAD_GENERATE_BYTES / 10_000) + 2);
    expect(String(stopped?.reason)).toContain(`the limit is ${MAX_UNREAD_GENERATE_BYTES}`);
    await expect(response.text()).rejects.toThrow();
  });

  it('a client that reads is never dropped, whatever it is sent', async () => {
    const response = sseResponse(
      async (send) => {
        for (let i = 0; i < 100; i++) {
          send(event);
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
      { maxUnreadBytes: MAX_UNREAD_GENERATE_BYTES },
    );
    const events = await readSse(response);
    expect(events).toHaveLength(100);
  });
});
