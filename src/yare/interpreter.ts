// Runs compiled events against a state. Each run is a transaction: writes copy the path they touch
// (structural sharing), so the input state is never mutated and a failed run leaves no trace.
// Dice come from a seeded generator and every roll is recorded, so a run can be replayed exactly.
// Steps and expressions run as closures compiled once per event (see "compiled program" below): the one
// executable semantics of YARE, pinned by recorded outcomes (test/yare/recorded.test.ts).

import type { SourcePlace } from '../diagnostics.ts';
import { DiceRoller, type RngState, type RollRecord } from './dice.ts';
import { didYouMean } from './diagnostics-sink.ts';
import { YareError, type YareErrorCode } from './errors.ts';
import type { Expression, Span } from './expr/ast.ts';
import { type Closure, type ClosureOptions, compileClosure } from './expr/closure.ts';
import type { EvalContext } from './expr/runtime.ts';
import {
  MAX_CALL_DEPTH,
  MAX_CONTAINER_SIZE,
  MAX_DICT_DEPTH,
  MAX_NOTE_LENGTH,
  MAX_STEPS_PER_RUN,
} from './limits.ts';
import type {
  CompiledRules,
  DomainSchema,
  EventDef,
  FieldSchema,
  InputSpec,
  MutateOp,
  Operand,
  Step,
  Target,
} from './program.ts';
import { binaryOp } from './expr/arithmetic.ts';
import {
  formatValue,
  parseFloatText,
  pyInt,
  toNumeric,
  toStateValue,
  truthy,
  typeName,
  valueEquals,
} from './python.ts';
import { allPaths, dictDepth, schemaAt } from './schema.ts';
import {
  DICT_PROTOTYPE,
  type Dict,
  inheritsNothing,
  isDict,
  newDict,
  PyFloat,
  type Value,
  toValue,
} from './values.ts';

export interface RunError {
  readonly code: YareErrorCode;
  readonly message: string;
  readonly event: string;
  readonly place?: SourcePlace;
}

export type RunResult =
  | {
      readonly ok: true;
      readonly state: Dict;
      readonly notes: readonly string[];
      readonly rolls: readonly RollRecord[];
      /** Steps this run executed (nested calls and loop iterations included), for per-turn budgets. */
      readonly stepsUsed: number;
    }
  | {
      readonly ok: false;
      readonly error: RunError;
      readonly notes: readonly string[];
      readonly rolls: readonly RollRecord[];
      /** Steps executed before the error (a step refused by a budget is not counted). */
      readonly stepsUsed: number;
    };

/**
 * Bounds of one run beyond the language's own limits: a caller spreading a budget over several runs (a
 * turn's tool calls) passes what is left of it.
 */
export interface RunBudget {
  /** Steps this run may execute (default `MAX_STEPS_PER_RUN`); one more fails with `YARE_STEP_LIMIT`. */
  readonly maxSteps?: number;
  /**
   * A wall-clock deadline on the `now` clock (milliseconds, monotonic: `performance.now()` by default).
   * Checked before the first step and then every `CLOCK_CHECK_INTERVAL` steps; past it the run fails with
   * `YARE_TIME_LIMIT` and is rolled back. Results never depend on the clock unless the deadline is hit.
   */
  readonly deadline?: number;
  /** The clock `deadline` is read on (tests inject one; the core reads no clock unless given a deadline). */
  readonly now?: () => number;
}

/** What the interpreter needs of a dice generator (tests may script one). */
export interface Dice {
  readonly rolls: RollRecord[];
  roll(count: number, sides: number, expr: string): number;
}

export interface RunEventOptions extends RunBudget {
  /** Seed for a fresh dice generator (default 0). Ignored when `dice` is given. */
  readonly seed?: number;
  /** A generator to continue (its rolls so far are not repeated in the result). */
  readonly dice?: Dice;
}

/** Steps between two readings of the clock when a run has a deadline. */
export const CLOCK_CHECK_INTERVAL = 64;

