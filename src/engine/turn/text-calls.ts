// Tool calls written in the message text, for models without tool calling (or that fall back to prose):
// bare or fenced JSON (`{"name": "travel", "arguments": {...}}`, also `parameters`, `args`, `inputs`, a
// `function` wrapper, an array of such objects), the Hermes/Qwen `<tool_call>…</tool_call>`, Llama 3.1
// `<|python_tag|>…` and `<function=name>{…}</function>`, Mistral `[TOOL_CALLS] […]`, and the
// `name(arg="value", n=2)` form. Only names of offered tools count, so prose that merely contains braces
// or parentheses is left alone. The calls go through the same input normalisation and validator as native
// ones (tools.ts `checkedArgs`). Everything here is linear in the text: each character is read by at most
// one bracket scan, and the `name(` search is one `indexOf` pass per offered tool.

import type { ToolCall } from '../../adapters/llm/index.ts';
import { parseRawArgs } from './args.ts';
import { MAX_TOOL_ARGS_CHARS, MAX_TOOL_CALLS_PER_ROUND } from './limits.ts';
import { isRecord } from '../../core/is-record.ts';

export interface TextCalls {
  readonly calls: readonly ToolCall[];
  /** The text without the calls and their markers: what is left as directives. */
  readonly rest: string;
}

interface Found {
  readonly start: number;
  readonly end: number;
  readonly calls: readonly { readonly name: string; readonly args: unknown }[];
}

const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'event'] as const;
const ARG_KEYS = ['arguments', 'parameters', 'args', 'inputs', 'input'] as const;
const MARKERS = [
  '<tool_call>',
  '</tool_call>',
  '<|python_tag|>',
  '[TOOL_CALLS]',
  '</function>',
  '<|eom_id|>',
  '<|eot_id|>',
];

/** The end (exclusive) of the JSON object or array opening at `start`, or -1 when it never closes. */
function closingBracket(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i += 1;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
    } else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
    i += 1;
  }
  return -1;
}

/** A call object in any of the common shapes, if it names an offered tool. */
function callOf(
  value: unknown,
  known: ReadonlySet<string>,
  tagName?: string,
): { name: string; args: unknown } | undefined {
  if (!isRecord(value)) return undefined;
  if (tagName !== undefined) return known.has(tagName) ? { name: tagName, args: value } : undefined;
  if (isRecord(value.function)) return callOf(value.function, known);
  const nameKey = NAME_KEYS.find((k) => typeof value[k] === 'string');
  if (nameKey === undefined) return undefined;
  const name = (value[nameKey] as string).trim();
  if (!known.has(name)) return undefined;
  const argKey = ARG_KEYS.find((k) => Object.hasOwn(value, k));
  let args: unknown = argKey === undefined ? {} : value[argKey];
  if (typeof args === 'string') {
    const parsed = parseRawArgs(args);
    args = parsed.ok ? parsed.value : args;
  }
  return { name, args };
}

/** `<function=NAME>` right before `start`, as Llama 3.1 writes a custom tool call. */
function functionTag(text: string, start: number): string | undefined {
  const before = text.slice(Math.max(0, start - 80), start).trimEnd();
  if (!before.endsWith('>')) return undefined;
  const open = before.lastIndexOf('<function=');
  if (open === -1) return undefined;
  return before.slice(open + '<function='.length, -1).trim();
}

function jsonCalls(text: string, known: ReadonlySet<string>): Found[] {
  const found: Found[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x7b && c !== 0x5b) {
      i += 1;
      continue;
    }
    const end = closingBracket(text, i);
    if (end === -1) break; // unclosed: a truncated answer; nothing after it is a whole call
    const raw = text.slice(i, end);
    if (raw.length <= MAX_TOOL_ARGS_CHARS) {
      const parsed = parseRawArgs(raw);
      if (parsed.ok) {
        const tag = c === 0x7b ? functionTag(text, i) : undefined;
        const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
        const calls = items.flatMap((item) => {
          const call = callOf(item, known, tag);
          return call === undefined ? [] : [call];
        });
        if (calls.length > 0) {
          const tagStart = tag === undefined ? i : text.lastIndexOf('<function=', i);
          found.push({ start: tagStart, end, calls });
        }
      }
    }
    i = end;
  }
  return found;
}

