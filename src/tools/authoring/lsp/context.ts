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

const LINE = /^(\s*)(-\s+)?([^\s#:][^:#]*?)?\s*(:)?(\s.*)?$/;
/** Lines scanned upward for the context; a bigger file's far lines cannot matter for one mapping. */
const MAX_LINES_SCANNED = 5_000;

interface LineInfo {
  readonly keyColumn: number;
  readonly item: boolean;
  readonly key: string | undefined;
  readonly value: string;
}

function lineInfo(line: string): LineInfo | undefined {
  if (/^\s*(#.*)?$/.test(line)) return undefined;
  const m = LINE.exec(line);
  if (!m) return undefined;
  const indent = m[1]!.length;
  const dash = m[2]?.length ?? 0;
  return {
    keyColumn: indent + dash,
    item: dash > 0,
    key: m[4] ? m[3]?.trim() : undefined,
    value: (m[5] ?? '').replace(/\s#.*$/, '').trim(),
  };
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