/** Runs one event as a transaction: `{ok, state, notes, rolls}` or `{ok:false, error}` with the input state untouched. */
export function runEvent(
  rules: CompiledRules,
  state: unknown,
  eventName: string,
  inputs: unknown = {},
  options: RunEventOptions = {},
): RunResult {
  const dice = options.dice ?? DiceRoller.fromSeed(options.seed ?? 0);
  const machine = new Machine(programOf(rules), state, dice, MAX_STEPS_PER_RUN);
  return machine.run(eventName, inputs, options);
}

/**
 * Applies events one after another to a working state (the Director's tool calls, cycle ticks). Each
 * `run` is its own transaction: on error the working state is what it was before that run.
 */
export class EventRunner implements EvalContext {
  private readonly machine: Machine;

  constructor(
    readonly rules: CompiledRules,
    state: unknown,
    readonly dice: Dice,
    maxSteps: number = MAX_STEPS_PER_RUN,
  ) {
    this.machine = new Machine(programOf(rules), state, dice, maxSteps);
  }

  get state(): Dict {
    return this.machine.root;
  }

  /**
   * Evaluates an expression outside any event (`state`, and an empty `temp` and `inputs`), compiled as the
   * rules' own expressions are: one semantics for `eval` and events.
   */
  evaluate(expr: Expression): Value {
    return compileClosure(expr, this.machine.program.closureOptions)(this.machine.scratch());
  }

  /** Runs one event; `budget` overrides the runner's step limit for this run and may add a deadline. */
  run(eventName: string, inputs: unknown = {}, budget?: RunBudget): RunResult {
    return this.machine.run(eventName, inputs, budget);
  }

  /** Checks and coerces an event's inputs: declared names only, typed values, enum values, defaults. */
  prepareInputs(event: EventDef, raw: unknown): Dict {
    return prepareInputs(event, raw);
  }

  lookup(name: string): Value | undefined {
    return this.machine.lookup(name);
  }

  macro(name: string, span: Span): Value {
    return this.machine.macro(name, span);
  }

  roll(count: number, sides: number, text: string): number {
    return this.dice.roll(count, sides, text);
  }
}

// ------------------------------------------------------------------------------ compiled program
//
// Each event's steps become closures the first time the event runs (and its expressions become closures
// from `compileClosure`), so a run does no `switch` over step or node kinds, no WeakMap look-up per path,
// and no allocation it does not need. The compiled form is cached per `CompiledRules` object, which is
// immutable once built.

/** A compiled step; it runs against the machine's current frame. */
type StepFn = (m: Machine) => void;
/** A compiled operand: a constant, or an expression evaluated with its place recorded for errors. */
type OperandFn = (m: Machine) => Value;

interface CompiledEvent {
  readonly def: EventDef;
  readonly steps: readonly StepFn[];
}

/** A write or read target with everything known about it: static ones are built once at compile time. */
interface ResolvedPath {
  readonly segments: readonly string[];
  /** `segments.join('.')`, for messages. */
  readonly text: string;
  readonly inState: boolean;
  /** The typed field written, when the path names one exactly (coercion and bounds). */
  readonly field: FieldSchema | undefined;
  readonly where: () => string;
}

type TargetFn = (m: Machine) => ResolvedPath;

const programs = new WeakMap<CompiledRules, Program>();

function programOf(rules: CompiledRules): Program {
  let program = programs.get(rules);
  if (program === undefined) {
    program = new Program(rules);
    programs.set(rules, program);
  }
  return program;
}

const NOT_COMPILED: Closure = () => {
  throw new Error('macro used before it was compiled');
};

class Program {
  private readonly events = new Map<string, CompiledEvent>();
  private readonly macros = new Map<string, Closure>();
  /**
   * `macros.NAME` in any expression resolves to the macro's closure while compiling, and reads of
   * `float` fields give floats.
   */
  readonly closureOptions: ClosureOptions;

  constructor(readonly rules: CompiledRules) {
    const schema = rules.schema;
    this.closureOptions = {
      macro: (name) => this.macro(name),
      floatField: (keys) => fieldOf(schema, ['state', ...keys])?.type === 'float',
    };
  }