/** One `key=value` (or `key: value`) list of a `name(…)` call; undefined when it is not one. */
function pythonArgs(text: string, open: number): { args: Record<string, unknown>; end: number } | undefined {
  const args: Record<string, unknown> = Object.create(null);
  let i = open + 1;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
  };
  skip();
  if (text[i] === ')') return { args, end: i + 1 };
  const limit = Math.min(text.length, open + MAX_TOOL_ARGS_CHARS);
  while (i < limit) {
    skip();
    const keyStart = i;
    while (i < limit && /[A-Za-z0-9_]/.test(text[i]!)) i += 1;
    const key = text.slice(keyStart, i);
    skip();
    if (key === '' || (text[i] !== '=' && text[i] !== ':')) return undefined;
    i += 1;
    skip();
    let value: unknown;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      const valueStart = i + 1;
      i = valueStart;
      while (i < limit && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
      if (i >= limit) return undefined;
      value = text.slice(valueStart, i).replace(/\\(.)/g, '$1');
      i += 1;
    } else {
      const valueStart = i;
      while (i < limit && text[i] !== ',' && text[i] !== ')') i += 1;
      const word = text.slice(valueStart, i).trim();
      if (word === '') return undefined;
      if (/^-?\d+(\.\d+)?$/.test(word)) value = Number(word);
      else if (word === 'true' || word === 'True') value = true;
      else if (word === 'false' || word === 'False') value = false;
      else if (word === 'null' || word === 'None') value = null;
      else value = word;
    }
    if (Object.hasOwn(args, key)) return undefined;
    args[key] = value;
    skip();
    if (text[i] === ')') return { args, end: i + 1 };
    if (text[i] !== ',') return undefined;
    i += 1;
  }
  return undefined;
}

function pythonCalls(text: string, known: ReadonlySet<string>, taken: readonly Found[]): Found[] {
  const found: Found[] = [];
  const inside = (at: number) => taken.some((f) => at >= f.start && at < f.end);
  for (const name of known) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(`${name}(`, from);
      if (at === -1) break;
      from = at + name.length + 1;
      const before = at === 0 ? '' : text[at - 1]!;
      if (/[A-Za-z0-9_.]/.test(before) || inside(at)) continue;
      const parsed = pythonArgs(text, at + name.length);
      if (parsed === undefined) continue;
      found.push({ start: at, end: parsed.end, calls: [{ name, args: parsed.args }] });
      from = parsed.end;
    }
  }
  return found;
}

/** The tool calls written in `text`, in the order written (at most MAX_TOOL_CALLS_PER_ROUND), and the rest. */
export function textToolCalls(text: string, known: ReadonlySet<string>, round: number): TextCalls {
  const json = jsonCalls(text, known);
  const all = [...json, ...pythonCalls(text, known, json)].sort((a, b) => a.start - b.start);
  const calls: ToolCall[] = [];
  for (const f of all) {
    for (const call of f.calls) {
      if (calls.length >= MAX_TOOL_CALLS_PER_ROUND) break;
      const rawArgs = JSON.stringify(call.args ?? {});
      calls.push({ id: `text_${round}_${calls.length + 1}`, name: call.name, args: call.args, rawArgs });
    }
  }
  if (calls.length === 0) return { calls, rest: text };
  let rest = '';
  let at = 0;
  for (const f of all) {
    if (f.start < at) continue;
    rest += text.slice(at, f.start);
    at = f.end;
  }
  rest += text.slice(at);
  for (const marker of MARKERS) rest = rest.replaceAll(marker, '');
  rest = rest.replace(/```[A-Za-z]*[ \t]*\n?[ \t\n]*```/g, '');
  return { calls, rest: rest.trim() };
}

/**
 * Whether the text ends in a loop: some period of 1 to 200 characters repeating at least four times over
 * the last 300 or more characters (a small model stuck inside a string or a sentence). Reads at most the
 * last 4,000 characters, once per period.
 */
export function endsInRepetition(text: string): boolean {
  const tail = text.slice(-4_000);
  const n = tail.length;
  for (let period = 1; period <= 200 && period * 4 <= n; period++) {
    let run = 0;
    for (let i = n - 1 - period; i >= 0 && tail.charCodeAt(i) === tail.charCodeAt(i + period); i--) run += 1;
    const span = run + period;
    if (span >= 300 && span >= period * 4) return true;
  }
  return false;
}
