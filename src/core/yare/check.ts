// Load-time checks of expressions: every `state.` path against the schema, `inputs.` against the event's
// declared inputs, `macros.` against the macros, function names and arity. A rule that would fail on a
// typo at turn time fails here instead, with a "did you mean".

import { YareError } from './errors.ts';
import type { Expr } from './expr/ast.ts';
import { BUILTINS, CONTAINMENT_FUNCTIONS, checkCall } from './expr/builtins.ts';
import { forEachChild } from './expr/walk.ts';
import { containmentMisuse, type HostFunction, hostCallError } from './expr/closure.ts';
import { didYouMean } from './diagnostics-sink.ts';
import type { DomainSchema, RecordSchema } from './program.ts';
import { unknownProperty } from './schema-records.ts';
import { schemaAt, undeclaredPathMessage } from './schema.ts';

export interface CheckScope {
  readonly schema: DomainSchema;
  /** Declared inputs of the event, or 'any' while checking a macro on its own. */
  readonly inputs: ReadonlySet<string> | 'any';
  readonly macros: ReadonlySet<string>;
  /** Macros with parameters, by name: what `macros.NAME(...)` may call, and how many arguments each takes. */
  readonly macroParams?: ReadonlyMap<string, readonly string[]>;
  /** `foreach` item/index names and comprehension variables in scope. */
  readonly locals: ReadonlySet<string>;
  /** The locals known to hold a record of a collection (`for o in values(state.objs)`): their properties are checked. */
  readonly recordLocals?: ReadonlyMap<string, RecordSchema>;
  /** Functions the embedding adds beside the builtins (lore conditions: `entity`, `thread`, `fact`). */
  readonly functions?: ReadonlyMap<string, Pick<HostFunction, 'minArgs' | 'maxArgs' | 'usage'>>;
  /**
   * The root names a path may start with (default `state`, `temp`, `inputs`, `macros`); a lore condition
   * reads `state` alone.
   */
  readonly roots?: readonly string[];
}

const DEFAULT_ROOTS = ['state', 'temp', 'inputs', 'macros'] as const;

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
      else {
        checkExpr(e.object, scope, out, macroRefs);
        checkProperty(recordOfExpr(e.object, scope), e.name, e.span.end - e.name.length, out);
      }
      return;
    }
    case 'index': {
      // `state.entities[inputs.id].hp`: the part before the subscript is static and checked.
      checkExpr(e.object, scope, out, macroRefs);
      checkExpr(e.index, scope, out, macroRefs);
      if (e.index.kind === 'literal' && typeof e.index.value === 'string')
        checkProperty(recordOfExpr(e.object, scope), e.index.value, e.index.span.start, out);
      return;
    }
    case 'call':
      checkCallExpr(e, scope, out, macroRefs);
      return;
    case 'comprehension':
      checkComprehension(e, scope, out, macroRefs);
      return;
    case 'macroCall':
      checkMacroCall(e, scope, out, macroRefs);
      forEachChild(e, (child) => checkExpr(child, scope, out, macroRefs));
      return;
    case 'unary':
    case 'binary':
    case 'logical':
    case 'compare':
    case 'conditional':
    case 'list':
    case 'slice':
    case 'dict':
      // Nothing to check of the node itself: its children, left to right (expr/walk.ts).
      forEachChild(e, (child) => checkExpr(child, scope, out, macroRefs));
      return;
  }
}