  event(name: string): CompiledEvent | undefined {
    let compiled = this.events.get(name);
    if (compiled === undefined) {
      const def = this.rules.events.get(name);
      if (def === undefined) return undefined;
      compiled = { def, steps: compileSteps(def.steps, this) };
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
}

/** The mutable state of runs: the working state, the current frame, and what the current run produced. */
class Machine implements EvalContext {
  root: Dict;
  temp: Dict = NO_TEMP;
  // The current frame, kept in fields rather than a frame object: `invoke` saves and restores them.
  event: EventDef | undefined = undefined;
  inputs: Dict = NO_TEMP;
  locals: Map<string, Value> | undefined = undefined;
  depth = 0;
  notes: string[] = [];
  steps = 0;
  /** This run's step limit and deadline. */
  runMaxSteps = 0;
  deadline: number | undefined = undefined;
  now: () => number = monotonicNow;
  /**
   * The step count at which `countStep` leaves its fast path: the step limit, or sooner the next clock
   * reading when the run has a deadline. One comparison per step either way.
   */
  checkAt = 0;
  /**
   * Objects created during the current run, which it may change in place. A short list (a handful of
   * objects per run): scanning it beats a Set's allocation and hashing.
   */
  owned: object[] = NOTHING_OWNED;
  firstRoll = 0;
  /** The place of the step or expression running now: where an error without its own place happened. */
  currentPlace: SourcePlace | undefined = undefined;

  constructor(
    readonly program: Program,
    state: unknown,
    readonly dice: Dice,
    readonly maxSteps: number,
  ) {
    this.root = inheritsNothing(state) && isDict(state) ? state : (toValue(state ?? {}) as Dict);
  }

  scratch(): EvalContext {
    this.event = undefined;
    this.inputs = newDict();
    this.locals = undefined;
    this.depth = 0;
    return this;
  }

  run(eventName: string, inputs: unknown, budget?: RunBudget): RunResult {
    const before = this.root;
    this.runMaxSteps = budget?.maxSteps ?? this.maxSteps;
    this.deadline = budget?.deadline;
    this.now = budget?.now ?? monotonicNow;
    // With a deadline the very first step reads the clock: a run started too late does nothing.
    this.checkAt = this.deadline === undefined ? this.runMaxSteps : 0;
    const temp = newDict();
    this.temp = temp;
    // A fresh list per run (cheaper than truncating one): nothing from an earlier run is owned by this one.
    this.owned = [temp];
    this.notes = [];
    this.steps = 0;
    this.firstRoll = this.dice.rolls.length;
    // An error before the first step (unknown event, bad input) has no place of its own.
    this.currentPlace = undefined;
    try {
      const event = this.program.event(eventName);
      if (event === undefined) {
        throw new YareError(
          'YARE_UNKNOWN_EVENT',
          `Unknown event '${eventName}'.${didYouMean(eventName, this.program.rules.events.keys())}`,
        );
      }
      this.invoke(event, prepareInputs(event.def, inputs), 1);
      this.owned = NOTHING_OWNED;
      return {
        ok: true,
        state: this.root,
        notes: this.notes,
        rolls: this.dice.rolls.slice(this.firstRoll),
        stepsUsed: this.steps,
      };
    } catch (error) {
      this.root = before;
      this.owned = NOTHING_OWNED;
      return {
        ok: false,
        error: toRunError(error, eventName, this.currentPlace),
        notes: this.notes,
        rolls: this.dice.rolls.slice(this.firstRoll),
        stepsUsed: this.steps,
      };
    }
  }

  invoke(event: CompiledEvent, inputs: Dict, depth: number): void {
    const savedEvent = this.event;
    const savedInputs = this.inputs;
    const savedLocals = this.locals;
    const savedDepth = this.depth;
    this.event = event.def;
    this.inputs = inputs;
    this.locals = undefined;
    this.depth = depth;
    runSteps(this, event.steps);
    this.event = savedEvent;
    this.inputs = savedInputs;
    this.locals = savedLocals;
    this.depth = savedDepth;
  }

  lookup(name: string): Value | undefined {
    const locals = this.locals;
    if (locals?.has(name)) return locals.get(name);
    switch (name) {
      case 'state':
        return this.root;
      case 'temp':
        return this.temp;
      case 'inputs':
        return this.inputs;
      default:
        return undefined;
    }
  }

  macro(name: string, _span: Span): Value {
    const macro = this.program.macro(name);
    if (macro === undefined) throw new YareError('YARE_UNKNOWN_MACRO', `Unknown macro '${name}'.`);
    return macro(this);
  }

  roll(count: number, sides: number, text: string): number {
    return this.dice.roll(count, sides, text);
  }

  own<T extends Dict | Value[]>(obj: T): T {
    if (this.owned.includes(obj)) return obj;
    const copy = (Array.isArray(obj) ? [...obj] : copyDict(obj as Dict)) as T;
    this.owned.push(copy);
    return copy;
  }
}

// ------------------------------------------------------------------------------ inputs

/** Checks and coerces an event's inputs: declared names only, typed values, enum values, defaults. */
function prepareInputs(event: EventDef, raw: unknown): Dict {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new YareError('YARE_BAD_INPUT', `Inputs of '${event.name}' must be a mapping of name: value.`);
  }
  const given = (raw ?? NO_INPUTS) as Record<string, unknown>;
  for (const key in given) {
    if (!event.inputs.has(key) && Object.hasOwn(given, key)) {
      const declared = [...event.inputs.keys()];
      throw new YareError(
        'YARE_BAD_INPUT',
        `'${event.name}' has no input '${key}'${declared.length ? ` (inputs: ${declared.join(', ')})` : ' (it takes none)'}.${didYouMean(key, declared)}`,
      );
    }
  }
  const out = newDict();
  const specs = event.inputList;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const v = Object.hasOwn(given, spec.name) ? given[spec.name] : undefined;
    if (v !== undefined && v !== null) {
      out[spec.name] = coerceInput(event.name, spec, inputValue(event.name, spec.name, v));
    } else if (spec.hasDefault) {
      out[spec.name] = spec.default;
    } else if (spec.type === undefined) {
      out[spec.name] = null;
    } else {
      throw new YareError(
        'YARE_BAD_INPUT',
        `'${event.name}' needs the input '${spec.name}'${spec.description ? ` (${spec.description})` : ''}.`,
      );
    }
  }
  return out;
}

