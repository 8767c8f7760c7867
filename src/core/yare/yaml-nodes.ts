// Reading the `yaml` package's node tree with positions. The compiler walks nodes (not plain data) so
// every diagnostic and every runtime error can name `file:line:col`.

import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node, type Pair, type YAMLMap } from 'yaml';
import type { SourcePlace } from '../diagnostics.ts';
import { type Dict, newDict, type Value } from './values.ts';

export interface NodeSource {
  readonly file: string;
  readonly lineCounter: LineCounter;
}

export function placeAtOffset(src: NodeSource, offset: number): SourcePlace {
  const { line, col } = src.lineCounter.linePos(offset);
  return { file: src.file, line, col };
}

export function placeOfNode(src: NodeSource, node: unknown, fallback?: SourcePlace): SourcePlace {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  if (range) return placeAtOffset(src, range[0]);
  return fallback ?? { file: src.file, line: 1, col: 1 };
}

/** Offset at which a scalar's text content starts (past an opening quote), for expression spans. */
export function contentOffset(node: unknown): number | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  return node.range[0] + (quoted ? 1 : 0);
}

export function keyName(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

/** Entries of a mapping node in document order, keyed by their string key. */
export function mapPairs(node: YAMLMap): Array<{ key: string; pair: Pair; value: unknown }> {
  const out: Array<{ key: string; pair: Pair; value: unknown }> = [];
  for (const item of node.items) {
    if (isPair(item)) out.push({ key: keyName(item), pair: item, value: item.value });
  }
  return out;
}

export function getPair(node: YAMLMap, key: string): Pair | undefined {
  for (const item of node.items) {
    if (isPair(item) && keyName(item) === key) return item;
  }
  return undefined;
}

/** A node as plain data (`toJSON`), or undefined for a missing or null node. */
export function plainOf(node: unknown): unknown {
  return node === undefined || node === null ? undefined : (node as { toJSON(): unknown }).toJSON();
}

export function hasKey(node: YAMLMap, key: string): boolean {
  return getPair(node, key) !== undefined;
}

export function getNode(node: YAMLMap, key: string): unknown {
  return getPair(node, key)?.value;
}

/** Plain YARE value of a node: null-prototype dicts, no evaluation of nested strings. */
export function plainValue(node: unknown): Value {
  if (node === null || node === undefined) return null;
  if (isScalar(node)) return scalarValue(node.value);
  if (isSeq(node)) return node.items.map((item) => plainValue(item));
  if (isMap(node)) {
    const dict: Dict = newDict();
    for (const { key, value } of mapPairs(node)) dict[key] = plainValue(value);
    return dict;
  }
  if (isPair(node)) return plainValue(node.value);
  return scalarValue(node);
}

function scalarValue(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return String(v);
}

/** A YAML value that is missing or written as null (`key:` with nothing after it). */
export function isAbsent(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

export function scalarOf(node: unknown): unknown {
  return isScalar(node) ? node.value : node;
}

export { isMap, isScalar, isSeq };
export type { Node, YAMLMap };
