// Roll labels: what each recorded roll was for, from the rules around it — the event whose step rolled,
// the macro it was rolled in, the path the step writes, the number the expression made of it (its
// modifier), a table roll's entry, and the test the rolled value was put to (`temp.to_hit >=
// state.foe.armor`). Labels are written beside the dice, never into them: the generator is drawn exactly
// as without labels, so a record's dice replay the same whether or not it carries labels.
//
// Only expressions that can roll are wrapped (found once, when the event is lowered), so a step that
// rolls nothing runs as it did.

import type { CheckOp, RollLabel, RollRecord } from '../dice.ts';
import type { Expr, Expression } from '../expr/ast.ts';
import { exprText } from '../expr/parser.ts';
import { compareLink } from '../expr/runtime.ts';
import { walkExpr } from '../expr/walk.ts';
import type { CompiledRules, Operand, Step, Target } from '../program.ts';
import { formatValue } from '../python.ts';
import type { Value } from '../values.ts';
import { withPlace } from './errors.ts';

/** What labelling needs of the machine running a step (run/machine.ts's Machine is one). */
export interface LabelSite {
  readonly dice: { readonly rolls: RollRecord[] };
  readonly event: { readonly name: string } | undefined;
  /** Index of the current run's first roll: a test links only to rolls of its own run. */
  readonly firstRoll: number;
}

type Fn<M> = (m: M) => Value;

/** Macro nesting followed when deciding whether an expression rolls (deeper is taken to roll). */
const MAX_MACRO_DEPTH = 16;

type MutableLabel = { -readonly [K in keyof RollLabel]: RollLabel[K] };

/**
 * The label of roll `index`, to fill in. A label is created with its roll's record in the run that rolled
 * it, and only that run fills it in (a test links to rolls of its own run), so it is written in place: no
 * copy per roll on the hot path. A record without one gets one here: the generator's own records (fresh, the
 * run's alone) take it in place, as their last key; a frozen one (dice a test scripts) or one the privacy
 * pass marked is replaced by a copy, its keys in the order they always had.
 */
function labelOf(rolls: RollRecord[], index: number): MutableLabel | undefined {
  const roll = rolls[index];
  if (roll === undefined) return undefined;
  if (roll.label !== undefined) return roll.label as MutableLabel;
  const label: MutableLabel = {};
  if (roll.private !== true && !Object.isFrozen(roll)) {
    (roll as { label?: RollLabel }).label = label;
    return label;
  }
  // A roll the privacy pass marked (run/privacy.ts) keeps its mark.
  rolls[index] =
    roll.private === true
      ? { expr: roll.expr, dice: roll.dice, faces: roll.faces, total: roll.total, private: true, label }
      : { expr: roll.expr, dice: roll.dice, faces: roll.faces, total: roll.total, label };
  return label;
}

/** Labels the roll just made with the event (and macro) it was rolled in (run/machine.ts). */
export function labelLastRoll(rolls: RollRecord[], event: string, macro: string | undefined): void {
  const label = labelOf(rolls, rolls.length - 1);
  if (label === undefined) return;
  label.event = event;
  if (macro !== undefined) label.macro = macro;
}

const rollingByRules = new WeakMap<CompiledRules, Map<string, boolean>>();

/** Whether evaluating the expression may roll dice, through the macros it reads too. */
export function mayRoll(node: Expr, rules: CompiledRules, depth = 0): boolean {
  if (depth > MAX_MACRO_DEPTH) return true;
  let found = false;
  walkExpr(node, (n) => {
    if (found) return false;
    if (n.kind === 'call' && n.callee === 'roll') found = true;
    else if (n.kind === 'attribute' && n.object.kind === 'name' && n.object.name === 'macros') {
      if (macroRolls(n.name, rules, depth + 1)) found = true;
    }
    return !found;
  });
  return found;
}

