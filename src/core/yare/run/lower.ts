// Lowering: a checked event's steps (program.ts) become closures the first time the event runs, and their
// expressions become closures from `compileClosure`, so a run does no `switch` over step or node kinds,
// no WeakMap look-up per path, and no allocation it does not need. The lowered form is cached per
// `CompiledRules` object, which is immutable once built.

import { YareError } from '../errors.ts';
import { binaryOp } from '../expr/arithmetic.ts';
import type { Expression, Span } from '../expr/ast.ts';
import {
  type Closure,
  type ClosureOptions,
  compileClosure,
  type MacroFunctionClosure,
} from '../expr/closure.ts';
import type { EvalContext } from '../expr/runtime.ts';
import { MAX_CALL_DEPTH, MAX_CONTAINER_SIZE, MAX_DICT_DEPTH, MAX_NOTE_LENGTH } from '../limits.ts';
import type { SourcePlace } from '../../diagnostics.ts';
import type {
  CompiledRules,
  MacroFunction,
  MutateOp,
  Operand,
  PlacedExpression,
  Step,
  TableKey,
  Target,
} from '../program.ts';
import { type ExprReads, exprReads } from '../privacy.ts';
import { dictKeyText, formatValue, pyInt, toNumeric, truthy, typeName, valueEquals } from '../python.ts';
import { dictDepth } from '../schema.ts';
import { newDict, PyFloat, type Value } from '../values.ts';
import { type CoverageSink, coverageSinkOf } from '../coverage.ts';
import { countStep } from './budget.ts';
import { withPlace } from './errors.ts';
import { prepareInputs } from './inputs.ts';
import { type LoweredEvent, type Machine, type MachineProgram, runSteps, type StepFn } from './machine.ts';
import { checkedTest, labelledOperand, labelTableEntry, writtenPath } from './roll-labels.ts';
import { coerceRecord } from './coerce.ts';
import { NEXT_IDS_KEY, nextIdNumber } from '../schema-records.ts';
import {
  checkedDynamicPath,
  checkedSegments,
  copyDict,
  dictKey,
  fieldOf,
  type ResolvedPath,
  readDict,
  readList,
  readPath,
  requireRecord,
  resolvedPath,
  writePath,
} from './paths.ts';
import {
  eitherTest,
  loopNames,
  markTemp,
  type PrivacyTest,
  pathHoldsPrivate,
  privacyTest,
  withPrivateRolls,
} from './privacy.ts';

/** A lowered operand: a constant, or an expression evaluated with its place recorded for errors. */
type OperandFn = (m: Machine) => Value;

type TargetFn = (m: Machine) => ResolvedPath;

const NOT_COMPILED: Closure = () => {
  throw new Error('macro used before it was compiled');
};

/** The lowered events and macros of one set of rules, each lowered the first time it is needed. */
export class LoweredProgram implements MachineProgram {
  private readonly events = new Map<string, LoweredEvent>();
  private readonly macros = new Map<string, Closure>();
  private readonly functions = new Map<string, MacroFunctionClosure>();
  private macroNames: Map<Expression, string> | undefined;
  /**
   * `macros.NAME` in any expression resolves to the macro's closure while compiling, and reads of
   * `float` fields give floats.
   */
  readonly closureOptions: ClosureOptions;
  /** Where runs record coverage (rules made by `withCoverage`); undefined lowers no markers at all. */
  readonly coverage: CoverageSink | undefined;

  /** What each expression reads that may be private, by expression (src/core/yare/privacy.ts). */
  private readonly readsCache = new WeakMap<Expression, ExprReads>();

  constructor(readonly rules: CompiledRules) {
    const schema = rules.schema;
    this.coverage = coverageSinkOf(rules);
    this.closureOptions = {
      macro: (name) => this.macro(name),
      macroFunction: (name) => this.macroFunction(name),
      floatField: (keys) => fieldOf(schema, ['state', ...keys])?.type === 'float',
      collectionAt: (keys) => fieldOf(schema, ['state', ...keys])?.record,
    };
  }

  reads(expr: Expression): ExprReads {
    let reads = this.readsCache.get(expr);
    if (reads === undefined) {
      reads = exprReads(this.rules, expr);
      this.readsCache.set(expr, reads);
    }
    return reads;
  }

