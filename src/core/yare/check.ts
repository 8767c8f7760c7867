// Load-time checks of expressions: every `state.` path against the schema, `inputs.` against the event's
// declared inputs, `macros.` against the macros, function names and arity. A rule that would fail on a
// typo at turn time fails here instead, with a "did you mean".

import { YareError } from './errors.ts';
import type { Expr } from './expr/ast.ts';
import { BUILTINS, checkCall } from './expr/builtins.ts';
import { didYouMean } from './diagnostics-sink.ts';
import type { DomainSchema } from './program.ts';
import { allPaths, schemaAt } from './schema.ts';

export interface CheckScope {
  readonly schema: DomainSchema;
  /** Declared inputs of the event, or 'any' while checking a macro on its own. */
  readonly inputs: ReadonlySet<string> | 'any';
  readonly macros: ReadonlySet<string>;
  /** `foreach` item/index names in scope. */
  readonly locals: ReadonlySet<string>;
}

export interface CheckFinding {
  readonly code:
    | 'YARE_UNKNOWN_PATH'
    | 'YARE_UNKNOWN_INPUT'
    | 'YARE_UNKNOWN_MACRO'
    | 'YARE_UNKNOWN_FUNCTION'
    | 'YARE_ARITY';
  readonly message: string;
  readonly start: number;
}

/** Dotted chain of a pure attribute access rooted at a name: `state.player.hp` → ['state','player','hp']. */
export function attributeChain(e: Expr): string[] | undefined {
  if (e.kind === 'name') return [e.name];
  if (e.kind === 'attribute') {
    const base = attributeChain(e.object);
    return base ? [...base, e.name] : undefined;
  }
  return undefined;
}

export function checkExpr(e: Expr, scope: CheckScope, out: CheckFinding[], macroRefs?: Set<string>): void {
  switch (e.kind) {
    case 'literal':
    case 'dice':
      return;
    case 'name':
      checkChain([e.name], e.span.start, scope, out, macroRefs);
      return;
    case 'attribute': {
      const chain = attributeChain(e);
      if (chain) checkChain(chain, e.span.start, scope, out, macroRefs);
      else checkExpr(e.object, scope, out, macroRefs);
      return;
    }
    case 'index': {
      // `state.entities[inputs.id].hp`: the part before the subscript is static and checked.
      checkExpr(e.object, scope, out, macroRefs);
      checkExpr(e.index, scope, out, macroRefs);
      return;
    }
    case 'call': {
      try {
        checkCall(e);
      } catch (error) {
        if (!(error instanceof YareError)) throw error;
        const code = error.code === 'YARE_UNKNOWN_FUNCTION' ? 'YARE_UNKNOWN_FUNCTION' : 'YARE_ARITY';
        const hint = code === 'YARE_UNKNOWN_FUNCTION' ? didYouMean(e.callee, BUILTINS.keys()) : '';
        out.push({ code, message: `${error.message}.${hint}`, start: e.span.start });
      }
      for (const kw of e.kwargs) checkExpr(kw.value, scope, out, macroRefs);
      for (const a of e.args) checkExpr(a, scope, out, macroRefs);
      return;
    }
    case 'unary':
      checkExpr(e.operand, scope, out, macroRefs);
      return;
    case 'binary':
    case 'logical':
      checkExpr(e.left, scope, out, macroRefs);
      checkExpr(e.right, scope, out, macroRefs);
      return;
    case 'compare':
      for (const o of e.operands) checkExpr(o, scope, out, macroRefs);
      return;
    case 'conditional':
      checkExpr(e.test, scope, out, macroRefs);
      checkExpr(e.then, scope, out, macroRefs);
      checkExpr(e.otherwise, scope, out, macroRefs);
      return;
    case 'list':
      for (const i of e.items) checkExpr(i, scope, out, macroRefs);
      return;
    case 'dict':
      for (const entry of e.entries) {
        checkExpr(entry.key, scope, out, macroRefs);
        checkExpr(entry.value, scope, out, macroRefs);
      }
      return;
  }
}

function checkChain(
  chain: string[],
  start: number,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs?: Set<string>,
): void {
  const [root, ...rest] = chain as [string, ...string[]];
  if (scope.locals.has(root)) return;
  switch (root) {
    case 'state':
      checkStatePath(rest, start, scope.schema, out);
      return;
    case 'temp':
      return;
    case 'inputs': {
      const name = rest[0];
      if (name === undefined) return;
      if (scope.inputs !== 'any' && !scope.inputs.has(name)) {
        const declared = [...scope.inputs];
        out.push({
          code: 'YARE_UNKNOWN_INPUT',
          message: `inputs.${name} is not a declared input of this event${declared.length ? ` (declared: ${declared.join(', ')})` : ' (it declares none)'}. Declare it under inputs:.${didYouMean(name, declared, (c) => `inputs.${c}`)}`,
          start,
        });
      }
      return;
    }
    case 'macros': {
      const name = rest[0];
      if (name === undefined) {
        out.push({
          code: 'YARE_UNKNOWN_MACRO',
          message: 'Write macros.NAME to use a macro; `macros` alone is not a value.',
          start,
        });
        return;
      }
      if (!scope.macros.has(name)) {
        out.push({
          code: 'YARE_UNKNOWN_MACRO',
          message: `Unknown macro '${name}'.${didYouMean(name, scope.macros, (c) => `macros.${c}`)}`,
          start,
        });
      } else macroRefs?.add(name);
      return;
    }
    default: {
      const known = ['state', 'temp', 'inputs', 'macros', ...scope.locals];
      out.push({
        code: 'YARE_UNKNOWN_PATH',
        message: `Unknown name '${root}'. Paths start with state., temp., inputs. or macros.${didYouMean(root, known)}`,
        start,
      });
    }
  }
}

export function checkStatePath(
  path: readonly string[],
  start: number,
  schema: DomainSchema,
  out: CheckFinding[],
): void {
  if (path.length === 0) return;
  if (schemaAt(schema, path)) return;
  const text = path.join('.');
  out.push({
    code: 'YARE_UNKNOWN_PATH',
    message: `state.${text} is not declared in state_schema.${didYouMean(text, allPaths(schema), (c) => `state.${c}`)}`,
    start,
  });
}
