// Lowers a parsed expression, once, into a tree of JS closures: this is the semantics of YARE expressions
// (events, conditions, notes, macros and `eval` all run them; `evaluate` is this, cached). A closure per
// node knows its kind when it is made, so a run does no `switch` over node kinds, and the common shapes
// (`a.b.c`, `x + 5`, `a >= b`, `roll(1d20)`) get closures of their own with the integer fast path inline;
// every other case goes to the shared operations (runtime.ts, arithmetic.ts, builtins.ts, python.ts).
// Evaluation order is left to right, `and`/`or` and the conditional are lazy, and every error carries
// the span of its node. No code is generated from text: every closure below is written out in this file.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import { compareOrder, contains, truthy, valueEquals } from '../python.ts';
import type { RecordSchema } from '../program.ts';
import { DICT_PROTOTYPE, type Dict, newDict, PyFloat, type Value } from '../values.ts';
import { binaryOp, unaryOp } from './arithmetic.ts';
import type { BinaryOp, CompareOp, Expr, Expression, Span } from './ast.ts';
import {
  BUILTINS,
  type BuiltinName,
  TIMEDELTA_POSITIONAL,
  checkCall,
  pyAbs,
  pyCeil,
  pyFloor,
  pyIntCall,
  pyLen,
  pyMinMax,
  pyRound,
  pySum,
  pyTimedelta,
  type BuiltinSignature,
} from './builtins.ts';
import {
  compareLink,
  diceOf,
  dictEntry,
  dictKeyOf,
  type EvalContext,
  getAttribute,
  getItem,
  iterationItems,
} from './runtime.ts';
import { exprText } from './parser.ts';
import { dictPart, pyChoice, pyRange, pyShuffle, pySorted } from './list-builtins.ts';
import {
  pyCapitalize,
  pyFormat,
  pyJoin,
  pyLower,
  pyReplace,
  pySlice,
  pySplit,
  pyStartsEnds,
  pyStr,
  pyStrip,
  pyUpper,
} from './text-builtins.ts';
import { propertyAt, pyAncestors, pyDescendants, pyWithin, recordAt } from './record-builtins.ts';
import { timeDelta } from './timestamps.ts';

/** A compiled expression: its value in a context. */
export type Closure = (ctx: EvalContext) => Value;

/** A compiled macro with parameters: its value for these arguments, called from a context. */
export type MacroFunctionClosure = (ctx: EvalContext, args: readonly Value[], span: Span) => Value;

export interface ClosureOptions {
  /**
   * `macros.NAME` resolved when the expression is compiled: the closure returned must behave as
   * `ctx.macro(NAME, span)` would. `undefined` (or no resolver) leaves the call to `ctx.macro` at run time.
   */
  readonly macro?: (name: string) => Closure | undefined;
  /**
   * `macros.NAME(args)` resolved when the expression is compiled: a macro with parameters, called with the
   * arguments' values. `undefined` (or no resolver) makes the call an unknown macro when it runs.
   */
  readonly macroFunction?: (name: string) => MacroFunctionClosure | undefined;
  /**
   * The records of `state.<keys>` when it is a `collection` field: its reads check that a record exists
   * (and a computed property name is one of its properties), and `within()` and friends find its parent.
   */
  readonly collectionAt?: (keys: readonly string[]) => RecordSchema | undefined;
  /**
   * Whether `state.<keys>` is a field declared `type: float`. State is JSON, where `2.0` is stored as
   * `2`; a read of a float field gives the float back (`{state.f}` prints `2.0`, as in the original).
   */
  readonly floatField?: (keys: readonly string[]) => boolean;
  /**
   * Functions the embedding adds beside the builtins, by callee name (lore conditions read the world
   * ledger through `entity()`, `thread()`, `fact()`; src/core/cartridge/lore-conditions.ts). They shadow no
   * builtin: a builtin's name is never looked up here.
   */
  readonly hostFunctions?: ReadonlyMap<string, HostFunction>;
}

/** A function an embedding adds to expressions: its arity, and its value from the evaluated arguments. */
export interface HostFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Shown in arity errors. */
  readonly usage: string;
  call(ctx: EvalContext, args: readonly Value[], span: Span): Value;
}