  event(name: string): LoweredEvent | undefined {
    let compiled = this.events.get(name);
    if (compiled === undefined) {
      const def = this.rules.events.get(name);
      if (def === undefined) return undefined;
      const steps = lowerSteps(def.steps, this);
      const sink = this.coverage;
      // A marker that counts no step: budgets and results are the same with coverage on.
      if (sink !== undefined) steps.unshift(() => void sink.events.add(name));
      compiled = { def, steps };
      this.events.set(name, compiled);
    }
    return compiled;
  }

  /**
   * A macro's closure, evaluated in the caller's scope; errors inside it carry the macro's place. The
   * entry is cached before the body compiles, so a macro cycle (refused at load) compiles to a closure
   * that recurses at run time, as `evaluate` did, instead of looping here.
   */
  macro(name: string): Closure | undefined {
    const cached = this.macros.get(name);
    if (cached !== undefined) return cached;
    const def = this.rules.macros.get(name);
    if (def === undefined) return undefined;
    let body = NOT_COMPILED;
    const fn: Closure = (ctx) => {
      try {
        return body(ctx);
      } catch (error) {
        throw withPlace(error, def.place, def);
      }
    };
    this.macros.set(name, fn);
    body = compileClosure(def, this.closureOptions);
    return fn;
  }

  /**
   * A macro with parameters, compiled once (cached before its bodies compile, as `macro` is). Each call
   * counts one step; the body runs in a scope of its own: its parameters, `state`, and macros.
   */
  macroFunction(name: string): MacroFunctionClosure | undefined {
    const cached = this.functions.get(name);
    if (cached !== undefined) return cached;
    const def = this.rules.macroFunctions.get(name);
    if (def === undefined) return undefined;
    let body: MacroFunctionClosure = () => {
      throw new Error('macro used before it was compiled');
    };
    const fn: MacroFunctionClosure = (ctx, args, span) => body(ctx, args, span);
    this.functions.set(name, fn);
    body = lowerMacroFunction(def, this.closureOptions);
    return fn;
  }

  macroNameOf(source: Expression): string | undefined {
    if (this.macroNames === undefined) {
      this.macroNames = new Map();
      for (const [name, def] of this.rules.macros) this.macroNames.set(def, name);
    }
    return this.macroNames.get(source);
  }
}

/**
 * A macro with parameters as a closure: it counts one step, binds its parameters, and gives the value —
 * with `by`, the case of the kind `by` names (a whole number names the kind that is its text), `value` for
 * any other kind, and an error naming the kind when there is neither.
 */
function lowerMacroFunction(def: MacroFunction, options: ClosureOptions): MacroFunctionClosure {
  // Errors inside a body carry the body's own place.
  const placed = (e: PlacedExpression): Closure => {
    const closure = compileClosure(e, options);
    return (ctx) => {
      try {
        return closure(ctx);
      } catch (error) {
        throw withPlace(error, e.place, e);
      }
    };
  };
  const value = def.value === undefined ? undefined : placed(def.value);
  const by = def.by === undefined ? undefined : placed(def.by);
  const cases = new Map([...def.cases].map(([kind, e]) => [kind, placed(e)]));
  const { name, params } = def;
  return (ctx, args, span) => {
    ctx.step();
    const scope = parameterScope(ctx, params, args);
    let body = value;
    if (by !== undefined) {
      const kind = by(scope);
      const key = typeof kind === 'string' ? kind : dictKeyText(kind);
      body = (key === undefined ? undefined : cases.get(key)) ?? value;
      if (body === undefined) {
        throw new YareError(
          'YARE_BAD_VALUE',
          `macros.${name}: no case for the kind ${formatValue(kind)} (cases: ${[...cases.keys()].join(', ')}) and no value: for other kinds`,
          span,
        );
      }
    }
    return body!(scope);
  };
}

/** What a macro with parameters sees: its parameters, then `state` (and, through `macro`, other macros). */
function parameterScope(ctx: EvalContext, params: readonly string[], args: readonly Value[]): EvalContext {
  return {
    lookup: (n) => {
      const at = params.indexOf(n);
      if (at >= 0) return args[at];
      return n === 'state' ? ctx.lookup('state') : undefined;
    },
    macro: (n, at) => ctx.macro(n, at),
    roll: (count, sides, text, source) => ctx.roll(count, sides, text, source),
    step: () => ctx.step(),
  };
}

