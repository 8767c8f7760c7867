// Placing problems in the author's file. Two sources: a JavaScript error's `file:line:col` in QuickJS's
// stack text, and a compiler diagnostic in the YAML generated from the rules object, which is traced to
// the path of the value in the rules object (`events.attack.steps[2].value`) and then to the place where
// that path's keys are written in the module. The second is a best effort: the keys are searched in order
// of the path, so a key written twice in different branches may resolve to the first; the path is always
// also named in the message.

import { isMap, isScalar, isSeq, LineCounter, type Node as YamlNode, parseDocument } from 'yaml';

export type RulesPath = readonly (string | number)[];

/** The first `file:line:col` for `file` in a QuickJS stack (`    at f (yare.js:3:7)` or `    at yare.js:3:7`). */
export function placeInStack(stack: string, file: string): { line: number; col: number } | undefined {
  const marker = `${file}:`;
  let from = 0;
  for (;;) {
    const at = stack.indexOf(marker, from);
    if (at < 0) return undefined;
    const before = at === 0 ? ' ' : stack[at - 1];
    from = at + marker.length;
    if (before !== ' ' && before !== '(') continue;
    const line = readNumber(stack, from);
    if (line === undefined || stack[line.end] !== ':') continue;
    const col = readNumber(stack, line.end + 1);
    if (col === undefined) continue;
    return { line: line.value, col: col.value };
  }
}

function readNumber(text: string, start: number): { value: number; end: number } | undefined {
  let end = start;
  while (end < text.length && end - start < 9 && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57)
    end++;
  if (end === start) return undefined;
  return { value: Number(text.slice(start, end)), end };
}

/** For generated YAML text: the rules path of the key or item that starts at or before each place. */
export class GeneratedYamlIndex {
  readonly #offsets: number[] = [];
  readonly #paths: RulesPath[] = [];
  readonly #lineStarts: readonly number[];

  constructor(yamlText: string) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(yamlText, { lineCounter, uniqueKeys: false });
    this.#lineStarts = lineCounter.lineStarts;
    // Iterative walk (the document came from JSON whose depth was already bounded; no recursion needed).
    const stack: { node: unknown; path: RulesPath }[] = [{ node: doc.contents, path: [] }];
    const found: { offset: number; path: RulesPath }[] = [];
    while (stack.length > 0) {
      const { node, path } = stack.pop() as { node: unknown; path: RulesPath };
      if (isMap(node)) {
        for (const pair of node.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
          const childPath = [...path, key];
          const start = (pair.key as YamlNode | null)?.range?.[0];
          if (start !== undefined) found.push({ offset: start, path: childPath });
          stack.push({ node: pair.value, path: childPath });
        }
      } else if (isSeq(node)) {
        node.items.forEach((item, index) => {
          const childPath = [...path, index];
          const start = (item as YamlNode | null)?.range?.[0];
          if (start !== undefined) found.push({ offset: start, path: childPath });
          stack.push({ node: item, path: childPath });
        });
      }
    }
    found.sort((a, b) => a.offset - b.offset);
    for (const entry of found) {
      this.#offsets.push(entry.offset);
      this.#paths.push(entry.path);
    }
  }

  /** The path at a 1-based line:col of the generated text ([] for the top). */
  pathAt(line: number, col: number): RulesPath {
    const lineStart = this.#lineStarts[line - 1];
    if (lineStart === undefined) return [];
    const offset = lineStart + col - 1;
    let low = 0;
    let high = this.#offsets.length - 1;
    let best = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((this.#offsets[mid] as number) <= offset) {
        best = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return best < 0 ? [] : (this.#paths[best] as RulesPath);
  }
}

/** `events.attack.steps[2].value` */
export function formatRulesPath(path: RulesPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(the rules object)' : out;
}

const isIdentifierChar = (code: number) =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95 ||
  code === 36;

/**
 * Where the keys of `path` are written in `source`: each key is searched as a property name (`key:`,
 * `"key":`, `'key':`) after the previous one; array indices are skipped. The place of the last key found,
 * or undefined when not even the first is found. Linear in the source per key (indexOf, no regex).
 */
export function placeOfRulesPath(source: string, path: RulesPath): { line: number; col: number } | undefined {
  let from = 0;
  let last: number | undefined;
  for (const segment of path) {
    if (typeof segment === 'number' || segment === '') continue;
    const at = findPropertyKey(source, segment, from);
    if (at === undefined) break;
    last = at;
    from = at + segment.length;
  }
  if (last === undefined) return undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < last; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: last - lineStart + 1 };
}

function findPropertyKey(source: string, key: string, from: number): number | undefined {
  let at = source.indexOf(key, from);
  while (at >= 0) {
    const before = at > 0 ? source.charCodeAt(at - 1) : 32;
    let after = at + key.length;
    const quoted = before === 34 || before === 39;
    if (quoted && source.charCodeAt(after) === before) after++;
    const startOk = quoted || !isIdentifierChar(before);
    const endOk = quoted || !isIdentifierChar(source.charCodeAt(after));
    if (startOk && endOk) {
      let next = after;
      while (next < source.length && (source[next] === ' ' || source[next] === '\t')) next++;
      if (source[next] === ':') return quoted ? at - 1 : at;
    }
    at = source.indexOf(key, at + 1);
  }
  return undefined;
}
