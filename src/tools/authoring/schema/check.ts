// Checks a YAML node tree against a Shape, with `file:line:col` for every finding. Used for scenario files
// (the parser builds its model only from a tree that passed) and by the language server's key hints.

import { isMap, isScalar, isSeq, type LineCounter, type YAMLMap, type Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { didYouMean, mapPairs, placeOfNode } from '../../../core/yare/index.ts';
import { type FileShape, type ObjectShape, resolveShape, type Shape, type TaggedShape } from './shape.ts';

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
  const checker = new ShapeChecker(file, src, code);
  checker.visit(root, file.root, 'file', (n, m) => checker.report(n, m));
  return checker.out;
}

/** Where a finding goes: the file's diagnostics, or a union option's trial list. */
type Sink = (node: unknown, message: string) => void;
type ScalarShape = Extract<Shape, { kind: 'string' | 'integer' | 'number' | 'boolean' }>;
type ArrayShape = Extract<Shape, { kind: 'array' }>;
type UnionShape = Extract<Shape, { kind: 'union' }>;

/** One check of one tree: its findings, in the order the tree is walked, and its visit budget. */
class ShapeChecker {
  readonly out: Diagnostic[] = [];
  #visits = 0;

  constructor(
    private readonly file: FileShape,
    private readonly src: ShapeCheckSource,
    private readonly code: string,
  ) {}

  report(node: unknown, message: string, severity: 'error' | 'warning' = 'error'): void {
    this.out.push({ severity, code: this.code, message, place: placeOfNode(this.src, node) });
  }

  visit(node: unknown, shapeIn: Shape, where: string, sink: Sink): void {
    if (++this.#visits > MAX_VISITS) return;
    const shape = resolveShape(shapeIn, this.file);
    switch (shape.kind) {
      case 'any':
      case 'ref':
        return;
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
        this.scalar(node, shape, where, sink);
        return;
      case 'array':
        this.array(node, shape, where, sink);
        return;
      case 'union':
        this.union(node, shape, where, sink);
        return;
      case 'object':
      case 'tagged': {
        if (!isMap(node)) {
          sink(node, `${where} must be a mapping (key: value lines).`);
          return;
        }
        const objectShape = shape.kind === 'object' ? shape : this.variantOf(node, shape, where, sink);
        if (objectShape) this.object(node, objectShape, where, sink);
        return;
      }
    }
  }

  private scalar(node: unknown, shape: ScalarShape, where: string, sink: Sink): void {
    const isNull = node === null || node === undefined || (isScalar(node) && node.value === null);
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
  }

  private array(node: unknown, shape: ArrayShape, where: string, sink: Sink): void {
    if (!isSeq(node)) {
      sink(node, `${where} must be a list.`);
      return;
    }
    if (shape.maxItems !== undefined && node.items.length > shape.maxItems)
      sink(node, `${where} holds ${node.items.length} items; at most ${shape.maxItems}.`);
    for (const [i, item] of node.items.entries()) this.visit(item, shape.items, `${where}[${i}]`, sink);
  }

  /** The first option that fits wins; otherwise the findings of the option that came closest. */
  private union(node: unknown, shape: UnionShape, where: string, sink: Sink): void {
    let best: { count: number; found: Array<[unknown, string]> } | undefined;
    for (const option of shape.options) {
      const found: Array<[unknown, string]> = [];
      this.visit(node, option, where, (n, m) => found.push([n, m]));
      if (found.length === 0) return;
      if (!best || found.length < best.count) best = { count: found.length, found };
    }
    for (const [n, m] of best?.found ?? []) sink(n, m);
  }

  /** The variant a tagged mapping's tag names, with the tag key itself among its props. */
  private variantOf(node: YAMLMap, shape: TaggedShape, where: string, sink: Sink): ObjectShape | undefined {
    const tagPair = mapPairs(node).find((p) => p.key === shape.tag);
    const tag = isScalar(tagPair?.value) ? tagPair.value.value : undefined;
    const names = Object.keys(shape.variants);
    if (typeof tag !== 'string' || !shape.variants[tag]) {
      sink(
        tagPair?.value ?? node,
        `${where}.${shape.tag} must be one of ${names.join(', ')}.${typeof tag === 'string' ? didYouMean(tag, names) : ''}`,
      );
      return undefined;
    }
    const variant = shape.variants[tag]!;
    return { ...variant, props: { [shape.tag]: { kind: 'string' }, ...variant.props } };
  }

  private object(node: YAMLMap, objectShape: ObjectShape, where: string, sink: Sink): void {
    const keys = Object.keys(objectShape.props);
    for (const { key, pair, value } of mapPairs(node)) {
      const prop = Object.hasOwn(objectShape.props, key) ? objectShape.props[key] : undefined;
      if (prop) this.visit(value, prop, `${where}.${key}`, sink);
      else if (objectShape.extra) {
        if (objectShape.keyPattern && !new RegExp(objectShape.keyPattern).test(key))
          sink(pair.key, `${where}: '${key}' is not a valid name here.`);
        this.visit(value, objectShape.extra, `${where}.${key}`, sink);
      } else if (objectShape.unknownIsWarning) {
        this.report(
          pair.key,
          `${where}: unknown key '${key}' is ignored.${didYouMean(key, keys)}`,
          'warning',
        );
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
  }
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