function lowerSteps(steps: readonly Step[], program: LoweredProgram): StepFn[] {
  const sink = program.coverage;
  if (sink === undefined) return steps.map((step) => lowerStep(step, program));
  return steps.map((step) => {
    const run = lowerStep(step, program);
    return (m: Machine) => {
      sink.steps.add(step);
      run(m);
    };
  });
}

/** An operand whose value a step writes to `target`: lowered, and labelled where it rolls (roll-labels.ts). */
function lowerWritten(operand: Operand, target: Target, program: LoweredProgram): OperandFn {
  return labelledOperand(lowerOperand(operand, program), operand, program.rules, writtenPath(target));
}

/** One lowering function per step kind; each returns the step's closure. */
function lowerStep(step: Step, program: LoweredProgram): StepFn {
  switch (step.kind) {
    case 'set':
      return lowerSet(step, program);
    case 'mutate':
      return lowerMutate(step, program);
    case 'branch':
      return lowerBranch(step, program);
    case 'table_roll':
      return lowerTableRoll(step, program);
    case 'call':
      return lowerCall(step, program);
    case 'note':
      return lowerNote(step, program);
    case 'list_push':
      return lowerListPush(step, program);
    case 'list_remove':
      return lowerListRemove(step, program);
    case 'dict_set':
      return lowerDictSet(step, program);
    case 'dict_delete':
      return lowerDictDelete(step, program);
    case 'create':
      return lowerCreate(step, program);
    case 'foreach':
      return lowerForeach(step, program);
    default: {
      const never: never = step;
      throw new YareError('YARE_BAD_STEP', `unknown step kind '${(never as Step).kind}'`);
    }
  }
}

type StepOf<K extends Step['kind']> = Extract<Step, { kind: K }>;

/** What a write does to the run's private temps (see `tempMark`). */
type TempMark = ((m: Machine, path: ResolvedPath) => void) | undefined;

/**
 * The shape the container steps share (list_push, list_remove, dict_set, dict_delete): count the step,
 * resolve the target, compute the container's new value from the old, write it, and mark the temp.
 */
function containerStep(
  place: SourcePlace,
  target: TargetFn,
  mark: TempMark,
  action: string,
  update: (m: Machine, path: ResolvedPath) => Value,
): StepFn {
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const path = target(m);
    writePath(m, path, update(m, path), action);
    if (mark !== undefined) mark(m, path);
  };
}

function lowerSet(step: StepOf<'set'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const value = lowerWritten(step.value, step.target, program);
  const target = lowerTarget(step.target, program);
  const mark = tempMark(step.target, privacyOf(step.value, program), program, true);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const v = value(m);
    const path = target(m);
    writePath(m, path, v, 'set');
    if (mark !== undefined) mark(m, path);
  };
}

function lowerMutate(step: StepOf<'mutate'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const target = lowerTarget(step.target, program);
  const value = lowerWritten(step.value, step.target, program);
  const op = step.op;
  const mark = tempMark(step.target, privacyOf(step.value, program), program, false);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const path = target(m);
    if (path.recordAt !== undefined) requireRecord(m, path);
    const current = readPath(m, path.segments);
    if (current === null || current === undefined) {
      throw new YareError(
        'YARE_BAD_VALUE',
        `mutate: path '${path.text}' resolved to None; give it a default in state_schema or set it first.`,
      );
    }
    const operand = value(m);
    m.currentPlace = place;
    writePath(m, path, mutateValue(op, current, operand), 'mutate');
    if (mark !== undefined) mark(m, path);
  };
}

function lowerBranch(step: StepOf<'branch'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const sink = program.coverage;
  const arms = step.arms.map((arm) => {
    const steps = lowerSteps(arm.steps, program);
    if (sink !== undefined) steps.unshift(() => void sink.arms.add(arm));
    return {
      test:
        arm.test === undefined
          ? undefined
          : checkedTest(lowerOperand(arm.test, program), arm.test, program.rules, (side) =>
              lowerOperand(side, program),
            ),
      steps,
    };
  });
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    for (let i = 0; i < arms.length; i++) {
      const arm = arms[i]!;
      if (arm.test === undefined || truthy(arm.test(m))) {
        runSteps(m, arm.steps);
        return;
      }
    }
  };
}

