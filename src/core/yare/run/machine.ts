// The machine that runs lowered events: the working state, the current frame (event, inputs, foreach
// locals, call depth), what the current run produced (notes, rolls, steps) and its budget. Each run is
// a transaction: writes copy the path they touch, so the input state is never mutated and a failed run
// leaves no trace.

import type { SourcePlace } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { YareError } from '../errors.ts';
import type { Expression, Span } from '../expr/ast.ts';
import type { EvalContext } from '../expr/runtime.ts';
import type { Closure, ClosureOptions } from '../expr/closure.ts';
import type { CompiledRules, EventDef } from '../program.ts';
import type { RollRecord } from '../dice.ts';
import { type Dict, newDict, type Value } from '../values.ts';
import { labelLastRoll } from './roll-labels.ts';
import { type BudgetState, countStep, monotonicNow } from './budget.ts';
import { toRunError } from './errors.ts';
import { prepareInputs } from './inputs.ts';
import { copyDict, type PathRoots } from './paths.ts';
import { markRoll, type RunPrivacy } from './privacy.ts';
import { rootState } from './root-state.ts';
import type { PrivateNote, RunBudget, RunResult } from './run-result.ts';

/** A lowered step (run/lower.ts makes them); it runs against the machine's current frame. */
export type StepFn = (m: Machine) => void;

/** A lowered event: its checked definition and its steps as closures. */
export interface LoweredEvent {
  readonly def: EventDef;
  readonly steps: readonly StepFn[];
}

/**
 * What the machine needs of a lowered program. run/lower.ts's LoweredProgram is the one; declaring it here
 * keeps the import one-way (lower.ts compiles closures over the Machine; the machine only runs them).
 */
export interface MachineProgram {
  readonly rules: CompiledRules;
  readonly closureOptions: ClosureOptions;
  event(name: string): LoweredEvent | undefined;
  macro(name: string): Closure | undefined;
  /** The name of the macro whose expression this is, if it is one (labels the rolls made in it). */
  macroNameOf(source: Expression): string | undefined;
}

export function runSteps(m: Machine, steps: readonly StepFn[]): void {
  for (let i = 0; i < steps.length; i++) steps[i]!(m);
}

/** What the interpreter needs of a dice generator (tests may script one). */
export interface Dice {
  readonly rolls: RollRecord[];
  roll(count: number, sides: number, expr: string): number;
}

/** Outside a run nothing is owned, and nothing may be (frozen: a write outside a run would throw). */
const NOTHING_OWNED: object[] = Object.freeze([]) as unknown as object[];
const NO_TEMP: Dict = Object.freeze(newDict()) as Dict;
const NO_PRIVATE_NOTES: readonly PrivateNote[] = Object.freeze([]);

/** The mutable state of runs: the working state, the current frame, and what the current run produced. */
export class Machine implements EvalContext, BudgetState, PathRoots, RunPrivacy {
  root: Dict;
  temp: Dict = NO_TEMP;
  // The current frame, kept in fields rather than a frame object: `invoke` saves and restores them.
  event: EventDef | undefined = undefined;
  inputs: Dict = NO_TEMP;
  locals: Map<string, Value> | undefined = undefined;
  depth = 0;
  notes: string[] = [];
  /** The notes of this run that show a private value (a shared empty list until the first one). */
  privateNotes: readonly PrivateNote[] = NO_PRIVATE_NOTES;
  // What holds a private value now (run/privacy.ts): per run, per frame, per loop, per roll.
  privateTemps: Set<string> | undefined = undefined;
  privateInputs: ReadonlySet<string> | undefined = undefined;
  privateNames: ReadonlySet<string> | undefined = undefined;
  privateRollTexts: ReadonlySet<string> | undefined = undefined;
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
    readonly program: MachineProgram,
    state: unknown,
    readonly dice: Dice,
    readonly maxSteps: number,
  ) {
    this.root = rootState(state);
  }

  scratch(): EvalContext {
    this.event = undefined;
    this.inputs = newDict();
    this.locals = undefined;
    this.depth = 0;
    this.resetPrivacy();
    // An expression outside any event has a run's step budget of its own (comprehensions count steps).
    this.steps = 0;
    this.runMaxSteps = this.maxSteps;
    this.deadline = undefined;
    this.checkAt = this.maxSteps;
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
    this.privateNotes = NO_PRIVATE_NOTES;
    this.resetPrivacy();
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
        privateNotes: this.privateNotes,
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
        privateNotes: this.privateNotes,
        rolls: this.dice.rolls.slice(this.firstRoll),
        stepsUsed: this.steps,
      };
    }
  }

  /** Runs an event's steps in a frame of its own; `privateInputs` are the inputs its caller made private. */
  invoke(
    event: LoweredEvent,
    inputs: Dict,
    depth: number,
    privateInputs: ReadonlySet<string> | undefined = undefined,
  ): void {
    const savedEvent = this.event;
    const savedInputs = this.inputs;
    const savedLocals = this.locals;
    const savedDepth = this.depth;
    const savedPrivateInputs = this.privateInputs;
    const savedPrivateNames = this.privateNames;
    this.event = event.def;
    this.inputs = inputs;
    this.locals = undefined;
    this.depth = depth;
    this.privateInputs = privateInputs;
    this.privateNames = undefined;
    runSteps(this, event.steps);
    this.event = savedEvent;
    this.inputs = savedInputs;
    this.locals = savedLocals;
    this.depth = savedDepth;
    this.privateInputs = savedPrivateInputs;
    this.privateNames = savedPrivateNames;
  }

  /** Records a note, with the offsets of the private values it shows (flat [start, end) pairs) if any. */
  addNote(text: string, privateSpans: readonly number[] | undefined): void {
    if (privateSpans !== undefined) {
      if (this.privateNotes === NO_PRIVATE_NOTES) this.privateNotes = [];
      (this.privateNotes as PrivateNote[]).push({ index: this.notes.length, spans: privateSpans });
    }
    this.notes.push(text);
  }

  private resetPrivacy(): void {
    this.privateTemps = undefined;
    this.privateInputs = undefined;
    this.privateNames = undefined;
    this.privateRollTexts = undefined;
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

  roll(count: number, sides: number, text: string, source?: Expression): number {
    const total = this.dice.roll(count, sides, text);
    // Outside an event (an expression on its own) a roll has no purpose to record.
    const event = this.event;
    if (event !== undefined)
      labelLastRoll(
        this.dice.rolls,
        event.name,
        source === undefined ? undefined : this.program.macroNameOf(source),
      );
    if (this.privateRollTexts !== undefined) markRoll(this, this.dice.rolls, text);
    return total;
  }

  step(): void {
    countStep(this);
  }

  own<T extends Dict | Value[]>(obj: T): T {
    if (this.owned.includes(obj)) return obj;
    const copy = (Array.isArray(obj) ? [...obj] : copyDict(obj as Dict)) as T;
    this.owned.push(copy);
    return copy;
  }
}
