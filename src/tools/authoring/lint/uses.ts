// What a cartridge's compiled rules read and write: state paths read by expressions, static write
// targets, macros used, events called. The linter's raw material; pure, over the compiled program.

import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { CompiledRules, Expr, Operand, Step, Target } from '../../../core/yare/index.ts';
import { forEachChild } from '../../../core/yare/index.ts';

export interface Write {
  readonly path: readonly string[];
  readonly place: SourcePlace;
  /** Names the written value reads (`inputs.destination`, `temp.damage`), to match a note mentioning them. */
  readonly valueReads: readonly string[];
}

export interface EventUses {
  readonly reads: string[][];
  readonly writes: Write[];
  /** Dotted names each note reads (`state.foe.hp`, `temp.damage`, `inputs.item`). */
  readonly noteReads: string[][];
  /** Note steps written in the event. */
  notes: number;
  readonly calls: string[];
  readonly macros: string[];
  /** A write whose path is computed at run time: any field may be written. */
  dynamicWrite: boolean;
}

/** Dotted names an expression reads: attribute chains on a name (`state.a.b`, `inputs.x`, `macros.m`). */
export function namesRead(expr: Expr, out: string[][] = []): string[][] {
  const visit = (node: Expr): void => {
    switch (node.kind) {
      case 'name':
      case 'attribute': {
        const path = attributeChain(node);
        if (path) out.push(path);
        else if (node.kind === 'attribute') visit(node.object);
        return;
      }
      case 'comprehension':
        comprehensionReads(node, out);
        return;
      case 'macroCall':
        out.push(['macros', node.name]);
        forEachChild(node, visit);
        return;
      default:
        // Every other node reads what its children read, in forEachChild's order (core/yare/expr/walk.ts).
        forEachChild(node, visit);
    }
  };
  visit(expr);
  return out;
}

/** The dotted name an attribute chain on a name spells (`state.a.b`), or undefined when it is on something else. */
function attributeChain(node: Expr): string[] | undefined {
  if (node.kind === 'name') return [node.name];
  if (node.kind === 'attribute') {
    const base = attributeChain(node.object);
    return base ? [...base, node.name] : undefined;
  }
  return undefined;
}

/** What a comprehension reads: paths on its own variables read no state. */
function comprehensionReads(node: Extract<Expr, { kind: 'comprehension' }>, out: string[][]): void {
  const variables = new Set<string>();
  const keep = (paths: string[][]) => {
    for (const path of paths) if (!variables.has(path[0]!)) out.push(path);
  };
  for (const clause of node.clauses) {
    keep(namesRead(clause.kind === 'for' ? clause.iterable : clause.test));
    if (clause.kind === 'for') variables.add(clause.variable);
  }
  if (node.key !== undefined) keep(namesRead(node.key));
  keep(namesRead(node.element));
}

export function operandReads(operand: Operand | undefined): string[][] {
  return operand?.kind === 'expr' ? namesRead(operand.expr.ast) : [];
}

/** Uses of one event's own steps (not of the events it calls). */
export function eventUses(steps: readonly Step[]): EventUses {
  const uses: EventUses = {
    reads: [],
    writes: [],
    noteReads: [],
    notes: 0,
    calls: [],
    macros: [],
    dynamicWrite: false,
  };
  const visit = (list: readonly Step[]): void => {
    for (const step of list) stepUses(step, uses, visit);
  };
  visit(steps);
  for (const path of uses.reads) if (path[0] === 'macros' && path[1] !== undefined) uses.macros.push(path[1]);
  return uses;
}

function readOperand(uses: EventUses, operand: Operand | undefined): void {
  for (const path of operandReads(operand)) uses.reads.push(path);
}

function writeTarget(uses: EventUses, target: Target, place: SourcePlace, value: Operand[]): void {
  if (target.kind === 'dynamic') {
    uses.dynamicWrite = true;
    readOperand(uses, target.expr);
    return;
  }
  if (target.kind === 'computed') {
    // Which record or key is written is known when the step runs.
    uses.dynamicWrite = true;
    for (const part of target.parts) if (part.kind === 'key') readOperand(uses, part.key);
    return;
  }
  if (target.root === 'state')
    uses.writes.push({
      path: target.path,
      place,
      valueReads: value.flatMap((v) => operandReads(v).map((p) => p.join('.'))),
    });
}

