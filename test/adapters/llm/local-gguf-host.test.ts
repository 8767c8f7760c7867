// The model host (src/adapters/llm/local-gguf/host.ts), the child process that owns node-llama-cpp, held to
// its limits on the tiny generated model: the chat template's render cost at load (the same template
// taken under MAX_TEMPLATE_RENDER_CPU_MS and refused when the limit is under its cost), a step's deadline
// (an endless template), a template that is cheap at load and endless on one prompt (killed at the
// `render` deadline, the file refused from then on), the memory limit, a host killed mid-call (the call
// fails naming it, the next call starts another), and a refused file tried afresh once it changes.

import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isModelError, ModelError } from '../../../src/adapters/llm/errors.ts';
import { findLlamaCpp } from '../../../src/adapters/llm/local-gguf/index.ts';
import { type HostOptions, ModelHost } from '../../../src/adapters/llm/local-gguf/host.ts';
import {
  MAX_TEMPLATE_RENDER_CPU_MS,
  PHASE_DEADLINES,
  type PhaseDeadlines,
} from '../../../src/adapters/llm/local-gguf/host-limits.ts';
import { readyHost } from '../../../src/adapters/llm/local-gguf/hosts.ts';
import { loadKeyOf } from '../../../src/adapters/llm/local-gguf/model.ts';
import { CHATML_TEMPLATE, tinyGguf, writeTinyGguf } from '../../helpers/tiny-gguf.ts';
import { llamaCppAvailable } from '../../helpers/tiny-gguf-runtime.ts';

const available = llamaCppAvailable('the local model host (node-llama-cpp)');

const ENDLESS_LOOP = '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}';

/**
 * A template no known chat format matches (node-llama-cpp renders it with Jinja for every prompt), endless
 * on a conversation of more than 9 messages: cheap at load (a 4-message probe), endless on a long prompt.
 * (node-llama-cpp renders placeholders in place of the messages' text, so only their number can tell.)
 */
const CUSTOM_TEMPLATE = `{% if messages|length > 9 %}${ENDLESS_LOOP}{% endif %}{% for m in messages %}<<{{ m['role'] }}>> {{ m['content'] }}
{% endfor %}{% if add_generation_prompt %}<<assistant>> {% endif %}`;

function options(file: string, extra: Partial<HostOptions> = {}, memoryMb?: number): HostOptions {
  const key = loadKeyOf({ entry: findLlamaCpp(process.env)!.entry, file, threads: 1 });
  return { key: memoryMb === undefined ? key : { ...key, memoryMb }, ...extra };
}

function deadlines(overrides: Partial<Record<keyof PhaseDeadlines, number>>): PhaseDeadlines {
  const out: Record<string, PhaseDeadlines[keyof PhaseDeadlines]> = { ...PHASE_DEADLINES };
  for (const [phase, ms] of Object.entries(overrides)) out[phase] = { ...out[phase]!, ms: ms! };
  return out as PhaseDeadlines;
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isModelError(error)) throw new Error(`expected a ModelError, got ${String(error)}`);
  return error;
}

const say = (content: string) => ({
  modelId: 'test',
  system: 's',
  messages: [{ role: 'user' as const, content }],
  plan: { kind: 'text' as const },
  maxOutputTokens: 4,
  temperature: 1,
  stream: false,
});

