// Check pass, steps: each raw step resolved in its event's scope — operands and targets (check-values.ts),
// `call` targets and their arguments against the callee's inputs, note templates (injection, each
// `{expression}`), branch arms, foreach locals — into the checked steps of program.ts that the run stage
// lowers to closures (run/lower.ts). The problems the shape pass left on a step are reported as the walk
// reaches them, so findings keep the order of the file.

import type { BranchArm, InputSpec, NotePart, Operand, Step, TableKey, Target } from '../program.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { iteratedRecord, withLocal } from '../check.ts';
import { RECORD_ID, unknownProperty } from '../schema-records.ts';
import { PENDING_KEY, schemaAt, undeclaredPathMessage } from '../schema.ts';
import { type CheckContext, type EventScope, reportShapeProblem, reportShapeProblems } from './context.ts';
import { assertNever, checkOperand, checkOperandExpr, checkTarget } from './check-values.ts';
import type { SourcePlace } from '../../diagnostics.ts';
import { YareError } from '../errors.ts';
import { toStateValue } from '../python.ts';
import type { StateValue } from '../values.ts';
import type { RawField, RawLiteral, RawStep, RawStepList } from './raw-ast.ts';

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
    case 'create':
      return checkCreateStep(ctx, raw, scope);
    case 'foreach':
      return checkForeachStep(ctx, raw, scope);
    default:
      return assertNever(raw);
  }
}

/**
 * `create`: `in:` a `state.` path naming a collection exactly; `record:` only its properties (not `id`,
 * which the engine makes), each value an operand; `var:` where the id goes, if given.
 */
function checkCreateStep(ctx: CheckContext, raw: RawStepOf<'create'>, scope: EventScope): Step | undefined {
  const written = present(ctx, raw.collection);
  const given = present(ctx, raw.values) ?? [];
  const collection =
    written === undefined ? undefined : createdIn(ctx, written.text, written.place, raw.where);
  const values: { name: string; value: Operand }[] = [];
  for (const entry of given) {
    const problem =
      collection === undefined
        ? undefined
        : entry.name === RECORD_ID
          ? `'${RECORD_ID}' is made by the engine; a create step gives the other properties.`
          : unknownProperty(collection.record, entry.name);
    if (problem !== undefined)
      ctx.sink.error('YARE_BAD_STEP', `${raw.where}.record: ${problem}`, entry.place);
    const value = checkOperand(ctx, entry.value, scope);
    if (value !== undefined && problem === undefined) values.push({ name: entry.name, value });
  }
  const target = raw.target === undefined ? undefined : checkTarget(ctx, raw.target, scope, raw.where);
  if (collection === undefined || (raw.target !== undefined && target === undefined)) return undefined;
  return { kind: 'create', collection, values, target, place: raw.place };
}

/** The collection a create step's `in:` names, or undefined (reported) when it names none. */
function createdIn(
  ctx: CheckContext,
  text: string,
  place: SourcePlace,
  where: string,
): Extract<Step, { kind: 'create' }>['collection'] | undefined {
  const segments = text.split('.');
  const node = segments[0] === 'state' ? schemaAt(ctx.schema, segments.slice(1)) : undefined;
  const record = node?.kind === 'field' && node.path.length === segments.length - 1 ? node.record : undefined;
  if (record !== undefined) return { segments, text, record };
  const why =
    segments[0] !== 'state'
      ? `${text} must be a state. path to a collection.`
      : node === undefined
        ? undeclaredPathMessage(ctx.schema, segments.slice(1))
        : `${text} is no collection (a field of type: collection).`;
  ctx.sink.error('YARE_BAD_STEP', `${where}.in: ${why}`, place);
  return undefined;
}

function checkSetStep(ctx: CheckContext, raw: RawStepOf<'set'>, scope: EventScope): Step | undefined {
  const target = checkTarget(ctx, present(ctx, raw.target), scope, raw.where);
  const value = checkOperand(ctx, present(ctx, raw.value), scope);
  if (target?.kind === 'static' && target.root === 'state' && target.path.join('.') === PENDING_KEY) {
    if (raw.resolver) ctx.resolverNames.set(raw.resolver.name, raw.resolver.place);
    const check = ctx.options.checkPendingInteraction;
    const json = raw.literal && check ? literalJson(raw.literal) : undefined;
    if (raw.literal && check && json !== undefined)
      ctx.sink.items.push(...check(json, placeInLiteral(raw.literal)));
  }
  return target && value ? { kind: 'set', target, value, place: raw.place } : undefined;
}

/** A literal as JSON; undefined when JSON cannot hold it (`.inf`: the write fails when it runs). */
function literalJson(literal: RawLiteral): StateValue | undefined {
  try {
    return toStateValue(literal.value);
  } catch (error) {
    if (error instanceof YareError) return undefined;
    throw error;
  }
}

/** The place of a path in a literal: its node's, or the nearest enclosing node's when it is not there. */
function placeInLiteral(literal: RawLiteral): (path: readonly (string | number)[]) => SourcePlace {
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      const place = literal.places.get(JSON.stringify(path.slice(0, n)));
      if (place) return place;
    }
    return literal.places.get('[]')!;
  };
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
  // The item of a loop over `values(state.objs)` is a record: its properties are checked too.
  const items =
    array?.kind === 'expr'
      ? iteratedRecord(array.expr.ast, { schema: ctx.schema, recordLocals: scope.recordLocals })
      : undefined;
  const inner: EventScope = withLocal(
    withLocal(scope, raw.indexName.name, undefined),
    raw.itemName.name,
    items,
  );
  const stepList = present(ctx, raw.steps);
  const steps = stepList ? checkSteps(ctx, stepList, inner) : [];
  const itemName = raw.itemName.name;
  const indexName = raw.indexName.name;
  return array ? { kind: 'foreach', array, itemName, indexName, steps, place: raw.place } : undefined;
}
