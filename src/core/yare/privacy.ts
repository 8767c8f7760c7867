// Which values are private. A state field's `visibility` says whether the field is private; a value the
// rules compute is private when it was computed from a private value: a private field read directly or
// through a macro, or a `temp` key, an event input or a loop item that holds such a value. This file is the
// part known from an expression's text (what it reads); which temps, inputs and loop items hold a private
// value is known only while a run goes on (run/privacy.ts). docs/yare.md, "Visibility", is the rule as
// authors read it.
//
// Two things are deliberately not private: the total of a roll (the player sees the dice land, so
// `roll(state.foe.damage_dice)` is public although its dice are not), and what the rules decided with a
// private value (a note in a branch whose test reads one: that the lock opens is the story).

import { exprText } from './expr/parser.ts';
import type { Expr, Expression } from './expr/ast.ts';
import { forEachChild } from './expr/walk.ts';
import type { CompiledRules, DomainSchema, FieldSchema } from './program.ts';

/** Macro nesting followed when deciding what a macro reads (deeper counts as private). */
export const MAX_PRIVACY_MACRO_DEPTH = 16;

/** What a value depends on that may hold a private value. `'any'`: a key computed, or the root read whole. */
export interface ValueReads {
  /** A private field of the state (or a group holding one) is read, directly or through a macro. */
  readonly privateState: boolean;
  /** `temp.<key>` keys read. */
  readonly temps: readonly string[] | 'any';
  /** `inputs.<name>` names read. */
  readonly inputs: readonly string[] | 'any';
  /** Bare names read: loop items and indexes. */
  readonly names: readonly string[];
}

/** A `roll(…)` whose dice are not written out: its text (as recorded with the roll) and what its dice read. */
export interface RollDiceReads {
  readonly text: string;
  readonly reads: ValueReads;
}

export interface ExprReads {
  /** What the expression's value depends on. */
  readonly value: ValueReads;
  /** Each roll whose dice are computed (`roll(1d20)` is not listed: its dice are plain). */
  readonly rollDice: readonly RollDiceReads[];
}

export const NO_READS: ValueReads = Object.freeze({
  privateState: false,
  temps: Object.freeze([]) as readonly string[],
  inputs: Object.freeze([]) as readonly string[],
  names: Object.freeze([]) as readonly string[],
});

/** Whether anything below this group is a private field (a group's own visibility is only a default). */
function hasPrivate(node: DomainSchema): boolean {
  for (const child of node.children.values()) {
    if (child.kind === 'field' && fieldHasPrivate(child)) return true;
    if (child.kind === 'domain' && hasPrivate(child)) return true;
  }
  return false;
}

/** A field is private, or a collection any of whose records' properties is. */
function fieldHasPrivate(field: FieldSchema): boolean {
  if (field.record === undefined) return field.visibility === 'private';
  for (const property of field.record.properties.values()) if (property.visibility === 'private') return true;
  return false;
}

/**
 * Whether `state.<path>` shows a private field (or a group holding one). A public field in a private group
 * (the demo's `world.chapel_sealed`) is public; a path stopping at a group is private when anything below is.
 */
export function pathIsPrivate(schema: DomainSchema, path: readonly string[]): boolean {
  let node: DomainSchema = schema;
  for (let i = 0; i < path.length; i++) {
    const child = node.children.get(path[i]!);
    if (child === undefined) return false;
    if (child.kind === 'domain') {
      node = child;
      continue;
    }
    // A record's property has its own visibility; the collection, or a record whole, shows all of them.
    const property = path[i + 2] === undefined ? undefined : child.record?.properties.get(path[i + 2]!);
    return property === undefined ? fieldHasPrivate(child) : property.visibility === 'private';
  }
  return hasPrivate(node);
}

/** `state.a.b['c']` as its root name and constant segments (a computed key keeps only what precedes it). */
function namedPath(expr: Expr): { root: string; path: string[] } | undefined {
  const path: string[] = [];
  let node: Expr = expr;
  for (;;) {
    if (node.kind === 'attribute') {
      path.unshift(node.name);
      node = node.object;
    } else if (node.kind === 'index') {
      if (node.index.kind === 'literal' && typeof node.index.value === 'string')
        path.unshift(node.index.value);
      else path.length = 0;
      node = node.object;
    } else if (node.kind === 'name') {
      return { root: node.name, path };
    } else {
      return undefined;
    }
  }
}

