// FROZEN REFERENCE — edit only to mirror a deliberate fix made in both. The event interpreter as it was before steps and expressions were
// compiled to closures (commit 065872e, src/yare/interpreter.ts), kept as the oracle of the
// differential test in ../interpreter.differential.test.ts: the same rules, state, inputs and seed must
// give the same result from both, down to error messages and places.

// Runs compiled events against a state. Each run is a transaction: writes copy the path they touch
// (structural sharing), so the input state is never mutated and a failed run leaves no trace.
// Dice come from a seeded generator and every roll is recorded, so a run can be replayed exactly.

import type { SourcePlace } from '../../../src/diagnostics.ts';
import { DiceRoller, type RngState, type RollRecord } from '../../../src/yare/dice.ts';
import { didYouMean } from '../../../src/yare/diagnostics-sink.ts';
import { YareError, type YareErrorCode } from '../../../src/yare/errors.ts';
import type { Expression, Span } from '../../../src/yare/expr/ast.ts';
import { type EvalContext, evaluate } from '../../../src/yare/expr/evaluate.ts';
import {
  MAX_CALL_DEPTH,
  MAX_CONTAINER_SIZE,
  MAX_DICT_DEPTH,
  MAX_NOTE_LENGTH,
  MAX_STEPS_PER_RUN,
} from '../../../src/yare/limits.ts';
import type {
  CompiledRules,
  EventDef,
  FieldSchema,
  InputSpec,
  MutateOp,
  Operand,
  Step,
  Target,
} from '../../../src/yare/program.ts';
import { binaryOp } from '../../../src/yare/expr/arithmetic.ts';
import {
  formatValue,
  toNumeric,
  toStateValue,
  truthy,
  typeName,
  valueEquals,
} from '../../../src/yare/python.ts';
import { allPaths, dictDepth, schemaAt } from '../../../src/yare/schema.ts';
import {
  type Dict,
  inheritsNothing,
  isDict,
  newDict,
  PyFloat,
  type Value,
  toValue,
} from '../../../src/yare/values.ts';

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
    }
  | {
      readonly ok: false;
      readonly error: RunError;
      readonly notes: readonly string[];
      readonly rolls: readonly RollRecord[];
    };

/** What the interpreter needs of a dice generator (tests may script one). */
export interface Dice {
  readonly rolls: RollRecord[];
  roll(count: number, sides: number, expr: string): number;
}

export interface RunEventOptions {
  /** Seed for a fresh dice generator (default 0). Ignored when `dice` is given. */
  readonly seed?: number;
  /** A generator to continue (its rolls so far are not repeated in the result). */
  readonly dice?: Dice;
  readonly maxSteps?: number;
}

/** Runs one event as a transaction: `{ok, state, notes, rolls}` or `{ok:false, error}` with the input state untouched. */
export function runEvent(
  rules: CompiledRules,
  state: unknown,
  eventName: string,
  inputs: unknown = {},
  options: RunEventOptions = {},
): RunResult {
  const dice = options.dice ?? DiceRoller.fromSeed(options.seed ?? 0);
  const runner = new EventRunner(rules, state, dice, options.maxSteps);
  return runner.run(eventName, inputs);
}

interface Frame {
  readonly event: EventDef;
  readonly inputs: Dict;
  readonly locals: Map<string, Value> | undefined;
  readonly depth: number;
}

/**
 * Applies events one after another to a working state (the Director's tool calls, cycle ticks). Each
 * `run` is its own transaction: on error the working state is what it was before that run.
 */
export class EventRunner implements EvalContext {
  private root: Dict;
  private temp: Dict = NO_TEMP;
  private frame!: Frame;
  private notes: string[] = [];
  private steps = 0;
  /** Objects created during the current run, which it may change in place. */
  /** A short list (a handful of objects per run): scanning it beats a Set's allocation and hashing. */
  private readonly owned: object[] = [];
  private firstRoll = 0;