function lowerTableRoll(step: StepOf<'table_roll'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const roll = lowerWritten(step.roll, step.target, program);
  const target = lowerTarget(step.target, program);
  const table = step.table.map((entry) => ({
    key: entry.key,
    value: lowerOperand(entry.value, program),
  }));
  // The entry a private number picks tells the number: the write is private when either is.
  const rollTest = privacyOf(step.roll, program);
  const marks = step.table.map((entry) =>
    tempMark(step.target, eitherTest(rollTest, privacyOf(entry.value, program)), program, true),
  );
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const firstRoll = m.dice.rolls.length;
    const rolled = toNumeric(roll(m));
    const n = rolled instanceof PyFloat ? rolled.value : rolled;
    for (let e = 0; e < table.length; e++) {
      const entry = table[e]!;
      if (!tableKeyHolds(entry.key, n)) continue;
      const value = entry.value(m);
      m.currentPlace = place;
      labelTableEntry(m, firstRoll, value);
      const path = target(m);
      writePath(m, path, value, 'table_roll');
      const mark = marks[e];
      if (mark !== undefined) mark(m, path);
      return;
    }
  };
}

function tableKeyHolds(key: TableKey, n: number): boolean {
  switch (key.kind) {
    case 'exact':
      return n === key.value;
    case 'range':
      return n >= key.low && n <= key.high;
    case 'atLeast':
      return n >= key.low;
  }
}

function lowerCall(step: StepOf<'call'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const eventName = step.event;
  const args = step.args.map((arg) => ({
    name: arg.name,
    value: lowerOperand(arg.value, program),
    test: privacyOf(arg.value, program),
  }));
  const mayPass = args.some((arg) => arg.test !== undefined);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    // Looked up when it runs (and compiled then, once): an event may call itself.
    const callee = m.program.event(eventName)!;
    if (m.depth >= MAX_CALL_DEPTH) {
      throw new YareError(
        'YARE_CALL_DEPTH',
        `Call depth limit reached: '${m.event!.name}' at depth ${m.depth} cannot call '${eventName}' (MAX_CALL_DEPTH ${MAX_CALL_DEPTH}).`,
      );
    }
    const given = newDict();
    let privateInputs: Set<string> | undefined;
    for (const arg of args) {
      given[arg.name] = arg.value(m);
      // An argument computed from a private value makes the callee's input private.
      if (mayPass && arg.test?.(m)) {
        privateInputs ??= new Set();
        privateInputs.add(arg.name);
      }
    }
    const inputs = prepareInputs(callee.def, given);
    m.invoke(callee, inputs, m.depth + 1, privateInputs);
  };
}

function lowerListPush(step: StepOf<'list_push'>, program: LoweredProgram): StepFn {
  const item = lowerOperand(step.item, program);
  const mark = tempMark(step.target, privacyOf(step.item, program), program, false);
  return containerStep(step.place, lowerTarget(step.target, program), mark, 'list_push', (m, path) => {
    const value = item(m);
    const list = readList(m, path, 'list_push');
    if (list.length >= MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `list_push: MAX_CONTAINER_SIZE reached (${MAX_CONTAINER_SIZE} items at ${path.text}).`,
      );
    }
    return [...list, value];
  });
}

function lowerListRemove(step: StepOf<'list_remove'>, program: LoweredProgram): StepFn {
  const index = step.index === undefined ? undefined : lowerOperand(step.index, program);
  const byValue = step.value === undefined ? undefined : lowerOperand(step.value, program);
  // What is left tells what a private index or value removed.
  const mark = tempMark(
    step.target,
    eitherTest(
      step.index === undefined ? undefined : privacyOf(step.index, program),
      step.value === undefined ? undefined : privacyOf(step.value, program),
    ),
    program,
    false,
  );
  return containerStep(step.place, lowerTarget(step.target, program), mark, 'list_remove', (m, path) => {
    const list = [...readList(m, path, 'list_remove')];
    if (index !== undefined) {
      const raw = index(m);
      // `int(index)` as the original: True is 1, 1.7 is 1, '2' is 2; what int() refuses is an error.
      const idx = typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : pyInt(raw);
      if (idx === undefined) {
        throw new YareError(
          'YARE_TYPE',
          `list_remove: index must be a whole number, got ${typeName(raw)}: ${formatValue(raw)}.`,
        );
      }
      if (idx >= 0 && idx < list.length) list.splice(idx, 1);
    } else if (byValue !== undefined) {
      const value = byValue(m);
      const at = list.findIndex((item) => valueEquals(item, value));
      if (at >= 0) list.splice(at, 1);
    }
    return list;
  });
}

