// One turn's compute budget: the steps and the milliseconds of computing everything a turn computes (lore,
// World Info, prompt assembly, rules, offline narration) count against one object, created once per turn
// (src/engine/turn/run-turn.ts) and passed to each part. Time is counted only inside `measure` sections, so a
// model call the turn waits for costs nothing; within a section the compute clock (the process's CPU time,
// so a loaded machine that takes the core away does not spend the budget) is read at each `spend` and at
// the section's end. Past either limit the part that was spending throws TurnBudgetExceeded, naming itself.
//
// The same object paces the turn: `due()` says the current slice (the synchronous stretch since the turn
// last gave the event loop back) has run its SLICE, and `breathe()` gives the event loop back then, so one
// turn never holds the server for more than a slice (docs/deploy.md, "A turn is one bounded job"). Slices
// rather than a worker pool: the turn is already an async generator that waits for models between its
// computing parts, and those parts share one working state (rule runner, dice, lore verdicts, budget); a
// worker would need every cartridge's compiled rules, lore index and World Info keys copied into it (cached
// by content hash) and a message round trip in every Director tool call, for what a few `await`s give.
// Pure: the clocks and the way to yield are given by the caller.

/** The cartridge part a cost is charged to: what the error names when the budget runs out. */
export type BudgetPart =
  /** An entry (its uid and comment), or the activation as a whole (no uid). */
  | { readonly kind: 'world-info'; readonly uid?: number; readonly comment?: string }
  | { readonly kind: 'lore'; readonly what: string }
  | { readonly kind: 'event'; readonly name: string }
  | { readonly kind: 'prompt'; readonly role: string }
  | { readonly kind: 'offline'; readonly what: string };

/** The part as a reader names it: `World Info entry 'Dragons' (uid 3)`, `event 'tick'`, … */
export function describePart(part: BudgetPart): string {
  switch (part.kind) {
    case 'world-info':
      if (part.uid === undefined) return 'World Info activation';
      return `World Info entry ${part.comment ? `'${part.comment}' (uid ${part.uid})` : part.uid}`;
    case 'lore':
      return `lore ${part.what}`;
    case 'event':
      return `event '${part.name}'`;
    case 'prompt':
      return `the ${part.role} prompt's assembly`;
    case 'offline':
      return `offline ${part.what}`;
    default: {
      const unreachable: never = part;
      return String(unreachable);
    }
  }
}

export interface TurnBudgetLimits {
  /** Steps of all the turn's parts together (rule steps, World Info key tests, lore sections scored). */
  readonly maxSteps: number;
  /** Milliseconds of computing, all parts together (model calls not included). */
  readonly maxMs: number;
  /** Milliseconds one slice may run before `breathe` gives the event loop back. */
  readonly sliceMs: number;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export class TurnBudgetExceeded extends Error {
  override readonly name = 'TurnBudgetExceeded';

  constructor(
    readonly part: BudgetPart,
    /** Which limit ran out. */
    readonly limit: 'steps' | 'ms',
    readonly limits: TurnBudgetLimits,
  ) {
    super(
      `${describePart(part)} exceeded the turn budget: ${fmt(limits.maxSteps)} steps / ${fmt(limits.maxMs)} ms of computing (the ${limit === 'steps' ? 'steps' : 'milliseconds'} ran out); nothing was saved`,
    );
  }
}

/** What a long loop of the core needs of a budget: to charge its steps and to know when to pause. */
export interface WorkMeter {
  /** Charges `steps` to `part`; throws TurnBudgetExceeded when a limit is passed. */
  spend(part: BudgetPart, steps: number): void;
  /** The current slice has run its time: the loop should pause (a generator yields) before going on. */
  due(): boolean;
}

/** A meter that never runs out nor pauses (a caller outside a turn: `mnesos lore`, the benchmarks). */
export const UNMETERED: WorkMeter = Object.freeze({ spend: () => {}, due: () => false });

export class TurnBudget implements WorkMeter {
  #steps = 0;
  #spentMs = 0;
  /** Nesting of `measure` sections; the clock runs while it is above 0. */
  #depth = 0;
  /** When the running section's uncounted time began. */
  #since = 0;
  /** When the turn last gave the event loop back (or began a section after waiting). */
  #sliceStart: number;

