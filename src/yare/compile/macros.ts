// Pass 2, resolve macros: each macro parsed once (the `@` optional), its paths, inputs, macros and
// functions checked, and macro cycles refused. An event using a macro is checked for the inputs the macro
// reads, directly or through other macros (`macroInputs`).

import { checkExpr } from '../check.ts';
import type { Expr } from '../expr/ast.ts';
import { walkExpr } from '../expr/walk.ts';
import type { CompileContext } from './context.ts';
import { parseScalarExpression, report } from './expressions.ts';
import { placeOfNode, scalarOf } from '../yaml-nodes.ts';

export function resolveMacros(ctx: CompileContext): void {
  const macroNames = new Set(ctx.macroNodes.keys());
  for (const [name, entry] of ctx.macroNodes) {
    const raw = scalarOf(entry.node);
    const place = placeOfNode(ctx.src, entry.node);
    if (typeof raw !== 'string') {
      ctx.sink.error(
        'YARE_NOT_AN_EXPRESSION',
        `Macro '${name}' must be an expression string, e.g. "@ roll(1d20) + 2".`,
        place,
      );
      continue;
    }
    // A macro is always an expression: the leading `@` is optional (the seed's template omits it).
    const expr = parseScalarExpression(ctx, raw, entry.node, true);
    if (!expr) continue;
    entry.expr = { source: expr.source, offset: expr.offset, ast: expr.ast, place: expr.place };
    const refs = new Set<string>();
    report(ctx, expr, (findings) =>
      checkExpr(
        expr.ast,
        { schema: ctx.schema, inputs: 'any', macros: macroNames, locals: new Set() },
        findings,
        refs,
      ),
    );
    ctx.macroRefs.set(name, refs);
  }
  // A macro that reaches itself would never finish.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(name)), name];
      const entry = ctx.macroNodes.get(name);
      ctx.sink.error(
        'YARE_MACRO_CYCLE',
        `Macro cycle: ${cycle.map((c) => `macros.${c}`).join(' → ')}.`,
        placeOfNode(ctx.src, entry?.node),
      );
      return;
    }
    state.set(name, 'visiting');
    for (const ref of ctx.macroRefs.get(name) ?? []) visit(ref, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of ctx.macroNodes.keys()) visit(name, []);
}

/** Inputs a macro reads, directly or through other macros. */
export function macroInputs(ctx: CompileContext, name: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(name)) return out;
  seen.add(name);
  const expr = ctx.macroNodes.get(name)?.expr;
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