function lowerDictSet(step: StepOf<'dict_set'>, program: LoweredProgram): StepFn {
  const keyOf = lowerOperand(step.key, program);
  const itemOf = lowerOperand(step.value, program);
  const mark = tempMark(
    step.target,
    eitherTest(privacyOf(step.key, program), privacyOf(step.value, program)),
    program,
    false,
  );
  return containerStep(step.place, lowerTarget(step.target, program), mark, 'dict_set', (m, path) => {
    const key = dictKey(keyOf(m));
    const value = itemOf(m);
    const dict = copyDict(readDict(m, path, 'dict_set'));
    dict[key] = value;
    if (dictDepth(dict) > MAX_DICT_DEPTH)
      throw new YareError(
        'YARE_DICT_DEPTH',
        `dict_set: MAX_DICT_DEPTH exceeded (${MAX_DICT_DEPTH}) at ${path.text}.`,
      );
    if (Object.keys(dict).length > MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `dict_set: MAX_CONTAINER_SIZE reached (${MAX_CONTAINER_SIZE} keys at ${path.text}).`,
      );
    }
    return dict;
  });
}

function lowerDictDelete(step: StepOf<'dict_delete'>, program: LoweredProgram): StepFn {
  const keyOf = lowerOperand(step.key, program);
  const mark = tempMark(step.target, privacyOf(step.key, program), program, false);
  return containerStep(step.place, lowerTarget(step.target, program), mark, 'dict_delete', (m, path) => {
    const key = dictKey(keyOf(m));
    const dict = copyDict(readDict(m, path, 'dict_delete'));
    delete dict[key];
    return dict;
  });
}

/**
 * `create`: a record made of the values given (each an operand) and the properties' defaults, under the
 * next id of its collection (`nextIdNumber`, schema-records.ts), which `var:` receives; the collection
 * holds at most MAX_CONTAINER_SIZE records.
 */
function lowerCreate(step: StepOf<'create'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const { record, segments, text } = step.collection;
  const schema = program.rules.schema;
  const values = step.values.map((v) => ({ name: v.name, value: lowerOperand(v.value, program) }));
  const collection = resolvedPath(segments, schema);
  const counter = resolvedPath(['state', NEXT_IDS_KEY, segments.slice(1).join('.')], schema);
  const target = step.target === undefined ? undefined : lowerTarget(step.target, program);
  const mark = step.target === undefined ? undefined : tempMark(step.target, undefined, program, true);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const given = newDict();
    for (const v of values) given[v.name] = v.value(m);
    m.currentPlace = place;
    const records = readDict(m, collection, 'create');
    if (Object.keys(records).length >= MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `create: ${text} holds ${MAX_CONTAINER_SIZE} records already (MAX_CONTAINER_SIZE).`,
      );
    }
    const n = nextIdNumber(records, record, readPath(m, counter.segments) ?? null);
    const id = `${record.idPrefix}${n}`;
    const all = copyDict(records);
    all[id] = coerceRecord(given, record, id, 'create');
    writePath(m, collection, all, 'create');
    writePath(m, counter, n + 1, 'create');
    if (target === undefined) return;
    const path = target(m);
    writePath(m, path, id, 'create');
    if (mark !== undefined) mark(m, path);
  };
}