/** The computed keys of a path chain (`state.a[temp.k]` → `temp.k`): expressions of their own. */
function computedKeys(expr: Expr): Expr[] {
  const out: Expr[] = [];
  let node: Expr = expr;
  while (node.kind === 'attribute' || node.kind === 'index') {
    if (node.kind === 'index' && !(node.index.kind === 'literal' && typeof node.index.value === 'string'))
      out.push(node.index);
    node = node.object;
  }
  return out;
}

class ReadsBuilder {
  privateState = false;
  temps: Set<string> | 'any' = new Set();
  inputs: Set<string> | 'any' = new Set();
  names = new Set<string>();

  temp(key: string | undefined): void {
    if (this.temps === 'any') return;
    if (key === undefined) this.temps = 'any';
    else this.temps.add(key);
  }

  input(name: string | undefined): void {
    if (this.inputs === 'any') return;
    if (name === undefined) this.inputs = 'any';
    else this.inputs.add(name);
  }

  merge(reads: ValueReads): void {
    if (reads.privateState) this.privateState = true;
    if (reads.temps === 'any') this.temps = 'any';
    else for (const t of reads.temps) this.temp(t);
    if (reads.inputs === 'any') this.inputs = 'any';
    else for (const i of reads.inputs) this.input(i);
    for (const n of reads.names) this.names.add(n);
  }

  done(): ValueReads {
    if (!this.privateState && this.temps !== 'any' && this.temps.size === 0) {
      if (this.inputs !== 'any' && this.inputs.size === 0 && this.names.size === 0) return NO_READS;
    }
    return {
      privateState: this.privateState,
      temps: this.temps === 'any' ? 'any' : [...this.temps],
      inputs: this.inputs === 'any' ? 'any' : [...this.inputs],
      names: [...this.names],
    };
  }
}

const ALL_PRIVATE: ExprReads = Object.freeze({
  value: Object.freeze({ ...NO_READS, privateState: true }),
  rollDice: Object.freeze([]) as readonly RollDiceReads[],
});

const macroReadsByRules = new WeakMap<CompiledRules, Map<string, ExprReads>>();

/** What a macro's value and rolls read (cached per rules; a macro runs in its caller's scope). */
function macroReads(rules: CompiledRules, name: string, depth: number): ExprReads | undefined {
  let cache = macroReadsByRules.get(rules);
  if (cache === undefined) {
    cache = new Map();
    macroReadsByRules.set(rules, cache);
  }
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const def = rules.macros.get(name);
  if (def === undefined) return undefined;
  if (depth > MAX_PRIVACY_MACRO_DEPTH) return ALL_PRIVATE;
  // A cycle is refused at load; were one here, its second visit counts as private rather than looping.
  cache.set(name, ALL_PRIVATE);
  const reads = readsOf(rules, def, depth + 1);
  cache.set(name, reads);
  return reads;
}

function readsOf(
  rules: CompiledRules,
  expression: Expression,
  depth: number,
  params: readonly string[] = [],
): ExprReads {
  const walk = new ReadsWalk(rules, expression, depth);
  const value = new ReadsBuilder();
  walk.visit(expression.ast, value, new Set(params));
  return { value: value.done(), rollDice: walk.rollDice };
}

/** One expression's walk: each node's reads go into a builder; the dice that read something are listed. */
class ReadsWalk {
  readonly rollDice: RollDiceReads[] = [];

  constructor(
    private readonly rules: CompiledRules,
    private readonly expression: Expression,
    private readonly depth: number,
  ) {}

  /** `bound`: the comprehension variables in scope. */
  visit(node: Expr, into: ReadsBuilder, bound: ReadonlySet<string>): void {
    const named = namedPath(node);
    if (named !== undefined) {
      this.visitNamed(named, into, bound);
      for (const key of computedKeys(node)) this.visit(key, into, bound);
      return;
    }
    if (node.kind === 'call' && (node.callee === 'choice' || node.callee === 'shuffle')) {
      // A draw's die (1dN, its face) tells the list's length and the place of what was drawn: its dice
      // are as private as the list, and so is the value.
      into.merge(this.diceReads(node, bound));
      return;
    }
    if (node.kind === 'macroCall') {
      // The value reads what its arguments read, and what the macro's body reads of the state.
      const fn = macroFunctionReads(this.rules, node.name, this.depth);
      if (fn !== undefined) into.merge(fn.value);
      forEachChild(node, (child) => this.visit(child, into, bound));
      return;
    }
    if (node.kind === 'call' && node.callee === 'roll' && node.args.length > 0) {
      // The total is public; what the dice read decides whether they are shown (run/privacy.ts).
      if (node.args[0]!.kind !== 'dice') this.diceReads(node, bound);
      return;
    }
    if (node.kind === 'comprehension') {
      this.visitComprehension(node, into, bound);
      return;
    }
    forEachChild(node, (child) => this.visit(child, into, bound));
  }

