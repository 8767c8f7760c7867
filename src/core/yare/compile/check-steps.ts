// Check pass, steps: each raw step resolved in its event's scope — operands and targets (check-values.ts),
// `call` targets and their arguments against the callee's inputs, note templates (injection, each
// `{expression}`), branch arms, foreach locals — into the checked steps of program.ts that the run stage
// lowers to closures (run/lower.ts). The problems the shape pass left on a step are reported as the walk
// reaches them, so findings keep the order of the file.

import type { BranchArm, InputSpec, NotePart, Operand, Step, TableKey, Target } from '../program.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { PENDING_KEY } from '../schema.ts';
import { type CheckContext, type EventScope, reportShapeProblem, reportShapeProblems } from './context.ts';
import { assertNever, checkOperand, checkOperandExpr, checkTarget } from './check-values.ts';
import type { RawField, RawStep, RawStepList } from './raw-ast.ts';

export function checkSteps(ctx: CheckContext, list: RawStepList, scope: EventScope): Step[] {
  reportShapeProblems(ctx, list.problems);
  const steps: Step[] = [];
  for (const raw of list.items) {
    const step = checkStep(ctx, raw, scope);
    if (step) steps.push(step);
  }
  return steps;
}

/** A required field: its missing-field problem first, then its content. */
function present<T>(ctx: CheckContext, field: RawField<T>): T | undefined {
  reportShapeProblem(ctx, field.missing);
  return field.raw;
}

type RawStepOf<K extends RawStep['kind']> = Extract<RawStep, { kind: K }>;

export function checkStep(ctx: CheckContext, raw: RawStep, scope: EventScope): Step | undefined {
  if (raw.kind === 'invalid') {
    reportShapeProblem(ctx, raw.problem);
    return undefined;
  }
  reportShapeProblems(ctx, raw.problems);
  switch (raw.kind) {
    case 'set':
      return checkSetStep(ctx, raw, scope);
    case 'mutate':
      return checkMutateStep(ctx, raw, scope);
    case 'branch':
    case 'branch-if':
    case 'branch-refused':
      return checkBranchStep(ctx, raw, scope);
    case 'table_roll':
      return checkTableRollStep(ctx, raw, scope);
    case 'call':
      return checkCallStep(ctx, raw, scope);
    case 'note':
      return checkNoteStep(ctx, raw, scope);
    case 'list_push': {
      const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
      const item = checkOperand(ctx, raw.item, scope);
      return target && item ? { kind: 'list_push', target, item, place: raw.place } : undefined;
    }
    case 'list_remove': {
      const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
      if (raw.which.kind === 'refused') {
        reportShapeProblem(ctx, raw.which.problem);
        return undefined;
      }
      const operand = checkOperand(ctx, raw.which.operand, scope);
      const index = raw.which.kind === 'index' ? operand : undefined;
      const value = raw.which.kind === 'value' ? operand : undefined;
      return target ? { kind: 'list_remove', target, index, value, place: raw.place } : undefined;
    }
    case 'dict_set': {
      const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
      const key = checkOperand(ctx, present(ctx, raw.key), scope);
      const value = checkOperand(ctx, present(ctx, raw.value), scope);
      return target && key && value ? { kind: 'dict_set', target, key, value, place: raw.place } : undefined;
    }
    case 'dict_delete': {
      const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
      const key = checkOperand(ctx, present(ctx, raw.key), scope);
      return target && key ? { kind: 'dict_delete', target, key, place: raw.place } : undefined;
    }
    case 'foreach':
      return checkForeachStep(ctx, raw, scope);
    default:
      return assertNever(raw);
  }
}

function checkSetStep(ctx: CheckContext, raw: RawStepOf<'set'>, scope: EventScope): Step | undefined {
  const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
  const value = checkOperand(ctx, present(ctx, raw.value), scope);
  if (
    raw.resolver &&
    target?.kind === 'static' &&
    target.root === 'state' &&
    target.path.join('.') === PENDING_KEY
  ) {
    ctx.resolverNames.set(raw.resolver.name, raw.resolver.place);
  }
  return target && value ? { kind: 'set', target, value, place: raw.place } : undefined;
}

function checkMutateStep(ctx: CheckContext, raw: RawStepOf<'mutate'>, scope: EventScope): Step | undefined {
  const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
  const op = present(ctx, raw.op);
  if (raw.op.problem) {
    reportShapeProblem(ctx, raw.op.problem);
    return undefined;
  }
  const value = checkOperand(ctx, present(ctx, raw.value), scope);
  return target && value && op ? { kind: 'mutate', target, op, value, place: raw.place } : undefined;
}

function checkBranchStep(
  ctx: CheckContext,
  raw: RawStepOf<'branch' | 'branch-if' | 'branch-refused'>,
  scope: EventScope,
): Step | undefined {
  switch (raw.kind) {
    case 'branch-refused':
      reportShapeProblem(ctx, raw.problem);
      return undefined;
    case 'branch-if': {
      const test = checkOperand(ctx, raw.test, scope);
      if (!test) return undefined;
      const arms: BranchArm[] = [{ test, steps: checkSteps(ctx, raw.steps, scope) }];
      if (raw.orElse) arms.push({ test: undefined, steps: checkSteps(ctx, raw.orElse, scope) });
      return { kind: 'branch', arms, place: raw.place };
    }
    case 'branch': {
      const arms: BranchArm[] = [];
      for (const arm of raw.arms) {
        reportShapeProblems(ctx, arm.problems);
        if (arm.kind === 'refused') continue;
        const test = arm.test === undefined ? undefined : checkOperand(ctx, arm.test, scope);
        // An arm whose test is refused is left out, and its steps are not read.
        if (arm.test !== undefined && !test) continue;
        arms.push({ test, steps: checkSteps(ctx, arm.steps, scope) });
      }
      return { kind: 'branch', arms, place: raw.place };
    }
    default:
      return assertNever(raw);
  }
}