  /** Milliseconds of computing (the budget's clock; the wall clock `now` paces the slices). */
  readonly computeNow: () => number;

  constructor(
    readonly limits: TurnBudgetLimits,
    private readonly now: () => number,
    private readonly yieldNow: () => Promise<void>,
    computeNow?: () => number,
  ) {
    this.#sliceStart = now();
    this.computeNow = computeNow ?? now;
  }

  get steps(): number {
    return this.#steps;
  }

  /** Milliseconds of computing so far (the running section's included). */
  get ms(): number {
    return this.#depth > 0 ? this.#spentMs + (this.computeNow() - this.#since) : this.#spentMs;
  }

  get stepsLeft(): number {
    return Math.max(0, this.limits.maxSteps - this.#steps);
  }

  get msLeft(): number {
    return Math.max(0, this.limits.maxMs - this.ms);
  }

  spend(part: BudgetPart, steps: number): void {
    this.#steps += steps;
    this.check(part);
  }

  /** Throws when a limit is passed (steps, or the time of the sections so far). */
  check(part: BudgetPart): void {
    if (this.#steps > this.limits.maxSteps) throw new TurnBudgetExceeded(part, 'steps', this.limits);
    if (this.ms > this.limits.maxMs) throw new TurnBudgetExceeded(part, 'ms', this.limits);
  }

  due(): boolean {
    return this.now() - this.#sliceStart >= this.limits.sliceMs;
  }

  /** Runs `work` with the clock running, then checks the budget for `part`. */
  measure<T>(part: BudgetPart, work: () => T): T {
    const before = this.ms;
    this.#enter();
    let value: T;
    try {
      value = work();
    } finally {
      this.#leave();
    }
    // Not when `work` threw: its own error is the one to report.
    this.#checkSection(part, before);
    return value;
  }

  /**
   * The check at a section's end. A section inside another one is named only when the budget still held as
   * it began: time the enclosing section spent before it is the enclosing section's to answer for.
   */
  #checkSection(part: BudgetPart, before: number): void {
    if (this.#depth === 0 || before <= this.limits.maxMs) this.check(part);
  }

  /** `measure` for work that pauses (a sliced loop): the time it spends paused is not counted. */
  async measureAsync<T>(part: BudgetPart, work: () => Promise<T>): Promise<T> {
    const before = this.ms;
    this.#enter();
    let value: T;
    try {
      value = await work();
    } finally {
      this.#leave();
    }
    this.#checkSection(part, before);
    return value;
  }

  /** Gives the event loop back when the slice is due (the paused time is not counted). */
  async breathe(): Promise<void> {
    if (!this.due()) return;
    const running = this.#depth > 0;
    if (running) this.#spentMs += this.computeNow() - this.#since;
    await this.yieldNow();
    this.#sliceStart = this.now();
    if (running) this.#since = this.computeNow();
  }

  #enter(): void {
    if (this.#depth++ > 0) return;
    // The slice is not restarted here: the budget cannot tell a wait for a model from synchronous glue, so
    // after a wait the first `breathe` may give the loop back once more than needed (cheap), never less.
    this.#since = this.computeNow();
  }

  #leave(): void {
    if (--this.#depth > 0) return;
    this.#spentMs += this.computeNow() - this.#since;
  }
}

/**
 * Runs a sliced loop (a generator that yields when its meter is `due`) to its result, giving the event loop
 * back at each yield.
 */
export async function runSliced<T>(steps: Generator<unknown, T>, pause: () => Promise<void>): Promise<T> {
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done) return next.value;
    await pause();
  }
}

/** Runs a sliced loop to its result without pausing (a caller that does not share an event loop). */
export function runUnsliced<T>(steps: Generator<unknown, T>): T {
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}