function macroRolls(name: string, rules: CompiledRules, depth: number): boolean {
  let known = rollingByRules.get(rules);
  if (known === undefined) {
    known = new Map();
    rollingByRules.set(rules, known);
  }
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  // A macro cycle (refused at load) reads as rolling while it is being decided: the walk stops.
  known.set(name, true);
  const def = rules.macros.get(name);
  const rolls = def !== undefined && mayRoll(def.ast, rules, depth);
  known.set(name, rolls);
  return rolls;
}

const rolledTempsByRules = new WeakMap<CompiledRules, ReadonlySet<string>>();

function staticTemp(target: Target): string | undefined {
  return target.kind === 'static' && target.root === 'temp' ? target.text : undefined;
}

function operandRolls(op: Operand, rules: CompiledRules): boolean {
  return op.kind === 'expr' && mayRoll(op.expr.ast, rules);
}

/** `temp.*` paths some step of the rules writes with a rolled value (tests of them are checks). */
function rolledTemps(rules: CompiledRules): ReadonlySet<string> {
  const cached = rolledTempsByRules.get(rules);
  if (cached !== undefined) return cached;
  const out = new Set<string>();
  const visit = (steps: readonly Step[]): void => {
    for (const step of steps) {
      if (step.kind === 'set' || step.kind === 'mutate' || step.kind === 'table_roll') {
        const temp = staticTemp(step.target);
        const value = step.kind === 'table_roll' ? step.roll : step.value;
        if (temp !== undefined && operandRolls(value, rules)) out.add(temp);
      } else if (step.kind === 'branch') {
        for (const arm of step.arms) visit(arm.steps);
      } else if (step.kind === 'foreach') {
        visit(step.steps);
      }
    }
  };
  for (const event of rules.events.values()) visit(event.steps);
  rolledTempsByRules.set(rules, out);
  return out;
}

/** `temp.a.b` written as a plain path: its text, else undefined. */
function tempPathText(node: Expr): string | undefined {
  const parts: string[] = [];
  let at: Expr = node;
  while (at.kind === 'attribute') {
    parts.unshift(at.name);
    at = at.object;
  }
  return at.kind === 'name' && at.name === 'temp' && parts.length > 0 ? `temp.${parts.join('.')}` : undefined;
}

/** The path text a step writes, when it is written out (`temp.damage`); undefined for a computed one. */
export function writtenPath(target: Target): string | undefined {
  return target.kind === 'static' ? target.text : undefined;
}

function textOf(expr: Expression, node: Expr): string {
  return exprText(expr, node.span).trim();
}

/** Labels the rolls made in [from, end): the path written, and the value when there was one roll. */
function labelSince(m: LabelSite, from: number, writes: string | undefined, value: Value, of: string): void {
  const rolls = m.dice.rolls;
  const to = rolls.length;
  if (to === from) return;
  const one = to - from === 1 && typeof value === 'number' && Number.isFinite(value);
  for (let i = from; i < to; i++) {
    const label = labelOf(rolls, i)!;
    if (writes !== undefined) label.writes = writes;
    if (one) {
      label.value = value as number;
      label.of = of;
    }
  }
}

/**
 * The operand, labelling the rolls it makes with the path the step writes and the number it made of them.
 * An operand that cannot roll is returned as it is.
 */
export function labelledOperand<M extends LabelSite>(
  fn: Fn<M>,
  op: Operand,
  rules: CompiledRules,
  writes: string | undefined,
): Fn<M> {
  if (op.kind !== 'expr' || !mayRoll(op.expr.ast, rules)) return fn;
  const of = textOf(op.expr, op.expr.ast);
  return (m) => {
    const from = m.dice.rolls.length;
    const value = fn(m);
    labelSince(m, from, writes, value, of);
    return value;
  };
}

/** A table roll's entry, on the one roll made since `from`. */
export function labelTableEntry(m: LabelSite, from: number, entry: Value): void {
  const rolls = m.dice.rolls;
  if (rolls.length - from !== 1) return;
  labelOf(rolls, from)!.entry = typeof entry === 'string' ? entry : formatValue(entry);
}