// ------------------------------------------------------------------------------ steps

function runSteps(m: Machine, steps: readonly StepFn[]): void {
  for (let i = 0; i < steps.length; i++) steps[i]!(m);
}

/** Every step and every loop iteration counts against the run's step budget. */
function countStep(m: Machine): void {
  if (++m.steps > m.checkAt) checkBudget(m);
}

/** The slow path of `countStep`: the step limit, and the deadline every `CLOCK_CHECK_INTERVAL` steps. */
function checkBudget(m: Machine): void {
  if (m.steps > m.runMaxSteps) {
    m.steps--; // the refused step did not run
    throw new YareError(
      'YARE_STEP_LIMIT',
      `Event run exceeded ${m.runMaxSteps} steps (MAX_STEPS_PER_RUN ${MAX_STEPS_PER_RUN}, or what is left of the turn's budget); check loops and calls.`,
    );
  }
  if (m.deadline !== undefined) {
    if (m.now() >= m.deadline) {
      m.steps--;
      throw new YareError(
        'YARE_TIME_LIMIT',
        `Event run passed its time limit after ${m.steps} steps; check loops and calls.`,
      );
    }
    m.checkAt = Math.min(m.runMaxSteps, m.steps + CLOCK_CHECK_INTERVAL - 1);
  } else m.checkAt = m.runMaxSteps;
}

function monotonicNow(): number {
  return performance.now();
}

function compileSteps(steps: readonly Step[], program: Program): StepFn[] {
  return steps.map((step) => compileStep(step, program));
}