/** The arity error of a host function call, or undefined when the call is well formed. */
export function hostCallError(
  name: string,
  fn: Pick<HostFunction, 'minArgs' | 'maxArgs' | 'usage'>,
  node: Extract<Expr, { kind: 'call' }>,
): YareError | undefined {
  const n = node.args.length;
  if (node.kwargs.length > 0)
    return new YareError('YARE_ARITY', `${name}() takes no keyword arguments; use ${fn.usage}`, node.span);
  if (n >= fn.minArgs && n <= fn.maxArgs) return undefined;
  const expected =
    fn.minArgs === fn.maxArgs
      ? `${fn.minArgs} argument${fn.minArgs === 1 ? '' : 's'}`
      : `${fn.minArgs} to ${fn.maxArgs} arguments`;
  return new YareError('YARE_ARITY', `${name}() takes ${expected}, got ${n}; use ${fn.usage}`, node.span);
}

/** Compiles an expression. Never throws: an expression that cannot run fails each time it runs. */
export function compileClosure(expr: Expression, options: ClosureOptions = {}): Closure {
  return compileNode(expr.ast, expr, options);
}

function compileNode(node: Expr, expr: Expression, options: ClosureOptions): Closure {
  switch (node.kind) {
    case 'literal': {
      const v = node.value;
      if (v !== null && typeof v === 'object') {
        // A fresh float each time: values are never shared between evaluations.
        const f = v.float;
        return () => new PyFloat(f);
      }
      return () => v;
    }
    case 'dice': {
      const text = `${node.count}d${node.sides}`;
      return () => text;
    }
    case 'name': {
      const { name, span } = node;
      if (name === 'macros') {
        return () => {
          throw new YareError(
            'YARE_SYNTAX',
            "'macros' must be followed by a macro name, as in macros.attack_roll",
            span,
          );
        };
      }
      return (ctx) => {
        const v = ctx.lookup(name);
        if (v === undefined) throw unknownName(name, span);
        return v;
      };
    }
    case 'attribute':
      return compileAttribute(node, expr, options);
    case 'index':
      return compileIndex(node, expr, options);
    case 'call':
      return compileCall(node, expr, options);
    case 'unary': {
      const operand = compileNode(node.operand, expr, options);
      if (node.op === 'not') return (ctx) => !truthy(operand(ctx));
      const { op, span } = node;
      return (ctx) => unaryOp(op, operand(ctx), span);
    }
    case 'binary':
      return compileBinary(node, expr, options);
    case 'compare':
      return compileCompare(node, expr, options);
    case 'logical':
      return compileLogical(node, expr, options);
    case 'conditional': {
      const test = compileNode(node.test, expr, options);
      const then = compileNode(node.then, expr, options);
      const otherwise = compileNode(node.otherwise, expr, options);
      return (ctx) => (truthy(test(ctx)) ? then(ctx) : otherwise(ctx));
    }
    case 'list':
      return compileList(node, expr, options);
    case 'comprehension':
      return compileComprehension(node, expr, options);
    case 'slice':
      return compileSlice(node, expr, options);
    case 'macroCall':
      return compileMacroCall(node, expr, options);
    case 'dict':
      return compileDict(node, expr, options);
    default: {
      const never: never = node;
      const kind = (never as Expr).kind;
      return () => {
        throw new YareError('YARE_SYNTAX', `unknown expression node '${kind}'`);
      };
    }
  }
}