const CHECK_OPS: ReadonlySet<string> = new Set<CheckOp>(['>=', '>', '<=', '<', '==', '!=']);
const FLIPPED: Readonly<Record<CheckOp, CheckOp>> = {
  '>=': '<=',
  '>': '<',
  '<=': '>=',
  '<': '>',
  '==': '==',
  '!=': '!=',
};

/**
 * A branch test, as a check when it compares one rolled number with anything else: `macros.attack >=
 * state.foe.armor` (rolled in the test) or `temp.to_hit >= state.foe.armor` (a `temp` path a rolling step
 * writes). The test is evaluated as before — the two sides once each, left then right, compared as the
 * expression would — and the roll is labelled with what it was tested against and whether it held. Any
 * other test is returned as it is.
 */
export function checkedTest<M extends LabelSite>(
  plain: Fn<M>,
  op: Operand,
  rules: CompiledRules,
  lowerSide: (side: Operand) => Fn<M>,
): Fn<M> {
  if (op.kind !== 'expr') return plain;
  const { expr, place } = op;
  const ast = expr.ast;
  if (ast.kind !== 'compare' || ast.ops.length !== 1 || !CHECK_OPS.has(ast.ops[0]!)) return plain;
  const [left, right] = ast.operands as [Expr, Expr];
  const leftRolls = mayRoll(left, rules);
  const rightRolls = mayRoll(right, rules);
  if (leftRolls && rightRolls) return plain;
  const temps = rolledTemps(rules);
  const leftTemp = tempPathText(left);
  const rightTemp = tempPathText(right);
  const rolledSide: 'left' | 'right' | undefined =
    leftRolls || (!rightRolls && leftTemp !== undefined && temps.has(leftTemp))
      ? 'left'
      : rightRolls || (rightTemp !== undefined && temps.has(rightTemp))
        ? 'right'
        : undefined;
  if (rolledSide === undefined) return plain;
  const rolledHere = rolledSide === 'left' ? leftRolls : rightRolls;
  const rolledTemp = rolledSide === 'left' ? leftTemp : rightTemp;
  const opWritten = ast.ops[0] as CheckOp;
  const checkOp = rolledSide === 'left' ? opWritten : FLIPPED[opWritten];
  const side = (node: Expr): Fn<M> => lowerSide({ kind: 'expr', expr: { ...expr, ast: node }, place });
  const leftFn = side(left);
  const rightFn = side(right);
  const rolledText = textOf(expr, rolledSide === 'left' ? left : right);
  const againstText = textOf(expr, rolledSide === 'left' ? right : left);
  const span = ast.span;
  return (m) => {
    const from = m.dice.rolls.length;
    const a = leftFn(m);
    const mid = m.dice.rolls.length;
    const b = rightFn(m);
    let passed: boolean;
    try {
      passed = compareLink(opWritten, a, b, span);
    } catch (error) {
      throw withPlace(error, place, expr);
    }
    const rolled = rolledSide === 'left' ? a : b;
    const against = rolledSide === 'left' ? b : a;
    if (typeof rolled !== 'number' || typeof against !== 'number') return passed;
    const check = { op: checkOp, against, of: againstText, passed };
    const rolls = m.dice.rolls;
    if (rolledHere) {
      const [start, end] = rolledSide === 'left' ? [from, mid] : [mid, rolls.length];
      if (end - start === 1) {
        const label = labelOf(rolls, start)!;
        label.value = rolled;
        label.of = rolledText;
        label.check = check;
      }
      return passed;
    }
    for (let i = rolls.length - 1; i >= m.firstRoll; i--) {
      if (rolls[i]!.label?.writes === rolledTemp) {
        labelOf(rolls, i)!.check = check;
        break;
      }
    }
    return passed;
  };
}