function compileStep(step: Step, program: Program): StepFn {
  const place = step.place;
  switch (step.kind) {
    case 'set': {
      const value = compileOperand(step.value, program);
      const target = compileTarget(step.target, program);
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const v = value(m);
        writePath(m, target(m), v, 'set');
      };
    }
    case 'mutate': {
      const target = compileTarget(step.target, program);
      const value = compileOperand(step.value, program);
      const op = step.op;
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const path = target(m);
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
      };
    }
    case 'branch': {
      const arms = step.arms.map((arm) => ({
        test: arm.test === undefined ? undefined : compileOperand(arm.test, program),
        steps: compileSteps(arm.steps, program),
      }));
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
    case 'table_roll': {
      const roll = compileOperand(step.roll, program);
      const target = compileTarget(step.target, program);
      const table = step.table.map((entry) => ({
        key: entry.key,
        value: compileOperand(entry.value, program),
      }));
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const rolled = toNumeric(roll(m));
        const n = rolled instanceof PyFloat ? rolled.value : rolled;
        for (const entry of table) {
          const key = entry.key;
          const hit =
            key.kind === 'exact'
              ? n === key.value
              : key.kind === 'range'
                ? n >= key.low && n <= key.high
                : n >= key.low;
          if (hit) {
            const value = entry.value(m);
            m.currentPlace = place;
            writePath(m, target(m), value, 'table_roll');
            return;
          }
        }
      };
    }
    case 'call': {
      const eventName = step.event;
      const args = step.args.map((arg) => ({ name: arg.name, value: compileOperand(arg.value, program) }));
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
        for (const arg of args) given[arg.name] = arg.value(m);
        const inputs = prepareInputs(callee.def, given);
        m.invoke(callee, inputs, m.depth + 1);
      };
    }
    case 'note':
      return compileNote(step, program);
    case 'list_push': {
      const target = compileTarget(step.target, program);
      const item = compileOperand(step.item, program);
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const path = target(m);
        const value = item(m);
        const list = readList(m, path, 'list_push');
        if (list.length >= MAX_CONTAINER_SIZE) {
          throw new YareError(
            'YARE_CONTAINER_LIMIT',
            `list_push: MAX_CONTAINER_SIZE reached (${MAX_CONTAINER_SIZE} items at ${path.text}).`,
          );
        }
        writePath(m, path, [...list, value], 'list_push');
      };
    }
    case 'list_remove': {
      const target = compileTarget(step.target, program);
      const index = step.index === undefined ? undefined : compileOperand(step.index, program);
      const byValue = step.value === undefined ? undefined : compileOperand(step.value, program);
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const path = target(m);
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
        writePath(m, path, list, 'list_remove');
      };
    }
    case 'dict_set': {
      const target = compileTarget(step.target, program);
      const keyOf = compileOperand(step.key, program);
      const itemOf = compileOperand(step.value, program);
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const path = target(m);
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
        writePath(m, path, dict, 'dict_set');
      };
    }
    case 'dict_delete': {
      const target = compileTarget(step.target, program);
      const keyOf = compileOperand(step.key, program);
      return (m) => {
        countStep(m);
        m.currentPlace = place;
        const path = target(m);
        const key = dictKey(keyOf(m));
        const dict = copyDict(readDict(m, path, 'dict_delete'));
        delete dict[key];
        writePath(m, path, dict, 'dict_delete');
      };
    }
    case 'foreach':
      return compileForeach(step, program);
    default: {
      const never: never = step;
      throw new YareError('YARE_BAD_STEP', `unknown step kind '${(never as Step).kind}'`);
    }
  }
}

function compileNote(step: Extract<Step, { kind: 'note' }>, program: Program): StepFn {
  const place = step.place;
  // Text and expressions alternate: `lead`, then each expression followed by the text after it.
  let lead = '';
  const exprs: OperandFn[] = [];
  const after: string[] = [];
  for (const part of step.parts) {
    if (typeof part === 'string') {
      if (exprs.length === 0) lead += part;
      else after[after.length - 1] += part;
    } else {
      exprs.push(compileOperand(part, program));
      after.push('');
    }
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
    m.notes.push(text);
  };
}

/** `formatValue`, with the two values notes show most (text and whole numbers) done inline. */
function noteText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return formatValue(v);
}

