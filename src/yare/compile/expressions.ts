// Expressions inside YAML scalars: parsed with their place (`file:line:col` of the expression's first
// character, and of the failing token inside it), and checked in an event's scope — paths, inputs
// (including those its macros read), macros, functions and arity.

import type { SourcePlace } from '../../diagnostics.ts';
import { type CheckFinding, checkExpr } from '../check.ts';
import { YareError } from '../errors.ts';
import type { Expression } from '../expr/ast.ts';
import { parseExpression } from '../expr/parser.ts';
import type { CompileContext, EventScope } from './context.ts';
import { macroInputs } from './macros.ts';
import { contentOffset, placeAtOffset, placeOfNode } from '../yaml-nodes.ts';

/** Parses a YAML scalar holding an expression. `atOptional`: macros may omit the leading `@`. */
export function parseScalarExpression(
  ctx: CompileContext,
  raw: string,
  node: unknown,
  atOptional: boolean,
): (Expression & { place: SourcePlace; base: number | undefined }) | undefined {
  const place = placeOfNode(ctx.src, node);
  let text = raw;
  let skip = 0;
  const trimmed = raw.trimStart();
  if (trimmed.startsWith('@')) {
    skip = raw.length - trimmed.length + 1;
    text = raw.slice(skip);
  } else if (!atOptional) {
    ctx.sink.error(
      'YARE_NOT_AN_EXPRESSION',
      `Expected an expression starting with @, got ${JSON.stringify(raw)}.`,
      place,
    );
    return undefined;
  }
  const ws = text.length - text.trimStart().length;
  const base = contentOffset(node);
  const exprBase = base === undefined ? undefined : base + skip + ws;
  const expr = parseExpressionAt(
    ctx,
    text.trimStart(),
    exprBase === undefined ? place : placeAtOffset(ctx.src, exprBase),
    exprBase,
  );
  return expr
    ? { ...expr, place: exprBase === undefined ? place : placeAtOffset(ctx.src, exprBase), base: exprBase }
    : undefined;
}

export function parseExpressionAt(
  ctx: CompileContext,
  text: string,
  place: SourcePlace,
  base: number | undefined,
): Expression | undefined {
  try {
    return parseExpression(text);
  } catch (error) {
    if (error instanceof YareError) {
      const at = base !== undefined && error.span ? placeAtOffset(ctx.src, base + error.span.start) : place;
      ctx.sink.error(error.code, error.message, at);
      return undefined;
    }
    throw error;
  }
}

export function checkOperandExpr(
  ctx: CompileContext,
  expr: Expression,
  scope: EventScope,
  base: number | undefined,
  place: SourcePlace,
): void {
  const findings: CheckFinding[] = [];
  const refs = new Set<string>();
  checkExpr(
    expr.ast,
    {
      schema: ctx.schema,
      inputs: scope.inputs,
      macros: new Set(ctx.macroNodes.keys()),
      locals: scope.locals,
    },
    findings,
    refs,
  );
  for (const ref of refs) {
    for (const input of macroInputs(ctx, ref)) {
      if (!scope.inputs.has(input)) {
        findings.push({
          code: 'YARE_UNKNOWN_INPUT',
          message: `macros.${ref} reads inputs.${input}, which this event does not declare.`,
          start: 0,
        });
      }
    }
  }
  for (const f of findings) {
    ctx.sink.error(f.code, f.message, base === undefined ? place : placeAtOffset(ctx.src, base + f.start));
  }
}

export function report(
  ctx: CompileContext,
  expr: Expression & { place: SourcePlace },
  run: (findings: CheckFinding[]) => void,
): void {
  const findings: CheckFinding[] = [];
  run(findings);
  for (const f of findings) ctx.sink.error(f.code, f.message, expr.place);
}
