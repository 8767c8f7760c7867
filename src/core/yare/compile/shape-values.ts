// Shape pass, values: the scalars a step or macro holds, read into raw nodes — `@` expressions parsed
// with their places (`file:line:col` of the expression's first character, and of the failing token
// inside it), constants read, `var:` paths split. Nothing is resolved: the check pass (check-values.ts)
// checks the paths, inputs, macros and functions these name.

import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { YareError } from '../errors.ts';
import { parseExpression } from '../expr/parser.ts';
import { targetPathProblem } from '../schema.ts';
import {
  contentOffset,
  isAbsent,
  isMap,
  isScalar,
  type NodeSource,
  placeAtOffset,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from '../yaml-nodes.ts';
import type { RawExpression, RawOperand, RawParse, RawTarget } from './raw-ast.ts';

/** What every shape function reads: the file's name and line table, for places. */
export interface ShapeContext {
  readonly src: NodeSource;
}

export function shapeError(code: string, message: string, place: SourcePlace): Diagnostic {
  return { severity: 'error', code, message, place };
}

export function shapeWarning(code: string, message: string, place: SourcePlace): Diagnostic {
  return { severity: 'warning', code, message, place };
}

/** A mapping section, or undefined when it is absent (null) or not a mapping (a problem). */
export function shapeMapping(
  ctx: ShapeContext,
  node: unknown,
  message: string,
  problems: Diagnostic[],
): YAMLMap | undefined {
  if (isAbsent(node)) return undefined;
  if (isMap(node)) return node;
  problems.push(shapeError('YARE_BAD_SCHEMA', message, placeOfNode(ctx.src, node)));
  return undefined;
}

/** Parses a YAML scalar holding an expression. `atOptional`: macros may omit the leading `@`. */
export function shapeScalarExpression(
  ctx: ShapeContext,
  raw: string,
  node: unknown,
  atOptional: boolean,
): RawExpression {
  const place = placeOfNode(ctx.src, node);
  let text = raw;
  let skip = 0;
  const trimmed = raw.trimStart();
  if (trimmed.startsWith('@')) {
    skip = raw.length - trimmed.length + 1;
    text = raw.slice(skip);
  } else if (!atOptional) {
    return {
      ok: false,
      problem: shapeError(
        'YARE_NOT_AN_EXPRESSION',
        `Expected an expression starting with @, got ${JSON.stringify(raw)}.`,
        place,
      ),
    };
  }
  const ws = text.length - text.trimStart().length;
  const base = contentOffset(node);
  const exprBase = base === undefined ? undefined : base + skip + ws;
  const exprPlace = exprBase === undefined ? place : placeAtOffset(ctx.src, exprBase);
  const parsed = shapeExpressionAt(ctx, text.trimStart(), exprPlace, exprBase);
  if (!parsed.ok) return parsed;
  return { ok: true, expr: { ...parsed.expr, place: exprPlace, base: exprBase } };
}

/** Parses expression text that starts at `base` in the file (or, without a range, is placed at `place`). */
export function shapeExpressionAt(
  ctx: ShapeContext,
  text: string,
  place: SourcePlace,
  base: number | undefined,
): RawParse {
  try {
    return { ok: true, expr: parseExpression(text) };
  } catch (error) {
    if (error instanceof YareError) {
      const at = base !== undefined && error.span ? placeAtOffset(ctx.src, base + error.span.start) : place;
      return { ok: false, problem: shapeError(error.code, error.message, at) };
    }
    throw error;
  }
}

/** A value field: `@ expression`, a `'quoted'` string literal, any other string as is, or a YAML constant. */
export function shapeOperand(ctx: ShapeContext, node: unknown): RawOperand | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && typeof node.value === 'string' && node.value.startsWith('@')) {
    return { kind: 'expr', expr: shapeScalarExpression(ctx, node.value, node, false) };
  }
  if (isScalar(node) && typeof node.value === 'string') {
    const s = node.value.trim();
    if (s.length >= 2 && s.startsWith("'") && s.endsWith("'"))
      return { kind: 'const', value: s.slice(1, -1) };
    return { kind: 'const', value: node.value };
  }
  return { kind: 'const', value: plainValue(node) };
}

/** A branch test: an operand, but plain text (always true) is refused. */
export function shapeCondition(ctx: ShapeContext, node: unknown): RawOperand | undefined {
  const raw = scalarOf(node);
  if (typeof raw === 'string' && !raw.startsWith('@')) {
    return {
      kind: 'refused',
      problem: shapeError(
        'YARE_NOT_AN_EXPRESSION',
        `Condition ${JSON.stringify(raw)} is plain text, which would always be true. Start it with @ to make it an expression: "@ ${raw}".`,
        placeOfNode(ctx.src, node),
      ),
    };
  }
  return shapeOperand(ctx, node);
}

/** `var:` — a `state.`/`temp.` path (checked by the check pass), or an `@` expression yielding one. */
export function shapeTarget(ctx: ShapeContext, node: unknown, where: string): RawTarget | undefined {
  if (node === undefined) return undefined;
  const raw = scalarOf(node);
  const refused = (message: string): RawTarget => ({
    kind: 'refused',
    problem: shapeError('YARE_BAD_STEP', message, placeOfNode(ctx.src, node)),
  });
  if (typeof raw !== 'string') return refused(`${where}.var must be a path string like state.player.hp.`);
  if (raw.startsWith('@')) {
    const operand = shapeOperand(ctx, node);
    return operand ? { kind: 'dynamic', operand } : undefined;
  }
  const text = raw.trim();
  // A computed key (`state.objs[inputs.obj].loc`): the path is read as an expression, checked later.
  if (text.includes('['))
    return { kind: 'computed', expr: shapeScalarExpression(ctx, raw, node, true), text };
  const problem = targetPathProblem(text);
  if (problem !== undefined) return refused(`${where}.var '${text}' ${problem}.`);
  const segments = text.split('.');
  const root = segments[0] as 'state' | 'temp';
  return { kind: 'static', root, path: segments.slice(1), text, place: placeOfNode(ctx.src, node) };
}
