// Check pass, macros: each macro's parsed expression checked (paths, inputs, macros, functions, arity) and
// the macros it uses recorded, then macro cycles refused. An event using a macro is checked for the
// inputs the macro reads, directly or through other macros (`macroInputs`). A macro with parameters is
// checked with its parameters as names, and must be pure: it reads its parameters, `state.` and macros
// that are pure too (no `inputs.`, no `temp.`, no dice), so the same arguments give the same value.

import type { SourcePlace } from '../../diagnostics.ts';
import { type CheckFinding, type CheckScope, checkExpr } from '../check.ts';
import type { Expr } from '../expr/ast.ts';
import { walkExpr } from '../expr/walk.ts';
import type { PlacedExpression, RecordSchema } from '../program.ts';
import { schemaAt } from '../schema.ts';
import { placeOfNode } from '../yaml-nodes.ts';
import { type CheckContext, macroScope, reportShapeProblem, reportShapeProblems } from './context.ts';
import type { RawExpression, RawMacro } from './raw-ast.ts';

/** What the body of a macro with parameters may start a path with. */
const PURE_ROOTS = ['state', 'macros'] as const;
/** Builtins that draw from the dice: a pure macro calls none. */
const DICE_FUNCTIONS: ReadonlySet<string> = new Set(['roll', 'choice', 'shuffle']);

export function resolveMacros(ctx: CheckContext): void {
  const scope = macroScope(ctx);
  for (const [name, macro] of ctx.macros) {
    if (macro.kind === 'plain') resolvePlain(ctx, name, macro, scope);
    else resolveFunction(ctx, name, macro, scope);
  }
  refuseCycles(ctx);
  for (const [name, macro] of ctx.macros)
    if (macro.kind === 'function') refuseImpureUses(ctx, name, macro.place);
}

type Scope = ReturnType<typeof macroScope>;

function resolvePlain(
  ctx: CheckContext,
  name: string,
  macro: Extract<RawMacro, { kind: 'plain' }>,
  scope: Scope,
): void {
  if (!macro.expr.ok) {
    reportShapeProblem(ctx, macro.expr.problem);
    return;
  }
  const { source, offset, ast, place } = macro.expr.expr;
  ctx.macroExprs.set(name, { source, offset, ast, place });
  const refs = new Set<string>();
  const findings: CheckFinding[] = [];
  checkExpr(ast, { schema: ctx.schema, inputs: 'any', ...scope, locals: new Set() }, findings, refs);
  for (const f of findings) ctx.sink.error(f.code, f.message, place);
  ctx.macroRefs.set(name, refs);
}

function resolveFunction(
  ctx: CheckContext,
  name: string,
  macro: Extract<RawMacro, { kind: 'function' }>,
  scope: Scope,
): void {
  reportShapeProblems(ctx, macro.problems);
  const refs = new Set<string>();
  const checkScope: CheckScope = {
    schema: ctx.schema,
    inputs: new Set(),
    ...scope,
    locals: new Set(macro.params),
    recordLocals: paramRecords(ctx, name, macro),
    roots: PURE_ROOTS,
  };
  const checked = (raw: RawExpression | undefined): PlacedExpression | undefined => {
    if (raw === undefined) return undefined;
    if (!raw.ok) {
      reportShapeProblem(ctx, raw.problem);
      return undefined;
    }
    const { source, offset, ast, place } = raw.expr;
    const findings: CheckFinding[] = [];
    checkExpr(ast, checkScope, findings, refs);
    const dice = firstDiceCall(ast);
    for (const f of findings)
      ctx.sink.error(f.code, `macros.${name} (a macro with parameters): ${f.message}`, place);
    if (dice !== undefined)
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `macros.${name} has parameters, so it is pure: it cannot call ${dice}() (roll dice in an event, or in a macro without parameters).`,
        place,
      );
    return { source, offset, ast, place };
  };
  const by = checked(macro.by);
  const cases = new Map<string, PlacedExpression>();
  for (const entry of macro.cases) {
    const expr = checked(entry.expr);
    if (expr !== undefined) for (const kind of entry.kinds) cases.set(kind, expr);
  }
  const value = checked(macro.value);
  ctx.macroRefs.set(name, refs);
  ctx.macroFunctions.set(name, { name, params: macro.params, place: macro.place, value, by, cases });
}

/** The parameters declared as records (`o: state.objs`), each path checked to name a collection. */
function paramRecords(
  ctx: CheckContext,
  name: string,
  macro: Extract<RawMacro, { kind: 'function' }>,
): Map<string, RecordSchema> {
  const out = new Map<string, RecordSchema>();
  for (const [param, { path, place }] of macro.paramRecords) {
    const segments = path.split('.');
    const node = segments[0] === 'state' ? schemaAt(ctx.schema, segments.slice(1)) : undefined;
    const record =
      node?.kind === 'field' && node.path.length === segments.length - 1 ? node.record : undefined;
    if (record !== undefined) out.set(param, record);
    else
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `macros.${name}: parameter ${param}: ${JSON.stringify(path)} is no collection of state_schema (write ${param}: state.things for a record of state.things).`,
        place,
      );
  }
  return out;
}

/** The name of the first dice function an expression calls (`roll`, `choice`, `shuffle`), if any. */
function firstDiceCall(e: Expr): string | undefined {
  let found: string | undefined;
  walkExpr(e, (node) => {
    if (found === undefined && node.kind === 'call' && DICE_FUNCTIONS.has(node.callee)) found = node.callee;
    return found === undefined;
  });
  return found;
}

/** A macro that reaches itself would never finish. */
function refuseCycles(ctx: CheckContext): void {
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

/** A macro with parameters may use only pure macros: none that reads inputs. or temp. or rolls dice. */
function refuseImpureUses(ctx: CheckContext, name: string, place: SourcePlace): void {
  for (const ref of ctx.macroRefs.get(name) ?? []) {
    const why = impurity(ctx, ref, new Set());
    if (why !== undefined)
      ctx.sink.error(
        'YARE_BAD_SCHEMA',
        `macros.${name} has parameters, so it is pure, but it uses macros.${ref}, which ${why}.`,
        place,
      );
  }
}

/** Why a macro is not pure (it reads inputs. or temp., or rolls dice, itself or through another), if it is not. */
function impurity(ctx: CheckContext, name: string, seen: Set<string>): string | undefined {
  if (seen.has(name)) return undefined;
  seen.add(name);
  const expr = ctx.macroExprs.get(name);
  if (expr !== undefined) {
    let why: string | undefined;
    walkExpr(expr.ast, (node) => {
      if (why !== undefined) return false;
      if (node.kind === 'name' && (node.name === 'inputs' || node.name === 'temp'))
        why = `reads ${node.name}.`;
      if (node.kind === 'call' && DICE_FUNCTIONS.has(node.callee)) why = `rolls dice (${node.callee})`;
      return why === undefined;
    });
    if (why !== undefined) return why;
  }
  for (const ref of ctx.macroRefs.get(name) ?? []) {
    const inner = impurity(ctx, ref, seen);
    if (inner !== undefined) return `uses macros.${ref}, which ${inner}`;
  }
  return undefined;
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