  constructor(
    readonly rules: CompiledRules,
    state: unknown,
    readonly dice: Dice,
    private readonly maxSteps: number = MAX_STEPS_PER_RUN,
  ) {
    this.root = isDict(state) && inheritsNothing(state) ? state : (toValue(state ?? {}) as Dict);
  }

  get state(): Dict {
    return this.root;
  }

  /** An evaluation context outside any event: `state` and an empty `temp` and `inputs`. */
  scratchContext(): EvalContext {
    this.frame = { event: undefined as unknown as EventDef, inputs: newDict(), locals: undefined, depth: 0 };
    return this;
  }

  run(eventName: string, inputs: unknown = {}): RunResult {
    const before = this.root;
    this.owned.length = 0;
    this.temp = newDict();
    this.owned.push(this.temp);
    this.notes = [];
    this.steps = 0;
    this.firstRoll = this.dice.rolls.length;
    // Fixed in both interpreters after the freeze: an error before the first step has no place.
    this.currentPlace = undefined;
    try {
      const event = this.rules.events.get(eventName);
      if (!event) {
        throw new YareError(
          'YARE_UNKNOWN_EVENT',
          `Unknown event '${eventName}'.${didYouMean(eventName, this.rules.events.keys())}`,
        );
      }
      this.invoke(event, this.prepareInputs(event, inputs), 1);
      this.owned.length = 0;
      return { ok: true, state: this.root, notes: this.notes, rolls: this.dice.rolls.slice(this.firstRoll) };
    } catch (error) {
      this.root = before;
      this.owned.length = 0;
      return {
        ok: false,
        error: toRunError(error, eventName, this.currentPlace),
        notes: this.notes,
        rolls: this.dice.rolls.slice(this.firstRoll),
      };
    }
  }

  private currentPlace: SourcePlace | undefined;

  // ------------------------------------------------------------ inputs