function compileForeach(step: Extract<Step, { kind: 'foreach' }>, program: Program): StepFn {
  const place = step.place;
  const source = step.array;
  const readItems: OperandFn =
    source.kind === 'path'
      ? (
          (target: TargetFn): OperandFn =>
          (m) =>
            readPath(m, target(m).segments) ?? null
        )(compileTarget(source.target, program))
      : compileOperand(source, program);
  const { itemName, indexName } = step;
  const body = compileSteps(step.steps, program);
  return (m) => {
    countStep(m);
    m.currentPlace = place;
    const items = readItems(m);
    if (items === null) return;
    if (!Array.isArray(items))
      throw new YareError('YARE_TYPE', `foreach array must resolve to a list, got ${typeName(items)}.`);
    const saved = m.locals;
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
  };
}

// ------------------------------------------------------------------------------ operands and paths

function compileOperand(op: Operand, program: Program): OperandFn {
  if (op.kind === 'const') {
    const value = op.value;
    return () => value;
  }
  const { expr, place } = op;
  const fn = compileClosure(expr, program.closureOptions);
  return (m) => {
    m.currentPlace = place;
    try {
      return fn(m);
    } catch (error) {
      throw withPlace(error, place, expr);
    }
  };
}

function resolvedPath(segments: readonly string[], field: FieldSchema | undefined): ResolvedPath {
  const text = segments.join('.');
  return { segments, text, inState: segments[0] === 'state', field, where: () => text };
}

/** The typed field a dynamic path lands on exactly, if any. */
function fieldOf(schema: DomainSchema, segments: readonly string[]): FieldSchema | undefined {
  if (segments[0] !== 'state') return undefined;
  const node = schemaAt(schema, segments.slice(1));
  return node?.kind === 'field' && node.path.length === segments.length - 1 ? node : undefined;
}

/** Checked paths of a dynamic `var:` target, by their text: the same path is split and checked once. */
const DYNAMIC_PATH_CACHE_SIZE = 64;

function compileTarget(target: Target, program: Program): TargetFn {
  if (target.kind === 'static') {
    const resolved = resolvedPath(target.segments, target.field);
    return () => resolved;
  }
  const expr = compileOperand(target.expr, program);
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
    const segments = raw.trim().split('.');
    const root = segments[0];
    if ((root !== 'state' && root !== 'temp') || segments.length < 2 || segments.some((s) => s === '')) {
      throw new YareError('YARE_BAD_PATH', `Path '${raw}' must start with 'state.' or 'temp.'.`);
    }
    if (root === 'state' && !schemaAt(schema, segments.slice(1))) {
      throw new YareError(
        'YARE_BAD_PATH',
        `Path '${raw}' is not declared in state_schema.${didYouMean(segments.slice(1).join('.'), allPaths(schema), (c) => `state.${c}`)}`,
      );
    }
    const resolved = resolvedPath(segments, fieldOf(schema, segments));
    if (cache.size < DYNAMIC_PATH_CACHE_SIZE) cache.set(raw, resolved);
    return resolved;
  };
}

function readPath(m: Machine, path: readonly string[]): Value | undefined {
  let node: Value | undefined = path[0] === 'state' ? m.root : m.temp;
  for (let i = 1; i < path.length; i++) {
    node = child(node, path[i]!);
    if (node === undefined) return undefined;
  }
  return node;
}

function readList(m: Machine, path: ResolvedPath, action: string): Value[] {
  const current = readPath(m, path.segments);
  if (current === null || current === undefined) return [];
  if (Array.isArray(current)) return current;
  throw notA('list', action, path, current);
}

function readDict(m: Machine, path: ResolvedPath, action: string): Dict {
  const current = readPath(m, path.segments);
  if (current === null || current === undefined) return newDict();
  if (isDict(current)) return current;
  throw notA('dict', action, path, current);
}

function notA(kind: 'list' | 'dict', action: string, path: ResolvedPath, current: Value): YareError {
  return new YareError(
    'YARE_TYPE',
    `${action}: path '${path.text}' not a ${kind} (it holds ${typeName(current)}).`,
  );
}

