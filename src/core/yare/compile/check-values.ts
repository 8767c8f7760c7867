// Check pass, values: the raw operands and targets of a step resolved in the event's scope — an
// expression's paths, inputs (including those its macros read), macros, functions and arity; a static
// target's path against the schema — into the operands and targets of program.ts.

import type { SourcePlace } from '../../diagnostics.ts';
import { type CheckFinding, checkExpr, checkStatePath } from '../check.ts';
import type { Expression } from '../expr/ast.ts';
import type { Operand, Target } from '../program.ts';
import { schemaAt } from '../schema.ts';
import { placeAtOffset } from '../yaml-nodes.ts';
import { type CheckContext, type EventScope, macroScope, reportShapeProblem } from './context.ts';
import { macroInputs } from './resolve-macros.ts';
import { checkComputedTarget } from './check-computed-target.ts';
import type { RawOperand, RawTarget } from './raw-ast.ts';

/** Checks an expression in the event's scope; findings are placed at `base` + their offset. */
export function checkOperandExpr(
  ctx: CheckContext,
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
      ...macroScope(ctx),
      locals: scope.locals,
      recordLocals: scope.recordLocals,
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

/** A value field; undefined when it is absent or the shape pass refused it (reported here). */
export function checkOperand(
  ctx: CheckContext,
  raw: RawOperand | undefined,
  scope: EventScope,
): Operand | undefined {
  if (raw === undefined) return undefined;
  switch (raw.kind) {
    case 'const':
      return { kind: 'const', value: raw.value };
    case 'refused':
      reportShapeProblem(ctx, raw.problem);
      return undefined;
    case 'expr': {
      if (!raw.expr.ok) {
        reportShapeProblem(ctx, raw.expr.problem);
        return undefined;
      }
      const { expr } = raw.expr;
      checkOperandExpr(ctx, expr, scope, expr.base, expr.place);
      return { kind: 'expr', expr, place: expr.place };
    }
    default:
      return assertNever(raw);
  }
}

/** `var:` — a `state.` path checked against the schema now, or an `@` expression checked as an operand. */
export function checkTarget(
  ctx: CheckContext,
  raw: RawTarget | undefined,
  scope: EventScope,
  where: string,
): Target | undefined {
  if (raw === undefined) return undefined;
  switch (raw.kind) {
    case 'refused':
      reportShapeProblem(ctx, raw.problem);
      return undefined;
    case 'dynamic': {
      const operand = checkOperand(ctx, raw.operand, scope);
      return operand ? { kind: 'dynamic', expr: operand } : undefined;
    }
    case 'computed':
      return checkComputedTarget(ctx, raw, where, (key, base, place) =>
        checkOperandExpr(ctx, key, scope, base, place),
      );
    case 'static': {
      const { root, path, text } = raw;
      if (root === 'state') {
        const findings: CheckFinding[] = [];
        checkStatePath(path, 0, ctx.schema, findings);
        for (const f of findings) ctx.sink.error(f.code, `${where}.var: ${f.message}`, raw.place);
        if (findings.length) return undefined;
      }
      const declared = root === 'state' ? schemaAt(ctx.schema, path) : undefined;
      const field = declared?.kind === 'field' && declared.path.length === path.length ? declared : undefined;
      return { kind: 'static', root, path, text, segments: [root, ...path], field };
    }
    default:
      return assertNever(raw);
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected raw node ${JSON.stringify(value)}`);
}
