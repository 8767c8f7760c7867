// Checks a YAML node tree against a Shape, with `file:line:col` for every finding. Used for scenario files
// (the parser builds its model only from a tree that passed) and by the language server's key hints.

import { isMap, isScalar, isSeq, type LineCounter, type Node as YamlNode } from 'yaml';
import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import { didYouMean, mapPairs, placeOfNode } from '../../../core/yare/index.ts';
import { type FileShape, resolveShape, type Shape } from './shape.ts';

export interface ShapeCheckSource {
  readonly file: string;
  readonly lineCounter: LineCounter;
}

/** Budget of nodes visited per check: a hostile file cannot make it loop for long. */
const MAX_VISITS = 200_000;

export function checkShape(
  root: unknown,
  file: FileShape,
  src: ShapeCheckSource,
  code = 'SCENARIO_BAD_FILE',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  let visits = 0;
  const place = (node: unknown): SourcePlace => placeOfNode(src, node);
  const report = (node: unknown, message: string, severity: 'error' | 'warning' = 'error') =>
    out.push({ severity, code, message, place: place(node) });

  const visit = (
    node: unknown,
    shapeIn: Shape,
    where: string,
    sink: (n: unknown, m: string) => void,
  ): void => {
    if (++visits > MAX_VISITS) return;
    const shape = resolveShape(shapeIn, file);
    const isNull = node === null || node === undefined || (isScalar(node) && node.value === null);
    switch (shape.kind) {
      case 'any':
        return;
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean': {
        const v = isScalar(node) ? node.value : undefined;
        const ok =
          (shape.kind === 'string' && typeof v === 'string') ||
          (shape.kind === 'number' && typeof v === 'number') ||
          (shape.kind === 'integer' && typeof v === 'number' && Number.isInteger(v)) ||
          (shape.kind === 'boolean' && typeof v === 'boolean');
        if (!ok) {
          sink(node, `${where} must be ${article(shape.kind)}${isNull ? ', not empty' : ''}.`);
          return;
        }
        if (shape.kind === 'string' && shape.enum && !shape.enum.includes(v as string))
          sink(node, `${where} must be one of ${shape.enum.join(', ')}.${didYouMean(String(v), shape.enum)}`);
        if (shape.kind === 'integer' && shape.min !== undefined && (v as number) < shape.min)
          sink(node, `${where} must be at least ${shape.min}.`);
        if (shape.kind === 'integer' && shape.max !== undefined && (v as number) > shape.max)
          sink(node, `${where} must be at most ${shape.max}.`);
        return;
      }
      case 'array': {
        if (!isSeq(node)) {
          sink(node, `${where} must be a list.`);
          return;
        }
        if (shape.maxItems !== undefined && node.items.length > shape.maxItems)
          sink(node, `${where} holds ${node.items.length} items; at most ${shape.maxItems}.`);
        for (const [i, item] of node.items.entries()) visit(item, shape.items, `${where}[${i}]`, sink);
        return;
      }
      case 'union': {
        let best: { count: number; found: Array<[unknown, string]> } | undefined;
        for (const option of shape.options) {
          const found: Array<[unknown, string]> = [];
          visit(node, option, where, (n, m) => found.push([n, m]));
          if (found.length === 0) return;
          if (!best || found.length < best.count) best = { count: found.length, found };
        }
        for (const [n, m] of best?.found ?? []) sink(n, m);
        return;
      }
      case 'object':
      case 'tagged': {
        if (!isMap(node)) {
          sink(node, `${where} must be a mapping (key: value lines).`);
          return;
        }
        let objectShape = shape.kind === 'object' ? shape : undefined;
        if (shape.kind === 'tagged') {
          const tagPair = mapPairs(node).find((p) => p.key === shape.tag);
          const tag = isScalar(tagPair?.value) ? tagPair.value.value : undefined;
          const names = Object.keys(shape.variants);
          if (typeof tag !== 'string' || !shape.variants[tag]) {
            sink(
              tagPair?.value ?? node,
              `${where}.${shape.tag} must be one of ${names.join(', ')}.${typeof tag === 'string' ? didYouMean(tag, names) : ''}`,
            );
            return;
          }
          const variant = shape.variants[tag]!;
          objectShape = { ...variant, props: { [shape.tag]: { kind: 'string' }, ...variant.props } };
        }
        if (!objectShape) return;
        const keys = Object.keys(objectShape.props);
        for (const { key, pair, value } of mapPairs(node)) {
          const prop = Object.hasOwn(objectShape.props, key) ? objectShape.props[key] : undefined;
          if (prop) visit(value, prop, `${where}.${key}`, sink);
          else if (objectShape.extra) {
            if (objectShape.keyPattern && !new RegExp(objectShape.keyPattern).test(key))
              sink(pair.key, `${where}: '${key}' is not a valid name here.`);
            visit(value, objectShape.extra, `${where}.${key}`, sink);
          } else if (objectShape.unknownIsWarning) {
            report(pair.key, `${where}: unknown key '${key}' is ignored.${didYouMean(key, keys)}`, 'warning');
          } else {
            sink(
              pair.key,
              `${where}: unknown key '${key}'. Keys here: ${keys.join(', ')}.${didYouMean(key, keys)}`,
            );
          }
        }
        const present = new Set(mapPairs(node).map((p) => p.key));
        for (const key of objectShape.required ?? [])
          if (!present.has(key)) sink(node, `${where} needs '${key}'.`);
        for (const group of objectShape.oneRequired ?? []) {
          const given = group.keys.filter((key) => present.has(key));
          const names = group.keys.map((key) => `'${key}'`).join(' or ');
          if (given.length === 0) sink(node, `${where} needs ${names}.`);
          else if (group.exclusive && given.length > 1) sink(node, `${where} takes only one of ${names}.`);
        }
        return;
      }
      case 'ref':
        return;
    }
  };
  visit(root, file.root, 'file', (n, m) => report(n, m));
  return out;
}

function article(kind: string): string {
  switch (kind) {
    case 'integer':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    default:
      return 'text';
  }
}

export type { YamlNode };