function checkTableRollStep(
  ctx: CheckContext,
  raw: RawStepOf<'table_roll'>,
  scope: EventScope,
): Step | undefined {
  const roll = checkOperand(ctx, present(ctx, raw.roll), scope);
  const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
  const rows = present(ctx, raw.table) ?? [];
  reportShapeProblem(ctx, raw.table.problem);
  const table: { key: TableKey; value: Operand }[] = [];
  for (const row of rows) {
    if (row.kind === 'refused') {
      reportShapeProblem(ctx, row.problem);
      continue;
    }
    const value = checkOperand(ctx, row.value, scope);
    if (value) table.push({ key: row.key, value });
  }
  return roll && target ? { kind: 'table_roll', roll, target, table, place: raw.place } : undefined;
}

function checkCallStep(ctx: CheckContext, raw: RawStepOf<'call'>, scope: EventScope): Step | undefined {
  const { where, place } = raw;
  const callee = present(ctx, raw.event);
  const eventName = callee?.name;
  if (typeof eventName !== 'string' || !ctx.events.has(eventName)) {
    if (callee !== undefined) {
      ctx.sink.error(
        'YARE_UNKNOWN_EVENT',
        `${where} calls undefined event ${JSON.stringify(eventName)}. Declared events: ${[...ctx.events.keys()].join(', ')}.${typeof eventName === 'string' ? didYouMean(eventName, ctx.events.keys()) : ''}`,
        callee.place,
      );
    }
    return undefined;
  }
  const calleeInputs = ctx.eventInputs.get(eventName) ?? new Map<string, InputSpec>();
  const args: { name: string; value: Operand }[] = [];
  if (raw.args.kind === 'refused') reportShapeProblem(ctx, raw.args.problem);
  else {
    for (const arg of raw.args.items) {
      if (!calleeInputs.has(arg.name)) {
        ctx.sink.error(
          'YARE_UNKNOWN_INPUT',
          `${where}: '${eventName}' has no input '${arg.name}'.${didYouMean(arg.name, calleeInputs.keys())}`,
          arg.place,
        );
        continue;
      }
      const value = checkOperand(ctx, arg.value, scope);
      if (value) args.push({ name: arg.name, value });
    }
  }
  for (const spec of calleeInputs.values()) {
    if (
      spec.required &&
      !spec.hasDefault &&
      spec.type !== undefined &&
      !args.some((a) => a.name === spec.name)
    ) {
      ctx.sink.error(
        'YARE_BAD_STEP',
        `${where}: call to '${eventName}' is missing its required input '${spec.name}'.`,
        place,
      );
    }
  }
  return { kind: 'call', event: eventName, args, place };
}

function checkNoteStep(ctx: CheckContext, raw: RawStepOf<'note'>, scope: EventScope): Step | undefined {
  const note = present(ctx, raw.message);
  if (note === undefined) return undefined;
  if (note.kind === 'refused') {
    reportShapeProblem(ctx, note.problem);
    return undefined;
  }
  const injection = ctx.options.checkInjection?.(note.template);
  if (injection) {
    ctx.sink.error('CART_INJECTION', `${raw.where}.message: ${injection}`, note.place);
    return undefined;
  }
  const parts: NotePart[] = [];
  for (const part of note.parts) {
    if (typeof part === 'string') {
      parts.push(part);
      continue;
    }
    if (!part.expr.ok) {
      reportShapeProblem(ctx, part.expr.problem);
      continue;
    }
    checkOperandExpr(ctx, part.expr.expr, scope, part.base, part.place);
    parts.push({ kind: 'expr', expr: part.expr.expr, place: part.place });
  }
  return { kind: 'note', parts, template: note.template, place: raw.place };
}

function checkForeachStep(ctx: CheckContext, raw: RawStepOf<'foreach'>, scope: EventScope): Step | undefined {
  const arrayRaw = present(ctx, raw.array);
  reportShapeProblem(ctx, raw.itemName.problem);
  reportShapeProblem(ctx, raw.indexName.problem);
  let array: Operand | { kind: 'path'; target: Target } | undefined;
  if (arrayRaw?.kind === 'path') {
    const target = checkTarget(ctx, arrayRaw.target, scope, raw.where);
    array = target ? { kind: 'path', target } : undefined;
  } else {
    array = checkOperand(ctx, arrayRaw?.operand, scope);
  }
  const inner: EventScope = {
    inputs: scope.inputs,
    locals: new Set([...scope.locals, raw.itemName.name, raw.indexName.name]),
  };
  const stepList = present(ctx, raw.steps);
  const steps = stepList ? checkSteps(ctx, stepList, inner) : [];
  const itemName = raw.itemName.name;
  const indexName = raw.indexName.name;
  return array ? { kind: 'foreach', array, itemName, indexName, steps, place: raw.place } : undefined;
}
