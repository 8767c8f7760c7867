// Pure text helpers of the builder (no DOM, no editor): where a checker finding falls in a file's text,
// the event names a yare.yaml declares (for the "try it" pane), and the JSON fields of that pane.

import type { ConfigFieldView } from '../../contract/index.ts';
import { isRecord } from '../../../core/is-record.ts';

/** Lines of yare.yaml scanned for event names. */
export const MAX_SCANNED_LINES = 20_000;
const EVENT_KEY = /^ {2}([A-Za-z_][A-Za-z0-9_]*)\s*:/;
const TOP_KEY = /^[A-Za-z_][A-Za-z0-9_]*\s*:/;

/**
 * The span a `line:col` finding (1-based) covers in `text`: from the column to the end of the word there
 * (at least one character), clamped to the text; line 0 or a line past the end is the file's start.
 */
export function problemRange(text: string, line: number, col: number): { from: number; to: number } {
  if (line < 1) return { from: 0, to: Math.min(1, text.length) };
  let start = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return { from: 0, to: Math.min(1, text.length) };
    start = next + 1;
  }
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  const from = Math.min(start + Math.max(0, col - 1), end);
  let to = from;
  while (to < end && !/[\s,:}\]"'()]/.test(text[to]!)) to++;
  if (to === from) to = Math.min(from + 1, text.length);
  return { from, to };
}

/** The event names under `events:` in yare.yaml text (two-space indented keys), in order. */
export function eventNames(yare: string): string[] {
  const names: string[] = [];
  let inEvents = false;
  const lines = yare.split('\n', MAX_SCANNED_LINES);
  for (const line of lines) {
    if (TOP_KEY.test(line)) {
      inEvents = line.startsWith('events:') || line.startsWith('events :');
      continue;
    }
    if (!inEvents) continue;
    const m = EVENT_KEY.exec(line);
    if (m) names.push(m[1]!);
  }
  return names;
}

/** A JSON object typed into a field: undefined when blank, else the object or a message naming the field. */
export function jsonObjectField(
  text: string,
  field: string,
): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${field}: not JSON (${(error as Error).message})` };
  }
  if (!isRecord(value)) return { ok: false, message: `${field}: must be a JSON object such as {"name": 1}` };
  return { ok: true, value };
}

/** A mini-game setting's bounds as one short text: `int 3–7`, `text ≤ 40 chars`, `list of 2–8 texts`. */
export function fieldBounds(f: ConfigFieldView): string {
  switch (f.kind) {
    case 'int':
    case 'number':
      return `${f.kind} ${f.min}–${f.max}`;
    case 'text':
      return `text ≤ ${f.maxChars} chars`;
    case 'text_list':
      return `list of ${f.minItems}–${f.maxItems} texts`;
    default: {
      const unreachable: never = f;
      return String(unreachable);
    }
  }
}

/** Markdown from the language server as plain text: code fences, `**` and backticks removed. */
export function hoverText(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !line.startsWith('```'))
    .join('\n')
    .replaceAll('**', '')
    .replaceAll('`', '')
    .trim();
}