/** Writes with the schema's type coercion and bounds; copies only the objects on the path. */
function writePath(m: Machine, target: ResolvedPath, value: Value, action: string): void {
  const path = target.segments;
  const inState = target.inState;
  let toWrite = value;
  if (inState) {
    const field = target.field;
    if (field) toWrite = coerceToField(value, field, target.where, action);
    // A finite number is already a state value; everything else is converted (floats unboxed, checked).
    if (typeof toWrite !== 'number' || !Number.isFinite(toWrite)) {
      toWrite = toStateValue(toWrite) as Value;
      if (typeof toWrite === 'object' && toWrite !== null) checkContainer(toWrite, target.text);
    }
  }
  let parent: Dict | Value[];
  if (inState) {
    parent = m.own(m.root);
    m.root = parent;
  } else parent = m.temp;
  for (let i = 1; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = child(parent, key);
    let owned: Dict | Value[];
    if (next === undefined || next === null) owned = newDict();
    else if (isDict(next) || Array.isArray(next)) owned = m.own(next);
    else
      throw new YareError(
        'YARE_BAD_PATH',
        `Cannot write ${target.text}: '${path.slice(0, i + 1).join('.')}' holds ${typeName(next)}, not a mapping.`,
      );
    if (!m.owned.includes(owned)) m.owned.push(owned);
    assign(parent, key, owned, path);
    parent = owned;
  }
  assign(parent, path[path.length - 1]!, toWrite, path);
}

function child(node: Value | undefined, key: string): Value | undefined {
  // One of our dicts inherits nothing, so a plain read finds an own key or nothing at all.
  if (typeof node === 'object' && node !== null && Object.getPrototypeOf(node) === DICT_PROTOTYPE)
    return (node as Dict)[key];
  if (Array.isArray(node)) {
    if (!/^\d+$/.test(key)) return undefined;
    return node[Number(key)];
  }
  if (isDict(node)) return Object.hasOwn(node, key) ? node[key] : undefined;
  return undefined;
}