/** A builtin or host function call: the function exists, its arguments fit, and they are checked. */
function checkCallExpr(
  e: Extract<Expr, { kind: 'call' }>,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs?: Set<string>,
): void {
  const host = BUILTINS.has(e.callee) ? undefined : scope.functions?.get(e.callee);
  if (host !== undefined) {
    const error = hostCallError(e.callee, host, e);
    if (error !== undefined) out.push({ code: 'YARE_ARITY', message: error.message, start: e.span.start });
  } else {
    try {
      checkCall(e);
    } catch (error) {
      if (!(error instanceof YareError)) throw error;
      const code = error.code === 'YARE_UNKNOWN_FUNCTION' ? 'YARE_UNKNOWN_FUNCTION' : 'YARE_ARITY';
      const names = [...BUILTINS.keys(), ...(scope.functions?.keys() ?? [])];
      const message =
        code === 'YARE_UNKNOWN_FUNCTION' && scope.functions !== undefined
          ? `unknown function '${e.callee}'; the functions are ${names.join(', ')}`
          : error.message;
      const hint = code === 'YARE_UNKNOWN_FUNCTION' ? didYouMean(e.callee, names) : '';
      out.push({ code, message: `${message}.${hint}`, start: e.span.start });
    }
  }
  if (CONTAINMENT_FUNCTIONS.has(e.callee) && e.args[0] !== undefined) {
    const chain = attributeChain(e.args[0]);
    const node = chain?.[0] === 'state' ? schemaAt(scope.schema, chain.slice(1)) : undefined;
    const exact = node?.kind === 'field' && node.path.length === chain!.length - 1;
    if (!exact || node.record?.parent === undefined)
      out.push({ code: 'YARE_ARITY', message: `${containmentMisuse(e.callee)}.`, start: e.span.start });
  }
  for (const kw of e.kwargs) checkExpr(kw.value, scope, out, macroRefs);
  for (const a of e.args) checkExpr(a, scope, out, macroRefs);
}

/** Each `for` binds its variable for the clauses after it and for the element (and key). */
function checkComprehension(
  e: Extract<Expr, { kind: 'comprehension' }>,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs?: Set<string>,
): void {
  // Each `for` binds its variable for the clauses after it and for the element (and key).
  let inner = scope;
  for (const clause of e.clauses) {
    if (clause.kind === 'if') checkExpr(clause.test, inner, out, macroRefs);
    else {
      checkExpr(clause.iterable, inner, out, macroRefs);
      inner = withLocal(inner, clause.variable, iteratedRecord(clause.iterable, inner));
    }
  }
  if (e.key !== undefined) checkExpr(e.key, inner, out, macroRefs);
  checkExpr(e.element, inner, out, macroRefs);
}

/** The scope with one more local, which holds a record of `record` when that is known. */
export function withLocal<S extends Pick<CheckScope, 'locals' | 'recordLocals'>>(
  scope: S,
  name: string,
  record: RecordSchema | undefined,
): S {
  const recordLocals = new Map(scope.recordLocals ?? []);
  if (record === undefined) recordLocals.delete(name);
  else recordLocals.set(name, record);
  return { ...scope, locals: new Set([...scope.locals, name]), recordLocals };
}

/**
 * The records an expression is known to hold at load: `state.objs[k]` (or `state.objs.<id>`) of a
 * collection, or a local that holds one. Undefined when not known (then nothing is checked).
 */
export function recordOfExpr(
  e: Expr,
  scope: Pick<CheckScope, 'schema' | 'recordLocals'>,
): RecordSchema | undefined {
  if (e.kind === 'name') return scope.recordLocals?.get(e.name);
  const object = e.kind === 'index' ? e.object : e.kind === 'attribute' ? e.object : undefined;
  const chain = object === undefined ? undefined : attributeChain(object);
  if (chain === undefined || chain[0] !== 'state') return undefined;
  const node = schemaAt(scope.schema, chain.slice(1));
  return node?.kind === 'field' && node.path.length === chain.length - 1 ? node.record : undefined;
}

/** The records a comprehension or a foreach goes over, when known: `values(C)`, sorted, shuffled or sliced. */
export function iteratedRecord(
  iterable: Expr,
  scope: Pick<CheckScope, 'schema' | 'recordLocals'>,
): RecordSchema | undefined {
  if (iterable.kind === 'slice') return iteratedRecord(iterable.object, scope);
  if (iterable.kind !== 'call') return undefined;
  const [first] = iterable.args;
  if (first === undefined) return undefined;
  if (iterable.callee === 'sorted' || iterable.callee === 'shuffle') return iteratedRecord(first, scope);
  if (iterable.callee !== 'values') return undefined;
  const chain = attributeChain(first);
  if (chain === undefined || chain[0] !== 'state') return undefined;
  const node = schemaAt(scope.schema, chain.slice(1));
  return node?.kind === 'field' && node.path.length === chain.length - 1 ? node.record : undefined;
}