function compileIndex(
  node: Extract<Expr, { kind: 'index' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const object = compileNode(node.object, expr, options);
  const index = compileNode(node.index, expr, options);
  const { span } = node;
  // `state.objs[k]`: a record that must exist; `state.objs[k][p]`: a property that must be declared.
  const collection = collectionOf(node.object, options);
  if (collection !== undefined) return (ctx) => recordAt(object(ctx), index(ctx), collection, span);
  const record = node.object.kind === 'index' ? collectionOf(node.object.object, options) : undefined;
  if (record !== undefined) return (ctx) => propertyAt(object(ctx), index(ctx), record, span);
  return (ctx) => getItem(object(ctx), index(ctx));
}

function compileLogical(
  node: Extract<Expr, { kind: 'logical' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const left = compileNode(node.left, expr, options);
  const right = compileNode(node.right, expr, options);
  if (node.op === 'and')
    return (ctx) => {
      const v = left(ctx);
      return truthy(v) ? right(ctx) : v;
    };
  return (ctx) => {
    const v = left(ctx);
    return truthy(v) ? v : right(ctx);
  };
}

function compileList(
  node: Extract<Expr, { kind: 'list' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const items = node.items.map((item) => compileNode(item, expr, options));
  const n = items.length;
  return (ctx) => {
    const out = new Array<Value>(n);
    for (let i = 0; i < n; i++) out[i] = items[i]!(ctx);
    return out;
  };
}

function compileSlice(
  node: Extract<Expr, { kind: 'slice' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const object = compileNode(node.object, expr, options);
  const part = (e: Expr | undefined) => (e === undefined ? undefined : compileNode(e, expr, options));
  const [start, stop, step] = [part(node.start), part(node.stop), part(node.step)];
  const { span } = node;
  return (ctx) => {
    const v = object(ctx);
    return pySlice(v, start?.(ctx), stop?.(ctx), step?.(ctx), span);
  };
}

function compileDict(
  node: Extract<Expr, { kind: 'dict' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const entries = node.entries.map((entry) => ({
    key: compileNode(entry.key, expr, options),
    value: compileNode(entry.value, expr, options),
    span: entry.key.span,
  }));
  return (ctx): Dict => {
    const out = newDict();
    let size = 0;
    for (const entry of entries) {
      const key = dictKeyOf(entry.key(ctx), entry.span);
      size = dictEntry(out, key, entry.value(ctx), size, entry.span);
    }
    return out;
  };
}

function unknownName(name: string, span: Span): YareError {
  return new YareError('YARE_UNKNOWN_PATH', `unknown name '${name}'`, span);
}

// ------------------------------------------------------------------------------ attributes

/**
 * `a.b`, and chains `root.b.c` read from a root name in one closure (the shape of nearly every path in
 * a cartridge: `state.npc.hp`, `inputs.attacker`, `temp.roll`).
 */
function compileAttribute(
  node: Extract<Expr, { kind: 'attribute' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const object = node.object;
  if (object.kind === 'name' && object.name === 'macros') {
    const resolved = options.macro?.(node.name);
    if (resolved !== undefined) return resolved;
    const { name, span } = node;
    return (ctx) => ctx.macro(name, span);
  }
  const keys: string[] = [node.name];
  let base: Expr = object;
  while (base.kind === 'attribute' && !(base.object.kind === 'name' && base.object.name === 'macros')) {
    keys.unshift(base.name);
    base = base.object;
  }
  if (base.kind !== 'name' || base.name === 'macros') {
    const inner = compileNode(object, expr, options);
    const name = node.name;
    // A float property of `state.objs[k]` reads as a float, as a float field does.
    const record = object.kind === 'index' ? collectionOf(object.object, options) : undefined;
    if (record?.properties.get(name)?.type === 'float') return (ctx) => asFloat(attr(inner(ctx), name));
    return (ctx) => attr(inner(ctx), name);
  }
  const { name: root, span } = base;
  const through = root === 'state' ? throughCollection(keys, options) : undefined;
  if (through !== undefined) return compileThroughRecord(keys, through, span, options);
  const read = rootPath(root, keys, span);
  if (root === 'state' && options.floatField?.(keys)) {
    return (ctx) => {
      const v = read(ctx);
      return typeof v === 'number' ? new PyFloat(v) : v;
    };
  }
  return read;
}

/** `state.<path>` when it names a collection field, as an expression. */
function collectionOf(e: Expr, options: ClosureOptions): RecordSchema | undefined {
  if (options.collectionAt === undefined) return undefined;
  const keys: string[] = [];
  let at = e;
  for (; at.kind === 'attribute'; at = at.object) keys.unshift(at.name);
  return at.kind === 'name' && at.name === 'state' && keys.length > 0
    ? options.collectionAt(keys)
    : undefined;
}

/** In `state.k0.k1…`, the first collection the chain goes through to a record id: its keys' count and records. */
function throughCollection(
  keys: readonly string[],
  options: ClosureOptions,
): { at: number; record: RecordSchema } | undefined {
  if (options.collectionAt === undefined) return undefined;
  for (let i = 1; i < keys.length; i++) {
    const record = options.collectionAt(keys.slice(0, i));
    if (record !== undefined) return { at: i, record };
  }
  return undefined;
}

/** `state.objs.cup.loc`: the collection read, the record `cup` required, then the rest read. */
function compileThroughRecord(
  keys: readonly string[],
  through: { at: number; record: RecordSchema },
  span: Span,
  options: ClosureOptions,
): Closure {
  const collection = rootPath('state', keys.slice(0, through.at), span);
  const id = keys[through.at]!;
  const rest = keys.slice(through.at + 1);
  const float = options.floatField?.(keys) === true;
  return (ctx) => {
    let v: Value = recordAt(collection(ctx), id, through.record, span);
    for (const key of rest) v = attr(v, key);
    return float ? asFloat(v) : v;
  };
}

function asFloat(v: Value): Value {
  return typeof v === 'number' ? new PyFloat(v) : v;
}

/** `root.k0.k1…` read in one closure, specialised for the common lengths. */
function rootPath(root: string, keys: readonly string[], span: Span): Closure {
  if (keys.length === 1) {
    const k0 = keys[0]!;
    return (ctx) => {
      const v = ctx.lookup(root);
      if (v === undefined) throw unknownName(root, span);
      return attr(v, k0);
    };
  }
  if (keys.length === 2) {
    const k0 = keys[0]!;
    const k1 = keys[1]!;
    return (ctx) => {
      const v = ctx.lookup(root);
      if (v === undefined) throw unknownName(root, span);
      return attr(attr(v, k0), k1);
    };
  }
  return (ctx) => {
    let v = ctx.lookup(root);
    if (v === undefined) throw unknownName(root, span);
    for (let i = 0; i < keys.length; i++) v = attr(v, keys[i]!);
    return v;
  };
}

/**
 * `getAttribute` with the common case first: one of our dicts, known by its prototype (so not a list, a
 * float or a duration). Anything else goes to `getAttribute` itself.
 */
function attr(v: Value, key: string): Value {
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === DICT_PROTOTYPE) {
    // DICT_PROTOTYPE is empty and has no prototype: a plain read finds an own key or nothing at all.
    const found = (v as Dict)[key];
    return found === undefined ? null : found;
  }
  return getAttribute(v, key);
}

// ------------------------------------------------------------------------------ arithmetic

/** A whole-number literal (the `5` of `roll(1d20) + 5`), or undefined. */
function intLiteral(node: Expr): number | undefined {
  return node.kind === 'literal' && typeof node.value === 'number' && Number.isSafeInteger(node.value)
    ? node.value
    : undefined;
}

/**
 * `+`, `-` and `*` of two ints are done inline; any other case (floats, strings, overflow) goes to
 * `binaryOp`, which computes it — or throws.
 */
function compileBinary(
  node: Extract<Expr, { kind: 'binary' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const { op, span } = node;
  const left = compileNode(node.left, expr, options);
  const k = intLiteral(node.right);
  if (k !== undefined && (op === '+' || op === '-')) {
    const step = op === '+' ? k : -k;
    return (ctx) => {
      const a = left(ctx);
      if (typeof a === 'number' && Number.isSafeInteger(a)) {
        const r = a + step;
        if (Number.isSafeInteger(r)) return r + 0;
      }
      return binaryOp(op, a, k, span);
    };
  }
  const right = compileNode(node.right, expr, options);
  switch (op) {
    case '+':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        if (typeof a === 'number' && typeof b === 'number') {
          const r = a + b;
          if (Number.isSafeInteger(r) && Number.isSafeInteger(a) && Number.isSafeInteger(b)) return r + 0;
        }
        return binaryOp(op, a, b, span);
      };
    case '-':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        if (typeof a === 'number' && typeof b === 'number') {
          const r = a - b;
          if (Number.isSafeInteger(r) && Number.isSafeInteger(a) && Number.isSafeInteger(b)) return r + 0;
        }
        return binaryOp(op, a, b, span);
      };
    default:
      return binaryClosure(op, left, right, span);
  }
}

function binaryClosure(op: BinaryOp, left: Closure, right: Closure, span: Span): Closure {
  return (ctx) => binaryOp(op, left(ctx), right(ctx), span);
}

// ------------------------------------------------------------------------------ comparisons

function compileCompare(
  node: Extract<Expr, { kind: 'compare' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const operands = node.operands.map((o) => compileNode(o, expr, options));
  const { ops, span } = node;
  if (ops.length === 1) return compareOne(ops[0]!, operands[0]!, operands[1]!, span);
  return (ctx) => {
    let left = operands[0]!(ctx);
    for (let i = 0; i < ops.length; i++) {
      const right = operands[i + 1]!(ctx);
      if (!compareLink(ops[i]!, left, right, span)) return false;
      left = right;
    }
    return true;
  };
}

function compareOne(op: CompareOp, left: Closure, right: Closure, span: Span): Closure {
  switch (op) {
    case '==':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return a === b || valueEquals(a, b);
      };
    case '!=':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return a !== b && !valueEquals(a, b);
      };
    case '<':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return typeof a === 'number' && typeof b === 'number' ? a < b : compareOrder(op, a, b, span);
      };
    case '<=':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return typeof a === 'number' && typeof b === 'number' ? a <= b : compareOrder(op, a, b, span);
      };
    case '>':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return typeof a === 'number' && typeof b === 'number' ? a > b : compareOrder(op, a, b, span);
      };
    case '>=':
      return (ctx) => {
        const a = left(ctx);
        const b = right(ctx);
        return typeof a === 'number' && typeof b === 'number' ? a >= b : compareOrder(op, a, b, span);
      };
    case 'in':
      return (ctx) => {
        const a = left(ctx);
        return contains(right(ctx), a, span);
      };
    case 'not in':
      return (ctx) => {
        const a = left(ctx);
        return !contains(right(ctx), a, span);
      };
    case 'is':
    case 'is not':
      return (ctx) => {
        const a = left(ctx);
        return compareLink(op, a, right(ctx), span);
      };
  }
}

