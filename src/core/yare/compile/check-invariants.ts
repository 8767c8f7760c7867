// Check pass, invariants: each condition of `invariants:` resolved like an event's expressions — its
// `state.` paths against the schema, `macros.` against the macros, functions and arity — with `state`
// and `macros` its only roots (an invariant runs after an event, outside it: no inputs, no temp). A macro
// it uses may not read inputs either.

import { type CheckFinding, checkExpr } from '../check.ts';
import type { Expr } from '../expr/ast.ts';
import { walkExpr } from '../expr/walk.ts';
import type { InvariantDef } from '../program.ts';
import { placeAtOffset } from '../yaml-nodes.ts';
import { type CheckContext, macroScope, reportShapeProblem, reportShapeProblems } from './context.ts';
import type { RawInvariant, RawTable } from './raw-ast.ts';
import { macroInputs } from './resolve-macros.ts';

const INVARIANT_ROOTS = ['state', 'macros'] as const;

export function checkInvariants(ctx: CheckContext, raw: RawTable<RawInvariant>): InvariantDef[] {
  reportShapeProblems(ctx, raw.problems);
  const out: InvariantDef[] = [];
  const macros = macroScope(ctx);
  const seen = new Set<string>();
  for (const item of raw.items) {
    if (!item.expr.ok) {
      reportShapeProblem(ctx, item.expr.problem);
      continue;
    }
    const { expr } = item.expr;
    const problems = invariantProblems(ctx, item.name, expr.ast, macros);
    for (const f of problems) {
      const at = expr.base === undefined ? expr.place : placeAtOffset(ctx.src, expr.base + f.start);
      ctx.sink.error(f.code, f.message, at);
    }
    // YAML keeps the last of two equal keys; the earlier one would be checked but never run.
    if (seen.has(item.name)) {
      ctx.sink.error('YARE_BAD_SCHEMA', `Invariant '${item.name}' is declared twice.`, item.place);
      continue;
    }
    seen.add(item.name);
    if (problems.length === 0) out.push({ name: item.name, expr: { ...expr }, place: item.place });
  }
  return out;
}

/** What is wrong with an invariant's expression: its checks, dice it rolls, inputs its macros read. */
function invariantProblems(
  ctx: CheckContext,
  name: string,
  ast: Expr,
  macros: ReturnType<typeof macroScope>,
): { code: string; message: string; start: number }[] {
  const findings: CheckFinding[] = [];
  const refs = new Set<string>();
  checkExpr(
    ast,
    { schema: ctx.schema, inputs: new Set(), ...macros, locals: new Set(), roots: INVARIANT_ROOTS },
    findings,
    refs,
  );
  const dice = firstRoll(ast);
  const problems: { code: string; message: string; start: number }[] = [...findings];
  if (dice !== undefined) {
    problems.push({
      code: 'YARE_BAD_SCHEMA',
      message: `invariants.${name} rolls dice; an invariant must give the same answer every time it is checked.`,
      start: dice,
    });
  }
  for (const ref of refs) {
    for (const input of macroInputs(ctx, ref)) {
      problems.push({
        code: 'YARE_UNKNOWN_INPUT',
        message: `invariants.${name}: macros.${ref} reads inputs.${input}; an invariant has no inputs (it runs after each event, outside it).`,
        start: 0,
      });
    }
  }
  return problems;
}

/** The offset of the first dice roll in an expression, if it rolls. */
function firstRoll(e: Expr): number | undefined {
  let at: number | undefined;
  walkExpr(e, (node) => {
    if (at !== undefined) return false;
    if (node.kind === 'dice' || (node.kind === 'call' && node.callee === 'roll')) {
      at = node.span.start;
      return false;
    }
    return true;
  });
  return at;
}