function lowerNote(step: StepOf<'note'>, program: LoweredProgram): StepFn {
  const place = step.place;
  // Text and expressions alternate: `lead`, then each expression followed by the text after it.
  let lead = '';
  const exprs: OperandFn[] = [];
  const sources: string[] = [];
  const tests: (PrivacyTest | undefined)[] = [];
  const after: string[] = [];
  for (const part of step.parts) {
    if (typeof part === 'string') {
      if (exprs.length === 0) lead += part;
      else after[after.length - 1] += part;
    } else {
      exprs.push(lowerOperand(part, program));
      sources.push(part.kind === 'expr' ? part.expr.source.trim() : formatValue(part.value));
      tests.push(privacyOf(part, program));
      after.push('');
    }
  }
  const mayShowPrivate = tests.some((t) => t !== undefined);
  const sink = program.coverage;
  if (sink !== undefined || mayShowPrivate) {
    // With coverage on, a placeholder with nothing to show (None) is recorded with the note it spoiled; a
    // placeholder that may show a private value marks its span (run/privacy.ts).
    return (m) => {
      countStep(m);
      m.currentPlace = place;
      let text = lead;
      let spans: number[] | undefined;
      let none: string | undefined;
      for (let i = 0; i < exprs.length; i++) {
        const v = exprs[i]!(m);
        if (v === null && none === undefined) none = sources[i]!;
        const value = noteText(v);
        if (tests[i]?.(m)) {
          spans ??= [];
          spans.push(text.length, text.length + value.length);
        }
        text += value + after[i]!;
      }
      if (text.length > MAX_NOTE_LENGTH) {
        throw new YareError(
          'YARE_NOTE_TOO_LONG',
          `Note is ${text.length} characters after interpolation (MAX_NOTE_LENGTH ${MAX_NOTE_LENGTH}).`,
        );
      }
      if (sink !== undefined && none !== undefined) sink.unrendered.push({ step, placeholder: none, text });
      m.addNote(text, spans);
    };
  }
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    let text = lead;
    for (let i = 0; i < exprs.length; i++) text += noteText(exprs[i]!(m)) + after[i]!;
    if (text.length > MAX_NOTE_LENGTH) {
      throw new YareError(
        'YARE_NOTE_TOO_LONG',
        `Note is ${text.length} characters after interpolation (MAX_NOTE_LENGTH ${MAX_NOTE_LENGTH}).`,
      );
    }
    m.addNote(text, undefined);
  };
}

/** `formatValue`, with the two values notes show most (text and whole numbers) done inline. */
function noteText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return formatValue(v);
}

function lowerForeach(step: StepOf<'foreach'>, program: LoweredProgram): StepFn {
  const place = step.place;
  const source = step.array;
  const { itemName, indexName } = step;
  const body = lowerSteps(step.steps, program);
  // The items of a private list, and their positions, are private inside the loop.
  const loop = (m: Machine, items: Value, isPrivate: boolean): void => {
    if (items === null) return;
    if (!Array.isArray(items))
      throw new YareError('YARE_TYPE', `foreach array must resolve to a list, got ${typeName(items)}.`);
    const saved = m.locals;
    const savedNames = m.privateNames;
    m.privateNames = loopNames(savedNames, itemName, indexName, isPrivate);
    const snapshot = [...items];
    for (let i = 0; i < snapshot.length; i++) {
      const locals = new Map(saved ?? []);
      locals.set(itemName, snapshot[i]!);
      locals.set(indexName, i);
      m.locals = locals;
      countStep(m);
      runSteps(m, body);
    }
    m.locals = saved;
    m.privateNames = savedNames;
  };
  if (source.kind === 'path') {
    const target = lowerTarget(source.target, program);
    const pathTest = targetPrivacy(source.target, program);
    const schema = program.rules.schema;
    return (m) => {
      countStep(m);
      m.currentPlace = place;
      const path = target(m);
      const items = readPath(m, path.segments) ?? null;
      loop(m, items, pathHoldsPrivate(m, path.segments, schema) || (pathTest?.(m) ?? false));
    };
  }
  const readItems = lowerOperand(source, program);
  const test = privacyOf(source, program);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const items = readItems(m);
    loop(m, items, test?.(m) ?? false);
  };
}

function lowerOperand(op: Operand, program: LoweredProgram): OperandFn {
  if (op.kind === 'const') {
    const value = op.value;
    return () => value;
  }
  const { expr, place } = op;
  // Rolls whose dice come from a private value are marked while the expression runs (run/privacy.ts).
  const fn = withPrivateRolls<Machine, Value>(
    program.reads(expr),
    compileClosure(expr, program.closureOptions),
  );
  return (m) => {
    m.currentPlace = place;
    try {
      return fn(m);
    } catch (error) {
      throw withPlace(error, place, expr);
    }
  };
}

/** Whether an operand's value may be private; undefined when it never is (a constant, a public read). */
function privacyOf(op: Operand, program: LoweredProgram): PrivacyTest | undefined {
  return op.kind === 'const' ? undefined : privacyTest(program.reads(op.expr).value);
}