/** What one step reads and writes (`visit` goes into the steps it holds). */
function stepUses(step: Step, uses: EventUses, visit: (list: readonly Step[]) => void): void {
  switch (step.kind) {
    case 'set':
    case 'mutate':
      assignUses(step, uses);
      break;
    case 'branch':
      for (const arm of step.arms) {
        readOperand(uses, arm.test);
        visit(arm.steps);
      }
      break;
    case 'table_roll':
      tableRollUses(step, uses);
      break;
    case 'call':
      uses.calls.push(step.event);
      for (const a of step.args) readOperand(uses, a.value);
      break;
    case 'note':
      noteUses(step, uses);
      break;
    case 'list_push':
      readOperand(uses, step.item);
      writeTarget(uses, step.target, step.place, [step.item]);
      break;
    case 'list_remove':
      listRemoveUses(step, uses);
      break;
    case 'dict_set':
      readOperand(uses, step.key);
      readOperand(uses, step.value);
      writeTarget(uses, step.target, step.place, [step.value]);
      break;
    case 'dict_delete':
      readOperand(uses, step.key);
      writeTarget(uses, step.target, step.place, []);
      break;
    case 'create':
      createUses(step, uses);
      break;
    case 'foreach':
      foreachUses(step, uses, visit);
      break;
  }
}

type StepOf<K extends Step['kind']> = Extract<Step, { kind: K }>;

/** A set or a mutate: reads its value; a mutate also reads what it changes. */
function assignUses(step: StepOf<'set' | 'mutate'>, uses: EventUses): void {
  readOperand(uses, step.value);
  writeTarget(uses, step.target, step.place, [step.value]);
  if (step.kind === 'mutate' && step.target.kind === 'static')
    uses.reads.push([step.target.root, ...step.target.path]);
}

function tableRollUses(step: StepOf<'table_roll'>, uses: EventUses): void {
  readOperand(uses, step.roll);
  for (const row of step.table) readOperand(uses, row.value);
  writeTarget(
    uses,
    step.target,
    step.place,
    step.table.map((r) => r.value),
  );
}

/** A note's reads count both as reads and as what the note mentions. */
function noteUses(step: StepOf<'note'>, uses: EventUses): void {
  uses.notes += 1;
  const reads: string[][] = [];
  for (const part of step.parts) if (typeof part !== 'string') reads.push(...operandReads(part));
  uses.noteReads.push(...reads.map((r) => r));
  uses.reads.push(...reads);
}

function listRemoveUses(step: StepOf<'list_remove'>, uses: EventUses): void {
  readOperand(uses, step.index);
  readOperand(uses, step.value);
  writeTarget(
    uses,
    step.target,
    step.place,
    [step.index, step.value].filter((o): o is Operand => o !== undefined),
  );
}

/** A create writes its collection's new record (and its target, when it names one). */
function createUses(step: StepOf<'create'>, uses: EventUses): void {
  for (const v of step.values) readOperand(uses, v.value);
  const values = step.values.map((v) => v.value);
  uses.writes.push({
    path: step.collection.segments.slice(1),
    place: step.place,
    valueReads: values.flatMap((v) => operandReads(v).map((p) => p.join('.'))),
  });
  if (step.target !== undefined) writeTarget(uses, step.target, step.place, []);
}

function foreachUses(step: StepOf<'foreach'>, uses: EventUses, visit: (list: readonly Step[]) => void): void {
  if (step.array.kind === 'path') {
    if (step.array.target.kind === 'static')
      uses.reads.push([step.array.target.root, ...step.array.target.path]);
  } else readOperand(uses, step.array);
  visit(step.steps);
}

/** State paths every macro and every invariant reads, and the macros each of them uses. */
export function macroReads(rules: CompiledRules): { reads: string[][]; macros: string[] } {
  const reads: string[][] = [];
  const macros: string[] = [];
  const functions = [...rules.macroFunctions.values()].flatMap((f) =>
    [f.by, f.value, ...f.cases.values()].filter((e) => e !== undefined),
  );
  for (const expr of [...rules.macros.values(), ...functions, ...rules.invariants.map((i) => i.expr)]) {
    for (const path of namesRead(expr.ast)) {
      reads.push(path);
      if (path[0] === 'macros' && path[1] !== undefined) macros.push(path[1]);
    }
  }
  return { reads, macros };
}