  private visitNamed(
    { root, path }: { root: string; path: string[] },
    into: ReadsBuilder,
    bound: ReadonlySet<string>,
  ): void {
    if (bound.has(root)) {
      // A comprehension's variable: what it stands for is read by the comprehension's iterable.
    } else if (root === 'state') {
      if (pathIsPrivate(this.rules.schema, path)) into.privateState = true;
    } else if (root === 'temp') {
      into.temp(path.length > 0 ? path[0] : undefined);
    } else if (root === 'inputs') {
      into.input(path.length > 0 ? path[0] : undefined);
    } else if (root === 'macros') {
      const macro = path.length > 0 ? macroReads(this.rules, path[0]!, this.depth) : undefined;
      if (macro !== undefined) {
        into.merge(macro.value);
        this.rollDice.push(...macro.rollDice);
      }
    } else {
      into.names.add(root);
    }
  }

  /** What a call's arguments read, listed as its dice's reads when they read something. */
  private diceReads(node: Extract<Expr, { kind: 'call' }>, bound: ReadonlySet<string>): ValueReads {
    const diceReads = new ReadsBuilder();
    forEachChild(node, (child) => this.visit(child, diceReads, bound));
    const reads = diceReads.done();
    if (reads !== NO_READS) this.rollDice.push({ text: exprText(this.expression, node.span), reads });
    return reads;
  }

  /** Each variable is bound in the clauses after its `for` and in the element, not in its iterable. */
  private visitComprehension(
    node: Extract<Expr, { kind: 'comprehension' }>,
    into: ReadsBuilder,
    bound: ReadonlySet<string>,
  ): void {
    let inner = bound;
    for (const clause of node.clauses) {
      if (clause.kind === 'if') this.visit(clause.test, into, inner);
      else {
        this.visit(clause.iterable, into, inner);
        inner = new Set(inner).add(clause.variable);
      }
    }
    if (node.key !== undefined) this.visit(node.key, into, inner);
    this.visit(node.element, into, inner);
  }
}

const functionReadsByRules = new WeakMap<CompiledRules, Map<string, ExprReads>>();

/**
 * What a macro with parameters reads beside its arguments: its bodies' reads of the state (its parameters
 * stand for the arguments, whose reads the call adds; it reads no temp, input or dice).
 */
function macroFunctionReads(rules: CompiledRules, name: string, depth: number): ExprReads | undefined {
  let cache = functionReadsByRules.get(rules);
  if (cache === undefined) {
    cache = new Map();
    functionReadsByRules.set(rules, cache);
  }
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const fn = rules.macroFunctions.get(name);
  if (fn === undefined) return undefined;
  if (depth > MAX_PRIVACY_MACRO_DEPTH) return ALL_PRIVATE;
  cache.set(name, ALL_PRIVATE);
  const value = new ReadsBuilder();
  for (const expr of [fn.by, fn.value, ...fn.cases.values()]) {
    if (expr !== undefined) value.merge(readsOf(rules, expr, depth + 1, fn.params).value);
  }
  const reads: ExprReads = { value: value.done(), rollDice: [] };
  cache.set(name, reads);
  return reads;
}

/** What an expression reads that may hold a private value: its value's sources, and its computed dice. */
export function exprReads(rules: CompiledRules, expression: Expression): ExprReads {
  return readsOf(rules, expression, 0);
}

/**
 * Whether an expression's value is private by what it reads of the state alone (directly or through a
 * macro). With no run to say which temps, inputs and loop items hold private values, this is what a note
 * template or a recorded roll can be judged by.
 */
export function readsPrivate(rules: CompiledRules, expression: Expression): boolean {
  return exprReads(rules, expression).value.privateState;
}

/** Whether the dice of a recorded roll (`roll(state.foe.damage_dice)`) come from a private field. */
export function rollDiceArePrivate(rules: CompiledRules, expression: Expression): boolean {
  const reads = exprReads(rules, expression);
  return reads.value.privateState || reads.rollDice.some((r) => r.reads.privateState);
}
