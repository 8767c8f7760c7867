// The shared fake server's wire format, checked with plain fetch (other suites rely on it).

import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${fake!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

describe('fake OpenAI server', () => {
  it('listens on 127.0.0.1 and records requests', async () => {
    fake = await startFakeOpenAI([{ kind: 'text', text: 'hi' }]);
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await post('/chat/completions', { model: 'm', messages: [] });
    expect(fake.chatRequests()).toEqual([{ model: 'm', messages: [] }]);
  });

  it('streams OpenAI chunks, a usage chunk when asked, then [DONE]', async () => {
    fake = await startFakeOpenAI([
      {
        kind: 'tool-calls',
        fragmentSize: 4,
        calls: [{ id: 'c1', name: 'f', arguments: { a: 1 } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
    ]);
    const response = await post('/chat/completions', {
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    const deltas = chunks.flatMap((c) => c.choices.map((ch: { delta: unknown }) => ch.delta));
    const fragments = deltas.flatMap(
      (d: { tool_calls?: { index: number; function: { arguments: string } }[] }) =>
        (d.tool_calls ?? []).map((t) => [t.index, t.function.arguments]),
    );
    expect(fragments).toEqual([
      [0, ''],
      [0, '{"a"'],
      [0, ':1}'],
    ]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } });
  });

  it('Ollama style sends each call whole without an index, finish reason on the same chunk', async () => {
    fake = await startFakeOpenAI([
      { kind: 'tool-calls', style: 'ollama', calls: [{ id: 'c1', name: 'f', arguments: '{}' }] },
    ]);
    const data = sseData(await (await post('/chat/completions', { stream: true })).text());
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.at(-1).choices[0]).toEqual({
      index: 0,
      delta: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      finish_reason: 'stop',
    });
  });

  it('answers errors with an OpenAI error body, and 500 when the script is exhausted', async () => {
    fake = await startFakeOpenAI([{ kind: 'error', status: 429, headers: { 'retry-after': '1' } }]);
    const limited = await post('/chat/completions', {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ error: { message: 'fake error 429' } });
    const exhausted = await post('/chat/completions', {});
    expect(exhausted.status).toBe(500);
    expect(await exhausted.text()).toContain('script exhausted');
  });

  it('accepts a handler that sees each request', async () => {
    fake = await startFakeOpenAI((request, index) => ({
      kind: 'text',
      text: `#${index} ${(request.body as { model: string }).model}`,
    }));
    const body = await (await post('/chat/completions', { model: 'abc' })).json();
    expect(body.choices[0].message.content).toBe('#0 abc');
  });
});
