// Where the cursor is in a YAML file's structure, from indentation alone (the text may not parse while
// the author types): the keys leading to the mapping the cursor is in, and that mapping's other keys.
// With a FileShape this gives the keys that may be written here, and the shape of a key for hover.

import { type FileShape, type ObjectShape, resolveShape, type Shape } from '../schema/shape.ts';

export interface KeyContext {
  /** Keys from the document root to the mapping holding the cursor. */
  readonly path: readonly string[];
  /** The other `key: value` lines of that mapping (the value as written, trimmed). */
  readonly siblings: ReadonlyMap<string, string>;
}

/** Lines scanned upward for the context; a bigger file's far lines cannot matter for one mapping. */
const MAX_LINES_SCANNED = 5_000;

interface LineInfo {
  readonly keyColumn: number;
  readonly item: boolean;
  readonly key: string | undefined;
  readonly value: string;
}

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * A line's indentation, list dash and `key:` (a run with no whitespace, `#` or `:`, then a colon that ends
 * the line or is followed by whitespace), by one pass over it: lines can be long, and a regex over them
 * could backtrack (test/core/lore/regex-linearity.test.ts).
 */
function lineInfo(line: string): LineInfo | undefined {
  let i = 0;
  while (isSpace(line[i])) i++;
  if (i === line.length || line[i] === '#') return undefined;
  const indent = i;
  let dash = 0;
  if (line[i] === '-' && isSpace(line[i + 1])) {
    let j = i + 1;
    while (isSpace(line[j])) j++;
    dash = j - i;
    i = j;
  }
  let end = i;
  while (end < line.length && !isSpace(line[end]) && line[end] !== '#' && line[end] !== ':') end++;
  let colon = end;
  while (isSpace(line[colon])) colon++;
  const isKey = end > i && line[colon] === ':' && (colon + 1 === line.length || isSpace(line[colon + 1]));
  return {
    keyColumn: indent + dash,
    item: dash > 0,
    key: isKey ? line.slice(i, end) : undefined,
    value: withoutComment(isKey ? line.slice(colon + 1) : line.slice(end)).trim(),
  };
}

/** The text before its first ` #` comment. */
function withoutComment(text: string): string {
  for (let i = 1; i < text.length; i++)
    if (text[i] === '#' && isSpace(text[i - 1])) return text.slice(0, i - 1);
  return text;
}

/** The context of a key written at `column` on line `lineNo` (0-based) of `lines`. */
export function keyContext(lines: readonly string[], lineNo: number, column: number): KeyContext {
  const path: string[] = [];
  const siblings = new Map<string, string>();
  let indent = column;
  const here = lineInfo(lines[lineNo] ?? '');
  let collecting = !(here?.item ?? false);
  const stop = Math.max(0, lineNo - MAX_LINES_SCANNED);
  for (let i = lineNo - 1; i >= stop; i--) {
    const info = lineInfo(lines[i]!);
    if (!info) continue;
    if (info.keyColumn === indent && collecting) {
      if (info.key !== undefined) siblings.set(info.key, info.value);
      if (info.item) collecting = false;
    } else if (info.keyColumn < indent) {
      if (
        info.item &&
        info.keyColumn + 0 < indent &&
        lines[i]!.indexOf('-') + 2 === indent &&
        info.key !== undefined &&
        collecting
      ) {
        // `- key: …` opens the list item the cursor's mapping belongs to: its first key is a sibling.
        siblings.set(info.key, info.value);
        collecting = false;
        indent = lines[i]!.indexOf('-');
        continue;
      }
      if (info.key === undefined) {
        indent = info.keyColumn;
        continue;
      }
      path.unshift(info.key);
      indent = info.keyColumn;
      collecting = false;
      if (indent === 0) break;
    }
  }
  return { path, siblings };
}

/** The shapes of the mapping at `path` (several when the path goes through a union or a variant). */
export function shapesAt(file: FileShape, context: KeyContext): ObjectShape[] {
  let current: Shape[] = [file.root];
  for (const key of context.path) {
    const next: Shape[] = [];
    for (const shape of current.flatMap((s) => objectsOf(file, s, undefined))) {
      const prop = Object.hasOwn(shape.props, key) ? shape.props[key] : shape.extra;
      if (prop) next.push(prop);
    }
    current = next;
  }
  return current.flatMap((s) => objectsOf(file, s, context.siblings));
}

function objectsOf(
  file: FileShape,
  shapeIn: Shape,
  siblings: ReadonlyMap<string, string> | undefined,
): ObjectShape[] {
  const shape = resolveShape(shapeIn, file);
  switch (shape.kind) {
    case 'object':
      return [shape];
    case 'array':
      return objectsOf(file, shape.items, siblings);
    case 'union':
      return shape.options.flatMap((o) => objectsOf(file, o, siblings));
    case 'tagged': {
      const tag = siblings?.get(shape.tag);
      const names = tag !== undefined && shape.variants[tag] ? [tag] : Object.keys(shape.variants);
      return names.map((name) => {
        const v = shape.variants[name]!;
        return {
          ...v,
          props: {
            [shape.tag]: { kind: 'string', doc: shape.doc, enum: Object.keys(shape.variants) },
            ...v.props,
          },
        } as ObjectShape;
      });
    }
    default:
      return [];
  }
}

/** The keys that may be written here and are not written yet, with their shapes. */
export function keysAt(file: FileShape, context: KeyContext): Map<string, Shape> {
  const out = new Map<string, Shape>();
  for (const shape of shapesAt(file, context))
    for (const [key, prop] of Object.entries(shape.props))
      if (!context.siblings.has(key) && !out.has(key)) out.set(key, prop);
  return out;
}