function assign(parent: Dict | Value[], key: string, value: Value, path: readonly string[]): void {
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(key))
      throw new YareError('YARE_BAD_PATH', `Invalid path segment '${key}' for a list in ${path.join('.')}.`);
    const idx = Number(key);
    if (idx >= MAX_CONTAINER_SIZE)
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `Index ${idx} in ${path.join('.')} is past MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
      );
    while (parent.length < idx) parent.push(null);
    parent[idx] = value;
    return;
  }
  parent[key] = value;
}

/** Outside a run nothing is owned, and nothing may be (frozen: a write outside a run would throw). */
const NOTHING_OWNED: object[] = Object.freeze([]) as unknown as object[];
const NO_INPUTS: Record<string, unknown> = Object.freeze(newDict());
const NO_TEMP: Dict = Object.freeze(newDict()) as Dict;

/** One input value from untrusted data: primitives as they are, containers converted (null-prototype dicts). */
function inputValue(event: string, name: string, v: unknown): Value {
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  try {
    return toValue(v);
  } catch (error) {
    throw new YareError(
      'YARE_BAD_INPUT',
      `Input '${name}' of '${event}' is not plain data: ${(error as Error).message}.`,
    );
  }
}

function copyDict(d: Dict): Dict {
  const out = newDict();
  // for…in on a null-prototype dict visits exactly its own keys.
  for (const k in d) out[k] = d[k] as Value;
  return out;
}

function dictKey(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat) return formatValue(v);
  throw new YareError('YARE_TYPE', `A dict key must be a string or a number, got ${typeName(v)}.`);
}

function checkContainer(v: Value, where: string): void {
  if (Array.isArray(v) && v.length > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `${where}: a list of ${v.length} items exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
    );
  }
  if (isDict(v)) {
    if (Object.keys(v).length > MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `${where}: a dict of ${Object.keys(v).length} keys exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
      );
    }
    if (dictDepth(v) > MAX_DICT_DEPTH)
      throw new YareError(
        'YARE_DICT_DEPTH',
        `${where}: dict depth exceeds MAX_DICT_DEPTH (${MAX_DICT_DEPTH}).`,
      );
  }
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

/** Returned by `tryCoerce` when a value cannot become the type (errors are built only then). */
const CANNOT = Symbol('cannot coerce');

/** Coerces a value written to a typed state field, then clamps numbers to the field's bounds. */
export function coerceToField(value: Value, field: FieldSchema, where: () => string, action: string): Value {
  let coerced: Value | typeof CANNOT;
  try {
    coerced = tryCoerce(value, field.type);
  } catch (error) {
    if (error instanceof YareError && error.code === 'YARE_OVERFLOW')
      throw new YareError('YARE_OVERFLOW', `${action}: ${error.message} (${where()} is an int field).`);
    throw error;
  }
  if (coerced === CANNOT) {
    throw new YareError(
      'YARE_TYPE',
      `${action}: cannot coerce ${formatValue(value)} (${typeName(value)}) to ${field.type} for ${where()}.`,
    );
  }
  if (field.type !== 'int' && field.type !== 'float') return coerced;
  let n = coerced instanceof PyFloat ? coerced.value : (coerced as number);
  if (field.min !== undefined && n < field.min) n = field.min;
  if (field.max !== undefined && n > field.max) n = field.max;
  if (field.type === 'int') return Math.trunc(n);
  return new PyFloat(n);
}

function tryCoerce(value: Value, type: FieldSchema['type']): Value | typeof CANNOT {
  switch (type) {
    case undefined:
      return value;
    case 'int': {
      // Python `int()`: floats truncate, `'1_000'` is 1000, `'3.5'` is refused; beyond ±2^53 is
      // YARE_OVERFLOW rather than a float that silently loses precision.
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      return pyInt(value) ?? CANNOT;
    }
    case 'float': {
      // Python `float()`, finite values only: `'1_000'` is 1000.0, `'0x10'` is refused.
      if (typeof value === 'boolean') return new PyFloat(value ? 1 : 0);
      if (typeof value === 'number') return new PyFloat(value);
      if (value instanceof PyFloat) return value;
      if (typeof value === 'string') {
        const n = parseFloatText(value);
        return n === undefined ? CANNOT : new PyFloat(n);
      }
      return CANNOT;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string') {
        const s = value.trim().toLowerCase();
        if (s === 'true') return true;
        if (s === 'false') return false;
        return CANNOT;
      }
      if (typeof value === 'number' || value instanceof PyFloat || value === null) return truthy(value);
      return CANNOT;
    }
    case 'string':
      return typeof value === 'string' ? value : formatValue(value);
    case 'list':
      return Array.isArray(value) ? value : CANNOT;
    case 'dict':
      return isDict(value) ? value : CANNOT;
  }
}

function coerceInput(eventName: string, spec: InputSpec, value: Value): Value {
  const v = tryCoerce(value, spec.type);
  if (v === CANNOT) {
    throw new YareError(
      'YARE_BAD_INPUT',
      `Input '${spec.name}' of '${eventName}' must be ${spec.type}, got ${formatValue(value)}.`,
    );
  }
  if (spec.enumIndex) {
    const match = spec.enumIndex.get(typeof v === 'string' ? v.toLowerCase() : formatValue(v).toLowerCase());
    if (match === undefined) {
      throw new YareError(
        'YARE_BAD_INPUT',
        `Input '${spec.name}' of '${eventName}' must be one of ${(spec.enum ?? []).map((e) => formatValue(e)).join(', ')}; got ${formatValue(v)}.`,
      );
    }
    return match;
  }
  return v;
}

function withPlace(error: unknown, place: SourcePlace, expr: Expression): unknown {
  if (error instanceof YareError && !(error as { place?: SourcePlace }).place) {
    const col = place.col + (error.span ? error.span.start - 0 : 0);
    Object.assign(error, { place: { ...place, col }, expression: expr.source });
  }
  return error;
}

function toRunError(error: unknown, event: string, fallback: SourcePlace | undefined): RunError {
  if (error instanceof YareError) {
    const place = (error as { place?: SourcePlace }).place ?? fallback;
    return { code: error.code, message: error.message, event, ...(place ? { place } : {}) };
  }
  if (error instanceof RangeError) {
    return {
      code: 'YARE_STEP_LIMIT',
      message: `Event run too deep: ${error.message}`,
      event,
      ...(fallback ? { place: fallback } : {}),
    };
  }
  throw error;
}

export type { RngState, RollRecord };
