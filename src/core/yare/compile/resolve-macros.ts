// Check pass, macros: each macro's parsed expression checked (paths, inputs, macros, functions, arity) and
// the macros it uses recorded, then macro cycles refused. An event using a macro is checked for the
// inputs the macro reads, directly or through other macros (`macroInputs`).

import { type CheckFinding, checkExpr } from '../check.ts';
import type { Expr } from '../expr/ast.ts';
import { walkExpr } from '../expr/walk.ts';
import { placeOfNode } from '../yaml-nodes.ts';
import { type CheckContext, reportShapeProblem } from './context.ts';

export function resolveMacros(ctx: CheckContext): void {
  const macroNames = new Set(ctx.macros.keys());
  for (const [name, macro] of ctx.macros) {
    if (!macro.expr.ok) {
      reportShapeProblem(ctx, macro.expr.problem);
      continue;
    }
    const { source, offset, ast, place } = macro.expr.expr;
    ctx.macroExprs.set(name, { source, offset, ast, place });
    const refs = new Set<string>();
    const findings: CheckFinding[] = [];
    checkExpr(
      ast,
      { schema: ctx.schema, inputs: 'any', macros: macroNames, locals: new Set() },
      findings,
      refs,
    );
    for (const f of findings) ctx.sink.error(f.code, f.message, place);
    ctx.macroRefs.set(name, refs);
  }
  // A macro that reaches itself would never finish.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(name)), name];
      ctx.sink.error(
        'YARE_MACRO_CYCLE',
        `Macro cycle: ${cycle.map((c) => `macros.${c}`).join(' → ')}.`,
        ctx.macros.get(name)?.place ?? placeOfNode(ctx.src, undefined),
      );
      return;
    }
    state.set(name, 'visiting');
    for (const ref of ctx.macroRefs.get(name) ?? []) visit(ref, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of ctx.macros.keys()) visit(name, []);
}

/** Inputs a macro reads, directly or through other macros. */
export function macroInputs(ctx: CheckContext, name: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(name)) return out;
  seen.add(name);
  const expr = ctx.macroExprs.get(name);
  if (expr) collectInputRefs(expr.ast, out);
  for (const ref of ctx.macroRefs.get(name) ?? []) for (const i of macroInputs(ctx, ref, seen)) out.add(i);
  return out;
}

/** Adds every `inputs.<name>` the expression reads to `out`. */
function collectInputRefs(e: Expr, out: Set<string>): void {
  walkExpr(e, (node) => {
    if (node.kind === 'attribute' && node.object.kind === 'name' && node.object.name === 'inputs') {
      out.add(node.name);
      return false;
    }
    return true;
  });
}