/** Whether a computed `var:` path is private (it then says which key or field was written). */
function targetPrivacy(target: Target, program: LoweredProgram): PrivacyTest | undefined {
  switch (target.kind) {
    case 'static':
      return undefined;
    case 'dynamic':
      return privacyOf(target.expr, program);
    case 'computed':
      return target.parts.reduce<PrivacyTest | undefined>(
        (test, part) => (part.kind === 'key' ? eitherTest(test, privacyOf(part.key, program)) : test),
        undefined,
      );
  }
}

/**
 * What a write does to the run's private temps: undefined for a write that cannot land in `temp` (a static
 * `state.` path; a public field written from a private value is the author revealing it). `whole`: the step
 * replaces the value it writes (`set`, `table_roll`), so a public value makes a whole key public again.
 */
function tempMark(
  target: Target,
  valueTest: PrivacyTest | undefined,
  program: LoweredProgram,
  whole: boolean,
): TempMark {
  if (target.kind === 'static') {
    if (target.root !== 'temp') return undefined;
    // A static path: its key is known now, and a write that can make nothing private costs nothing.
    const key = target.segments[1]!;
    const replaces = whole && target.segments.length === 2;
    if (valueTest === undefined)
      return replaces
        ? (m) => {
            m.privateTemps?.delete(key);
          }
        : undefined;
    return (m) => markTemp(m, key, valueTest(m), replaces);
  }
  const test = eitherTest(valueTest, targetPrivacy(target, program));
  return (m, path) => {
    if (path.inState) return;
    const segments = path.segments;
    markTemp(m, segments[1]!, test?.(m) ?? false, whole && segments.length === 2);
  };
}

/** Checked paths of a dynamic `var:` target, by their text: the same path is split and checked once. */
const DYNAMIC_PATH_CACHE_SIZE = 64;

function lowerTarget(target: Target, program: LoweredProgram): TargetFn {
  if (target.kind === 'static') {
    const resolved = resolvedPath(target.segments, program.rules.schema);
    return () => resolved;
  }
  if (target.kind === 'computed') return lowerComputedTarget(target, program);
  const expr = lowerOperand(target.expr, program);
  const schema = program.rules.schema;
  const cache = new Map<string, ResolvedPath>();
  return (m) => {
    const raw = expr(m);
    if (typeof raw !== 'string') {
      throw new YareError(
        'YARE_BAD_PATH',
        `'var' must resolve to a string path, got ${typeName(raw)}: ${formatValue(raw)}.`,
      );
    }
    const hit = cache.get(raw);
    if (hit !== undefined) return hit;
    const resolved = checkedDynamicPath(raw, schema);
    if (cache.size < DYNAMIC_PATH_CACHE_SIZE) cache.set(raw, resolved);
    return resolved;
  };
}

/**
 * `state.objs[inputs.obj].loc`: each key evaluated (a dict key, as dict_set reads one), the segments checked
 * against the schema once per distinct path (the names were checked at load; a key may still name a
 * property, `state.objs[k][p]`).
 */
function lowerComputedTarget(
  target: Extract<Target, { kind: 'computed' }>,
  program: LoweredProgram,
): TargetFn {
  const parts = target.parts.map((part) =>
    part.kind === 'name'
      ? { name: part.name, key: undefined }
      : { name: '', key: lowerOperand(part.key, program) },
  );
  const schema = program.rules.schema;
  const root = target.root;
  const cache = new Map<string, ResolvedPath>();
  return (m) => {
    const segments: string[] = [root];
    for (const part of parts) segments.push(part.key === undefined ? part.name : dictKey(part.key(m)));
    const text = segments.join('\u0000');
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const resolved = checkedSegments(segments, schema);
    if (cache.size < DYNAMIC_PATH_CACHE_SIZE) cache.set(text, resolved);
    return resolved;
  };
}

const NO_SPAN: Span = { start: 0, end: 0 };

function mutateValue(op: MutateOp, current: Value, operand: Value): Value {
  switch (op) {
    case 'add':
      return binaryOp('+', current, operand, NO_SPAN);
    case 'sub':
      return binaryOp('-', current, operand, NO_SPAN);
    case 'mul':
      return binaryOp('*', current, operand, NO_SPAN);
    case 'div':
      return binaryOp('/', current, operand, NO_SPAN);
  }
}