  /** Checks and coerces an event's inputs: declared names only, typed values, enum values, defaults. */
  prepareInputs(event: EventDef, raw: unknown): Dict {
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
      throw new YareError('YARE_BAD_INPUT', `Inputs of '${event.name}' must be a mapping of name: value.`);
    }
    const given = (raw ?? NO_INPUTS) as Record<string, unknown>;
    for (const key in given) {
      if (Object.hasOwn(given, key) && !event.inputs.has(key)) {
        const declared = [...event.inputs.keys()];
        throw new YareError(
          'YARE_BAD_INPUT',
          `'${event.name}' has no input '${key}'${declared.length ? ` (inputs: ${declared.join(', ')})` : ' (it takes none)'}.${didYouMean(key, declared)}`,
        );
      }
    }
    const out = newDict();
    for (const spec of event.inputList) {
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

  // ------------------------------------------------------------ execution

  private invoke(event: EventDef, inputs: Dict, depth: number): void {
    const saved = this.frame;
    this.frame = { event, inputs, locals: undefined, depth };
    this.execSteps(event.steps);
    this.frame = saved;
  }

  private execSteps(steps: readonly Step[]): void {
    for (const step of steps) this.exec(step);
  }

  private exec(step: Step): void {
    if (++this.steps > this.maxSteps) {
      throw new YareError(
        'YARE_STEP_LIMIT',
        `Event run exceeded ${this.maxSteps} steps (MAX_STEPS_PER_RUN); check loops and calls.`,
      );
    }
    this.currentPlace = step.place;
    switch (step.kind) {
      case 'set': {
        const value = this.operand(step.value);
        this.write(step.target, value, 'set');
        return;
      }
      case 'mutate': {
        const path = this.resolveTarget(step.target);
        const current = this.readPath(path);
        if (current === null || current === undefined) {
          throw new YareError(
            'YARE_BAD_VALUE',
            `mutate: path '${path.join('.')}' resolved to None; give it a default in state_schema or set it first.`,
          );
        }
        const operand = this.operand(step.value);
        this.currentPlace = step.place;
        this.writePath(path, mutateValue(step.op, current, operand), 'mutate', step.target);
        return;
      }
      case 'branch': {
        for (const arm of step.arms) {
          if (arm.test === undefined || truthy(this.operand(arm.test))) {
            this.execSteps(arm.steps);
            return;
          }
        }
        return;
      }
      case 'table_roll': {
        const rolled = toNumeric(this.operand(step.roll));
        const n = rolled instanceof PyFloat ? rolled.value : rolled;
        for (const entry of step.table) {
          const key = entry.key;
          const hit =
            key.kind === 'exact'
              ? n === key.value
              : key.kind === 'range'
                ? n >= key.low && n <= key.high
                : n >= key.low;
          if (hit) {
            const value = this.operand(entry.value);
            this.currentPlace = step.place;
            this.write(step.target, value, 'table_roll');
            return;
          }
        }
        return;
      }
      case 'call': {
        const callee = this.rules.events.get(step.event)!;
        if (this.frame.depth >= MAX_CALL_DEPTH) {
          throw new YareError(
            'YARE_CALL_DEPTH',
            `Call depth limit reached: '${this.frame.event.name}' at depth ${this.frame.depth} cannot call '${step.event}' (MAX_CALL_DEPTH ${MAX_CALL_DEPTH}).`,
          );
        }
        const args = newDict();
        for (const arg of step.args) args[arg.name] = this.operand(arg.value);
        const inputs = this.prepareInputs(callee, args);
        this.invoke(callee, inputs, this.frame.depth + 1);
        return;
      }
      case 'note': {
        let text = '';
        for (const part of step.parts)
          text += typeof part === 'string' ? part : formatValue(this.operand(part));
        if (text.length > MAX_NOTE_LENGTH) {
          throw new YareError(
            'YARE_NOTE_TOO_LONG',
            `Note is ${text.length} characters after interpolation (MAX_NOTE_LENGTH ${MAX_NOTE_LENGTH}).`,
          );
        }
        this.notes.push(text);
        return;
      }
      case 'list_push': {
        const path = this.resolveTarget(step.target);
        const item = this.operand(step.item);
        const list = this.readContainer(path, 'list', 'list_push');
        if (list.length >= MAX_CONTAINER_SIZE) {
          throw new YareError(
            'YARE_CONTAINER_LIMIT',
            `list_push: MAX_CONTAINER_SIZE reached (${MAX_CONTAINER_SIZE} items at ${path.join('.')}).`,
          );
        }
        this.writePath(path, [...list, item], 'list_push', step.target);
        return;
      }
      case 'list_remove': {
        const path = this.resolveTarget(step.target);
        const list = [...this.readContainer(path, 'list', 'list_remove')];
        if (step.index !== undefined) {
          const raw = this.operand(step.index);
          const idx = typeof raw === 'number' ? raw : Number(formatValue(raw));
          if (Number.isInteger(idx) && idx >= 0 && idx < list.length) list.splice(idx, 1);
        } else if (step.value !== undefined) {
          const value = this.operand(step.value);
          const at = list.findIndex((item) => valueEquals(item, value));
          if (at >= 0) list.splice(at, 1);
        }
        this.writePath(path, list, 'list_remove', step.target);
        return;
      }
      case 'dict_set': {
        const path = this.resolveTarget(step.target);
        const key = dictKey(this.operand(step.key));
        const value = this.operand(step.value);
        const dict = copyDict(this.readContainer(path, 'dict', 'dict_set'));
        dict[key] = value;
        if (dictDepth(dict) > MAX_DICT_DEPTH)
          throw new YareError(
            'YARE_DICT_DEPTH',
            `dict_set: MAX_DICT_DEPTH exceeded (${MAX_DICT_DEPTH}) at ${path.join('.')}.`,
          );
        if (Object.keys(dict).length > MAX_CONTAINER_SIZE) {
          throw new YareError(
            'YARE_CONTAINER_LIMIT',
            `dict_set: MAX_CONTAINER_SIZE reached (${MAX_CONTAINER_SIZE} keys at ${path.join('.')}).`,
          );
        }
        this.writePath(path, dict, 'dict_set', step.target);
        return;
      }
      case 'dict_delete': {
        const path = this.resolveTarget(step.target);
        const key = dictKey(this.operand(step.key));
        const dict = copyDict(this.readContainer(path, 'dict', 'dict_delete'));
        delete dict[key];
        this.writePath(path, dict, 'dict_delete', step.target);
        return;
      }
      case 'foreach': {
        const items =
          step.array.kind === 'path'
            ? this.readPath(this.resolveTarget(step.array.target))
            : this.operand(step.array);
        if (items === null || items === undefined) return;
        if (!Array.isArray(items))
          throw new YareError(
            'YARE_TYPE',
            `foreach array must resolve to a list, got ${typeName(items as Value)}.`,
          );
        const saved = this.frame;
        const snapshot = [...items];
        for (let i = 0; i < snapshot.length; i++) {
          const locals = new Map(saved.locals ?? []);
          locals.set(step.itemName, snapshot[i]!);
          locals.set(step.indexName, i);
          this.frame = { ...saved, locals };
          if (++this.steps > this.maxSteps) {
            throw new YareError(
              'YARE_STEP_LIMIT',
              `Event run exceeded ${this.maxSteps} steps (MAX_STEPS_PER_RUN); check loops and calls.`,
            );
          }
          this.execSteps(step.steps);
        }
        this.frame = saved;
        return;
      }
    }
  }

  // ------------------------------------------------------------ expressions

  private operand(op: Operand): Value {
    if (op.kind === 'const') return op.value;
    this.currentPlace = op.place;
    try {
      return evaluate(op.expr, this);
    } catch (error) {
      throw withPlace(error, op.place, op.expr);
    }
  }

  lookup(name: string): Value | undefined {
    const locals = this.frame.locals;
    if (locals?.has(name)) return locals.get(name);
    switch (name) {
      case 'state':
        return this.root;
      case 'temp':
        return this.temp;
      case 'inputs':
        return this.frame.inputs;
      default:
        return undefined;
    }
  }

  macro(name: string, _span: Span): Value {
    const macro = this.rules.macros.get(name);
    if (!macro) throw new YareError('YARE_UNKNOWN_MACRO', `Unknown macro '${name}'.`);
    try {
      return evaluate(macro, this);
    } catch (error) {
      throw withPlace(error, macro.place, macro);
    }
  }

  roll(count: number, sides: number, text: string): number {
    return this.dice.roll(count, sides, text);
  }

  // ------------------------------------------------------------ paths

  private resolveTarget(target: Target): readonly string[] {
    if (target.kind === 'static') return target.segments;
    const raw = this.operand(target.expr);
    const cache = dynamicPaths.get(target);
    const hit = typeof raw === 'string' ? cache?.get(raw) : undefined;
    if (hit) return hit;
    if (typeof raw !== 'string') {
      throw new YareError(
        'YARE_BAD_PATH',
        `'var' must resolve to a string path, got ${typeName(raw)}: ${formatValue(raw)}.`,
      );
    }
    const segments = raw.trim().split('.');
    const root = segments[0];
    if ((root !== 'state' && root !== 'temp') || segments.length < 2 || segments.some((s) => s === '')) {
      throw new YareError('YARE_BAD_PATH', `Path '${raw}' must start with 'state.' or 'temp.'.`);
    }
    if (root === 'state' && !schemaAt(this.rules.schema, segments.slice(1))) {
      throw new YareError(
        'YARE_BAD_PATH',
        `Path '${raw}' is not declared in state_schema.${didYouMean(segments.slice(1).join('.'), allPaths(this.rules.schema), (c) => `state.${c}`)}`,
      );
    }
    if (!cache) dynamicPaths.set(target, new Map([[raw, segments]]));
    else if (cache.size < DYNAMIC_PATH_CACHE_SIZE) cache.set(raw, segments);
    return segments;
  }

  private readPath(path: readonly string[]): Value | undefined {
    let node: Value | undefined = path[0] === 'state' ? this.root : this.temp;
    for (let i = 1; i < path.length; i++) {
      node = child(node, path[i]!);
      if (node === undefined) return undefined;
    }
    return node;
  }

  private readContainer(path: readonly string[], kind: 'list', action: string): Value[];
  private readContainer(path: readonly string[], kind: 'dict', action: string): Dict;
  private readContainer(path: readonly string[], kind: 'list' | 'dict', action: string): Value[] | Dict {
    const current = this.readPath(path);
    if (current === null || current === undefined) return kind === 'list' ? [] : newDict();
    if (kind === 'list' && Array.isArray(current)) return current;
    if (kind === 'dict' && isDict(current)) return current;
    throw new YareError(
      'YARE_TYPE',
      `${action}: path '${path.join('.')}' not a ${kind} (it holds ${typeName(current)}).`,
    );
  }

  private write(target: Target, value: Value, action: string): void {
    this.writePath(this.resolveTarget(target), value, action, target);
  }

  /** The typed field a write lands on exactly, if any (static targets know it from load time). */
  private fieldAt(path: readonly string[], target: Target | undefined): FieldSchema | undefined {
    if (target?.kind === 'static') return target.field;
    if (path[0] !== 'state') return undefined;
    const node = schemaAt(this.rules.schema, path.slice(1));
    return node?.kind === 'field' && node.path.length === path.length - 1 ? node : undefined;
  }

  /** Writes with the schema's type coercion and bounds; copies only the objects on the path. */
  private writePath(path: readonly string[], value: Value, action: string, target?: Target): void {
    const inState = path[0] === 'state';
    let toWrite = value;
    if (inState) {
      const field = this.fieldAt(path, target);
      if (field) toWrite = coerceToField(value, field, () => path.join('.'), action);
      toWrite = toStateValue(toWrite) as Value;
      if (typeof toWrite === 'object' && toWrite !== null) checkContainer(toWrite, path.join('.'));
    }
    let parent: Dict | Value[] = inState ? this.own(this.root) : this.temp;
    if (inState) this.root = parent as Dict;
    for (let i = 1; i < path.length - 1; i++) {
      const key = path[i]!;
      const next = child(parent, key);
      let owned: Dict | Value[];
      if (next === undefined || next === null) owned = newDict();
      else if (isDict(next) || Array.isArray(next)) owned = this.own(next);
      else
        throw new YareError(
          'YARE_BAD_PATH',
          `Cannot write ${path.join('.')}: '${path.slice(0, i + 1).join('.')}' holds ${typeName(next)}, not a mapping.`,
        );
      if (!this.owned.includes(owned)) this.owned.push(owned);
      assign(parent, key, owned, path);
      parent = owned;
    }
    assign(parent, path[path.length - 1]!, toWrite, path);
  }

  private own<T extends Dict | Value[]>(obj: T): T {
    if (this.owned.includes(obj)) return obj;
    const copy = (Array.isArray(obj) ? [...obj] : copyDict(obj as Dict)) as T;
    this.owned.push(copy);
    return copy;
  }
}

function child(node: Value | undefined, key: string): Value | undefined {
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

/** Checked paths of dynamic `var:` targets by their text: the same path is split and checked once. */
const dynamicPaths = new WeakMap<Target, Map<string, readonly string[]>>();
const DYNAMIC_PATH_CACHE_SIZE = 64;

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
  const coerced = tryCoerce(value, field.type);
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
      if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : CANNOT;
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (value instanceof PyFloat) return Number.isFinite(value.value) ? Math.trunc(value.value) : CANNOT;
      if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
      return CANNOT;
    }
    case 'float': {
      if (typeof value === 'boolean') return new PyFloat(value ? 1 : 0);
      if (typeof value === 'number') return new PyFloat(value);
      if (value instanceof PyFloat) return value;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return new PyFloat(Number(value));
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