describe.runIf(available)('the model host', { timeout: 180_000 }, () => {
  it(`takes a template under MAX_TEMPLATE_RENDER_CPU_MS (${MAX_TEMPLATE_RENDER_CPU_MS} ms) and refuses it under a limit below its cost`, async () => {
    const file = writeTinyGguf({ seed: 61 });
    const host = new ModelHost(options(file));
    const info = await host.ready();
    expect(info.templateRenderCpuMs).toBeLessThan(MAX_TEMPLATE_RENDER_CPU_MS);
    host.kill(new ModelError('aborted', 'done'));
    const strict = new ModelHost(options(file, { templateRenderCpuMs: 0 }));
    const error = await failure(strict.ready());
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(
      new RegExp(
        `^${file}: its chat template \\(tokenizer\\.chat_template\\) takes \\d+ ms of CPU to render a 4-message conversation; the limit is 0 ms \\(MAX_TEMPLATE_RENDER_CPU_MS\\), so the file is refused$`,
      ),
    );
  });

  it('kills a host whose template never finishes rendering at the template deadline, and refuses the file from then on', async () => {
    const file = writeTinyGguf({ chatTemplate: `${ENDLESS_LOOP}${CHATML_TEMPLATE}` }, 'endless.gguf');
    const opts = options(file, { deadlines: deadlines({ template: 1_500 }) });
    const first = await failure(readyHost(opts));
    expect(first.message).toBe(
      `${file}: rendering its chat template (tokenizer.chat_template) at load took longer than 1,500 ms (PHASE_DEADLINES.template); the file is refused`,
    );
    // Remembered: the same error at once, no host started.
    expect(await failure(readyHost(opts))).toBe(first);
  });

  it('kills a host whose template is endless on one prompt at the render deadline, and refuses the file from then on', async () => {
    const file = writeTinyGguf({ chatTemplate: CUSTOM_TEMPLATE }, 'custom.gguf');
    const opts = options(file, { deadlines: deadlines({ render: 2_000 }) });
    const host = await readyHost(opts);
    expect(host.info?.chatWrapper).toBe('JinjaTemplate');
    const rendered = await host.render('s', [{ role: 'user', content: 'hello' }]);
    expect(rendered.text).toContain('<<user>> hello');
    expect((await host.call(say('hello again'))).usage.outputTokens).toBeGreaterThan(0);
    const long = Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `line ${i}`,
    }));
    const slow = await failure(host.call({ ...say(''), messages: long }));
    expect(slow.message).toBe(
      `${file}: rendering a prompt with its chat template (tokenizer.chat_template) took longer than 2,000 ms (PHASE_DEADLINES.render); the file is refused`,
    );
    expect(await failure(readyHost(opts))).toBe(slow);
  });

  it('kills a host over its memory limit, naming MNESOS_MODEL_MEMORY_MB', async () => {
    const file = writeTinyGguf({ seed: 62 });
    // A few MiB: less than any Node.js process holds, so the first look at the host's memory is over it.
    const error = await failure(new ModelHost(options(file, {}, 4)).ready());
    expect(error.message).toMatch(
      new RegExp(
        `^${file}: the model host used [\\d,]+ MiB of memory while [a-z ()._]+; the limit is 4 MiB \\(MNESOS_MODEL_MEMORY_MB\\)$`,
      ),
    );
  });

  it('fails a call whose host dies under it, naming the step, and starts another host for the next call', async () => {
    const file = writeTinyGguf({ seed: 63 });
    const opts = options(file);
    const host = await readyHost(opts);
    const running = host.call({
      ...say('a long answer'),
      plan: {
        kind: 'schema',
        schema: { type: 'object', properties: { s: { type: 'string', minLength: 300, maxLength: 300 } } },
      },
      maxOutputTokens: 600,
      stream: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(host.pid!, 'SIGKILL');
    const error = await failure(running);
    expect(error.message).toMatch(new RegExp(`^${file}: the model host stopped while .+ \\(SIGKILL\\)$`));
    const next = await readyHost(opts);
    expect(next).not.toBe(host);
    expect((await next.call(say('again'))).usage.outputTokens).toBeGreaterThan(0);
  });

  it('tries a refused file afresh once it has changed on disk', async () => {
    const file = writeTinyGguf({ seed: 64, declaredTensors: 2 ** 40 }, 'changing.gguf');
    const opts = options(file);
    expect((await failure(readyHost(opts))).message).toContain('(MAX_GGUF_TENSORS)');
    // The same file, readable now (and longer by one key: another size on disk).
    writeFileSync(file, tinyGguf({ seed: 64, extraMetadata: [['changed', { kind: 'u32', value: 1 }]] }));
    expect((await readyHost(opts)).info?.chatWrapper).toBe('ChatML');
  });
});