function checkProperty(
  record: RecordSchema | undefined,
  name: string,
  start: number,
  out: CheckFinding[],
): void {
  if (record === undefined) return;
  const problem = unknownProperty(record, name);
  if (problem !== undefined) out.push({ code: 'YARE_UNKNOWN_PATH', message: capitalize(problem), start });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function checkChain(
  chain: string[],
  start: number,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs?: Set<string>,
): void {
  const [root, ...rest] = chain as [string, ...string[]];
  if (scope.locals.has(root)) {
    const record = scope.recordLocals?.get(root);
    if (record !== undefined && rest[0] !== undefined) checkProperty(record, rest[0], start, out);
    return;
  }
  const roots: readonly string[] = scope.roots ?? DEFAULT_ROOTS;
  if (!roots.includes(root)) {
    const known = [...roots, ...scope.locals];
    const starts = roots.map((r) => `${r}.`);
    out.push({
      code: 'YARE_UNKNOWN_PATH',
      message: `Unknown name '${root}'. Paths start with ${starts.length === 1 ? starts[0] : `${starts.slice(0, -1).join(', ')} or ${starts.at(-1)}`}${didYouMean(root, known)}`,
      start,
    });
    return;
  }
  switch (root) {
    case 'state':
      checkStatePath(rest, start, scope.schema, out);
      return;
    case 'temp':
      return;
    case 'inputs':
      if (rest[0] !== undefined) checkInputName(rest[0], start, scope, out);
      return;
    case 'macros':
      checkMacroName(rest[0], start, scope, out, macroRefs);
      return;
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

/** `inputs.NAME`: a declared input of the event. */
function checkInputName(name: string, start: number, scope: CheckScope, out: CheckFinding[]): void {
  if (scope.inputs === 'any' || scope.inputs.has(name)) return;
  const declared = [...scope.inputs];
  out.push({
    code: 'YARE_UNKNOWN_INPUT',
    message: `inputs.${name} is not a declared input of this event${declared.length ? ` (declared: ${declared.join(', ')})` : ' (it declares none)'}. Declare it under inputs:.${didYouMean(name, declared, (c) => `inputs.${c}`)}`,
    start,
  });
}

/** `macros.NAME` read as a value: a macro without parameters (one with them must be called). */
function checkMacroName(
  name: string | undefined,
  start: number,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs: Set<string> | undefined,
): void {
  if (name === undefined) {
    out.push({
      code: 'YARE_UNKNOWN_MACRO',
      message: 'Write macros.NAME to use a macro; `macros` alone is not a value.',
      start,
    });
    return;
  }
  const params = scope.macroParams?.get(name);
  if (params !== undefined) {
    out.push({
      code: 'YARE_ARITY',
      message: `macros.${name} takes ${arguments_(params.length)}: call it as macros.${name}(${params.join(', ')}).`,
      start,
    });
  } else if (!scope.macros.has(name)) {
    out.push({
      code: 'YARE_UNKNOWN_MACRO',
      message: `Unknown macro '${name}'.${didYouMean(name, allMacroNames(scope), (c) => `macros.${c}`)}`,
      start,
    });
  } else macroRefs?.add(name);
}

function arguments_(n: number): string {
  return `${n} argument${n === 1 ? '' : 's'}`;
}

function allMacroNames(scope: CheckScope): string[] {
  return [...scope.macros, ...(scope.macroParams?.keys() ?? [])];
}

/** `macros.NAME(args)`: NAME must be a macro with parameters, called with one argument per parameter. */
function checkMacroCall(
  e: Extract<Expr, { kind: 'macroCall' }>,
  scope: CheckScope,
  out: CheckFinding[],
  macroRefs?: Set<string>,
): void {
  const params = scope.macroParams?.get(e.name);
  const start = e.span.start;
  if (params === undefined) {
    if (scope.macros.has(e.name)) {
      out.push({
        code: 'YARE_ARITY',
        message: `macros.${e.name} takes no arguments: write macros.${e.name}, without parentheses.`,
        start,
      });
      return;
    }
    out.push({
      code: 'YARE_UNKNOWN_MACRO',
      message: `Unknown macro '${e.name}'.${didYouMean(e.name, allMacroNames(scope), (c) => `macros.${c}`)}`,
      start,
    });
    return;
  }
  macroRefs?.add(e.name);
  if (e.args.length !== params.length) {
    out.push({
      code: 'YARE_ARITY',
      message: `macros.${e.name}(${params.join(', ')}) takes ${arguments_(params.length)}, got ${e.args.length}.`,
      start,
    });
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
  out.push({ code: 'YARE_UNKNOWN_PATH', message: undeclaredPathMessage(schema, path), start });
}
