// The chat-template check at load, inside the model host: the file's `tokenizer.chat_template` rendered
// with a short conversation by the same Jinja engine node-llama-cpp renders it with (@huggingface/jinja,
// its dependency), and the CPU time of a render measured. A template whose render costs more than
// MAX_TEMPLATE_RENDER_CPU_MS (host-limits.ts) is refused here, with its name: node-llama-cpp would
// render it dozens of times while choosing a chat wrapper and again for every prompt. A render that never
// ends is the server's to stop: the host announced the `template` phase, and its deadline kills the host.

import { createRequire } from 'node:module';
import { HostFailure } from './host-protocol.ts';

interface JinjaTemplate {
  render(items: Readonly<Record<string, unknown>>): string;
}

interface JinjaModule {
  readonly Template: new (source: string) => JinjaTemplate;
}

/** A conversation with each role once and a second user turn, as a chat's prompt looks. */
const PROBE_MESSAGES = [
  { role: 'system', content: 'You narrate a text role-playing game.' },
  { role: 'user', content: 'I look around the hall.' },
  { role: 'assistant', content: 'The hall is dark and smells of rain.' },
  { role: 'user', content: 'I light the lamp.' },
];

/** Renders counted: the cheaper one is the cost (the first also warms the engine up). */
const PROBE_RENDERS = 2;

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** One render's CPU milliseconds; a template that raises an error has still cost what it ran. */
function renderCost(template: JinjaTemplate): number {
  const started = process.cpuUsage();
  try {
    template.render({
      messages: PROBE_MESSAGES,
      add_generation_prompt: true,
      bos_token: '',
      eos_token: '',
    });
  } catch {
    // A template may refuse a conversation (roles that must alternate, no system role): its cost counts.
  }
  return cpuMs(started);
}

/**
 * The CPU milliseconds of one render of `source` (the cheaper of PROBE_RENDERS); throws a HostFailure that
 * refuses the file when that is over `limitMs`. A template the JavaScript engine cannot parse is not
 * measured here (node-llama-cpp then falls back to llama.cpp's own renderer or another wrapper, within the
 * `chat-wrapper` deadline): 0.
 */
export function probeChatTemplate(entry: string, file: string, source: string, limitMs: number): number {
  const jinja = createRequire(entry)('@huggingface/jinja') as JinjaModule;
  let template: JinjaTemplate;
  try {
    template = new jinja.Template(source);
  } catch {
    return 0;
  }
  let cheapest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < PROBE_RENDERS; i++) {
    cheapest = Math.min(cheapest, renderCost(template));
    if (cheapest <= limitMs) continue;
    // Already too slow after a warm-up render: the second would be the same.
    if (i > 0 || cheapest > 4 * limitMs) {
      throw new HostFailure(
        'config',
        `${file}: its chat template (tokenizer.chat_template) takes ${Math.round(cheapest)} ms of CPU to render a ${PROBE_MESSAGES.length}-message conversation; the limit is ${limitMs} ms (MAX_TEMPLATE_RENDER_CPU_MS), so the file is refused`,
        true,
      );
    }
  }
  return cheapest;
}