// ------------------------------------------------------------------------------ comprehensions

/**
 * `[element for v in iterable if c ...]`: the iterable is read in the enclosing scope, then `element`
 * and the conditions run once per item with `v` bound (and nothing else changed: a macro used inside
 * still sees the event's own scope). Each item counts one step of the run's budget, so nested
 * comprehensions cannot multiply into unbounded work; the result is a list of at most MAX_CONTAINER_SIZE.
 * This one-`for` list is the common shape and has a closure of its own; several `for`s, or a dict
 * comprehension, go to `compileClauses`.
 */
function compileComprehension(
  node: Extract<Expr, { kind: 'comprehension' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const [first, ...rest] = node.clauses;
  if (node.key !== undefined || first?.kind !== 'for' || rest.some((c) => c.kind === 'for'))
    return compileClauses(node, expr, options);
  const iterable = compileNode(first.iterable, expr, options);
  const element = compileNode(node.element, expr, options);
  const conditions = rest.map((c) => compileNode((c as { test: Expr }).test, expr, options));
  const { variable } = first;
  const { span } = node;
  const iterableSpan = first.iterable.span;
  return (ctx) => {
    const items = iterationItems(iterable(ctx), iterableSpan);
    let current: Value = null;
    const inner: EvalContext = {
      lookup: (name) => (name === variable ? current : ctx.lookup(name)),
      macro: (name, at) => ctx.macro(name, at),
      roll: (count, sides, text, source) => ctx.roll(count, sides, text, source),
      step: () => ctx.step(),
    };
    const out: Value[] = [];
    next: for (const item of items) {
      ctx.step();
      current = item;
      for (const condition of conditions) if (!truthy(condition(inner))) continue next;
      if (out.length >= MAX_CONTAINER_SIZE) throw comprehensionTooBig('list', span);
      out.push(element(inner));
    }
    return out;
  };
}

function comprehensionTooBig(kind: 'list' | 'dict', span: Span): YareError {
  const what = kind === 'list' ? 'a list of more than' : 'a dict of more than';
  return new YareError(
    'YARE_CONTAINER_LIMIT',
    `a comprehension would make ${what} ${MAX_CONTAINER_SIZE} ${kind === 'list' ? 'items' : 'keys'} (MAX_CONTAINER_SIZE)`,
    span,
  );
}

type CompiledClause =
  | { readonly kind: 'for'; readonly variable: string; readonly iterable: Closure; readonly span: Span }
  | { readonly kind: 'if'; readonly test: Closure };

/**
 * The general comprehension: clauses in order, each `for` binding its variable for the clauses after it
 * (Python's nesting: the last `for` varies fastest), a list, or a dict when there is a key. Every item of
 * every `for` counts one step.
 */
function compileClauses(
  node: Extract<Expr, { kind: 'comprehension' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const clauses: CompiledClause[] = node.clauses.map((c) =>
    c.kind === 'for'
      ? {
          kind: 'for',
          variable: c.variable,
          iterable: compileNode(c.iterable, expr, options),
          span: c.iterable.span,
        }
      : { kind: 'if', test: compileNode(c.test, expr, options) },
  );
  const element = compileNode(node.element, expr, options);
  const key = node.key === undefined ? undefined : compileNode(node.key, expr, options);
  const { span } = node;
  const keySpan = node.key?.span ?? span;
  return (ctx) => {
    const bound = new Map<string, Value>();
    const inner: EvalContext = {
      lookup: (name) => (bound.has(name) ? bound.get(name) : ctx.lookup(name)),
      macro: (name, at) => ctx.macro(name, at),
      roll: (count, sides, text, source) => ctx.roll(count, sides, text, source),
      step: () => ctx.step(),
    };
    const list: Value[] = [];
    const dict = newDict();
    let size = 0;
    const emit = (): void => {
      if (key === undefined) {
        if (list.length >= MAX_CONTAINER_SIZE) throw comprehensionTooBig('list', span);
        list.push(element(inner));
        return;
      }
      const k = dictKeyOf(key(inner), keySpan);
      if (!Object.hasOwn(dict, k) && size >= MAX_CONTAINER_SIZE) throw comprehensionTooBig('dict', span);
      size = dictEntry(dict, k, element(inner), size, keySpan);
    };
    const run = (at: number): void => {
      if (at === clauses.length) {
        emit();
        return;
      }
      const clause = clauses[at]!;
      if (clause.kind === 'if') {
        if (truthy(clause.test(inner))) run(at + 1);
        return;
      }
      const had = bound.has(clause.variable);
      const saved = bound.get(clause.variable);
      for (const item of iterationItems(clause.iterable(inner), clause.span)) {
        ctx.step();
        bound.set(clause.variable, item);
        run(at + 1);
      }
      if (had) bound.set(clause.variable, saved!);
      else bound.delete(clause.variable);
    };
    run(0);
    return key === undefined ? list : dict;
  };
}

// ------------------------------------------------------------------------------ calls

function compileMacroCall(
  node: Extract<Expr, { kind: 'macroCall' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const fn = options.macroFunction?.(node.name);
  const { name, span } = node;
  if (fn === undefined) {
    return () => {
      throw new YareError('YARE_UNKNOWN_MACRO', `unknown macro '${name}' (a macro with parameters)`, span);
    };
  }
  const arg = node.args.map((a) => compileNode(a, expr, options));
  return (ctx) => fn(ctx, evaluateAll(arg, ctx), span);
}

function compileHostCall(
  node: Extract<Expr, { kind: 'call' }>,
  host: HostFunction,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const error = hostCallError(node.callee, host, node);
  if (error !== undefined) {
    return () => {
      throw new YareError(error.code, error.message, error.span);
    };
  }
  const arg = node.args.map((a) => compileNode(a, expr, options));
  const { span } = node;
  if (arg.length === 0) return (ctx) => host.call(ctx, [], span);
  if (arg.length === 1) {
    const a0 = arg[0]!;
    return (ctx) => host.call(ctx, [a0(ctx)], span);
  }
  return (ctx) => {
    const values = new Array<Value>(arg.length);
    for (let i = 0; i < arg.length; i++) values[i] = arg[i]!(ctx);
    return host.call(ctx, values, span);
  };
}

function compileCall(
  node: Extract<Expr, { kind: 'call' }>,
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const host = BUILTINS.has(node.callee) ? undefined : options.hostFunctions?.get(node.callee);
  if (host !== undefined) return compileHostCall(node, host, expr, options);
  let sig: BuiltinSignature;
  try {
    sig = checkCall(node);
  } catch (error) {
    if (!(error instanceof YareError)) throw error;
    // The call is checked each time it runs (a fresh error every time: the interpreter adds its place).
    return () => {
      checkCall(node);
      throw error;
    };
  }
  const arg = node.args.map((a) => compileNode(a, expr, options));
  const name = sig.name;
  switch (name) {
    case 'roll':
      return compileRoll(node, arg, expr);
    case 'choice':
    case 'shuffle':
      return compileDraw(name, node, arg[0]!, expr);
    case 'timedelta':
      return compileTimedelta(node, arg, expr, options);
    case 'time_delta': {
      const [a0, a1] = arg as [Closure, Closure];
      const [span0, span1] = [node.args[0]!.span, node.args[1]!.span];
      return (ctx) => {
        const a = a0(ctx);
        return timeDelta(a, a1(ctx), span0, span1, node.span);
      };
    }
    case 'within':
    case 'ancestors':
    case 'descendants':
      return compileContainment(name, node, arg, options);
    case 'sorted': {
      const kw = keywordClosures(node, expr, options);
      const [items, reverse, key] = [arg[0]!, kw.get('reverse'), kw.get('key')];
      return (ctx) => pySorted(items(ctx), reverse?.(ctx), key?.(ctx), node.span);
    }
    case 'abs':
    case 'floor':
    case 'ceil':
    case 'len':
    case 'int':
    case 'sum':
    case 'round':
    case 'min':
    case 'max':
      return compileNumeric(name, arg, node.span);
    default:
      return compileTextOrList(name, arg, node.span);
  }
}

/** `within`, `ancestors`, `descendants`: the first argument names a collection that declares its parent. */
function compileContainment(
  name: 'within' | 'ancestors' | 'descendants',
  node: Extract<Expr, { kind: 'call' }>,
  arg: readonly Closure[],
  options: ClosureOptions,
): Closure {
  const record = collectionOf(node.args[0]!, options);
  const { span } = node;
  if (record?.parent === undefined) {
    return () => {
      throw new YareError('YARE_TYPE', containmentMisuse(name), span);
    };
  }
  const [a0, a1, a2] = arg as [Closure, Closure, Closure | undefined];
  switch (name) {
    case 'within':
      return (ctx) => {
        const [c, x, y] = [a0(ctx), a1(ctx), a2!(ctx)];
        return pyWithin(c, x, y, record, span);
      };
    case 'ancestors':
      return (ctx) => {
        const c = a0(ctx);
        return pyAncestors(c, a1(ctx), record, span);
      };
    case 'descendants':
      return (ctx) => {
        const c = a0(ctx);
        return pyDescendants(c, a1(ctx), record, () => ctx.step(), span);
      };
  }
}

/** What `within()` and friends say of a first argument that is no collection with `parent:`. */
export function containmentMisuse(name: string): string {
  return `${name}() takes a collection of state_schema that declares parent: as its first argument, as ${name}(state.objs, ...)`;
}

function keywordClosures(
  node: Extract<Expr, { kind: 'call' }>,
  expr: Expression,
  options: ClosureOptions,
): Map<string, Closure> {
  return new Map(node.kwargs.map((k) => [k.name, compileNode(k.value, expr, options)]));
}

function compileRoll(
  node: Extract<Expr, { kind: 'call' }>,
  arg: readonly Closure[],
  expr: Expression,
): Closure {
  const first = node.args[0]!;
  const text = exprText(expr, node.span);
  if (first.kind === 'dice') {
    const { count, sides } = first;
    return (ctx) => ctx.roll(count, sides, text, expr);
  }
  const a0 = arg[0]!;
  const argSpan = first.span;
  return (ctx) => {
    const dice = diceOf(a0(ctx), argSpan);
    return ctx.roll(dice.count, dice.sides, text, expr);
  };
}

/** `choice` and `shuffle`: each draw is one die of the run's dice, recorded under the call's text. */
function compileDraw(
  name: 'choice' | 'shuffle',
  node: Extract<Expr, { kind: 'call' }>,
  items: Closure,
  expr: Expression,
): Closure {
  const text = exprText(expr, node.span);
  const { span } = node;
  return (ctx) => {
    const draw = (sides: number) => ctx.roll(1, sides, text, expr);
    return name === 'choice' ? pyChoice(items(ctx), draw, span) : pyShuffle(items(ctx), draw, span);
  };
}

function compileTimedelta(
  node: Extract<Expr, { kind: 'call' }>,
  arg: readonly Closure[],
  expr: Expression,
  options: ClosureOptions,
): Closure {
  const parts = [
    ...node.args.map((a, i) => ({ name: TIMEDELTA_POSITIONAL[i]!, value: arg[i]!, span: a.span })),
    ...node.kwargs.map((k) => ({
      name: k.name,
      value: compileNode(k.value, expr, options),
      span: k.value.span,
    })),
  ];
  const { span } = node;
  return (ctx) => {
    const kwargs: { name: string; value: Value; span: Span }[] = [];
    for (const p of parts) kwargs.push({ name: p.name, value: p.value(ctx), span: p.span });
    return pyTimedelta(kwargs, span);
  };
}

type NumericBuiltin = 'abs' | 'floor' | 'ceil' | 'len' | 'int' | 'sum' | 'round' | 'min' | 'max';

function compileNumeric(name: NumericBuiltin, arg: readonly Closure[], span: Span): Closure {
  const a0 = arg[0]!;
  const a1 = arg[1];
  switch (name) {
    case 'abs':
      return (ctx) => pyAbs(a0(ctx), span);
    case 'floor':
      return (ctx) => pyFloor(a0(ctx), span);
    case 'ceil':
      return (ctx) => pyCeil(a0(ctx), span);
    case 'len':
      return (ctx) => pyLen(a0(ctx), span);
    case 'int':
      return (ctx) => pyIntCall(a0(ctx), span);
    case 'sum':
      return (ctx) => {
        const items = a0(ctx);
        return pySum(items, a1 === undefined ? 0 : a1(ctx), span);
      };
    case 'round':
      return (ctx) => {
        const x = a0(ctx);
        return pyRound(x, a1 === undefined ? undefined : a1(ctx), span);
      };
    case 'min':
    case 'max':
      return (ctx) => pyMinMax(name, evaluateAll(arg, ctx), span);
  }
}

type TextOrListBuiltin = Exclude<
  BuiltinName,
  | NumericBuiltin
  | 'roll'
  | 'choice'
  | 'shuffle'
  | 'timedelta'
  | 'time_delta'
  | 'sorted'
  | 'within'
  | 'ancestors'
  | 'descendants'
>;

function compileTextOrList(name: TextOrListBuiltin, arg: readonly Closure[], span: Span): Closure {
  const [a0, a1, a2] = [arg[0]!, arg[1], arg[2]];
  switch (name) {
    case 'str':
      return (ctx) => pyStr(a0(ctx), span);
    case 'join':
      return (ctx) => {
        const items = a0(ctx);
        return pyJoin(items, a1 === undefined ? '' : a1(ctx), a2?.(ctx), span);
      };
    case 'split':
      return (ctx) => {
        const text = a0(ctx);
        return pySplit(text, a1?.(ctx), span);
      };
    case 'replace':
      return (ctx) => {
        const [text, old, replacement] = evaluateAll(arg, ctx) as [Value, Value, Value];
        return pyReplace(text, old, replacement, span);
      };
    case 'upper':
      return (ctx) => pyUpper(a0(ctx), span);
    case 'lower':
      return (ctx) => pyLower(a0(ctx), span);
    case 'capitalize':
      return (ctx) => pyCapitalize(a0(ctx), span);
    case 'strip':
      return (ctx) => {
        const text = a0(ctx);
        return pyStrip(text, a1?.(ctx), span);
      };
    case 'startswith':
    case 'endswith':
      return (ctx) => {
        const text = a0(ctx);
        return pyStartsEnds(name, text, a1!(ctx), span);
      };
    case 'format':
      return (ctx) => {
        const [template, ...values] = evaluateAll(arg, ctx);
        return pyFormat(template!, values, span);
      };
    case 'range':
      return (ctx) => pyRange(evaluateAll(arg, ctx), span);
    case 'keys':
    case 'values':
      return (ctx) => dictPart(name, a0(ctx), span);
  }
}

/** The arguments' values, left to right. */
function evaluateAll(arg: readonly Closure[], ctx: EvalContext): Value[] {
  const values = new Array<Value>(arg.length);
  for (let i = 0; i < arg.length; i++) values[i] = arg[i]!(ctx);
  return values;
}
