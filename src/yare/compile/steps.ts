// Pass 3, check steps: each step's shape (a known action, its fields, the required ones) and its parts
// resolved — expressions parsed and checked in the event's scope, `var:` targets checked against the
// schema, `call` targets and their arguments, table keys, foreach locals — into the checked steps of
// program.ts that the run stage lowers to closures (run/lower.ts).

import type { SourcePlace } from '../../diagnostics.ts';
import { type CheckFinding, checkStatePath } from '../check.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { MAX_NOTE_TEMPLATE_LENGTH } from '../limits.ts';
import type {
  BranchArm,
  InputSpec,
  MutateOp,
  NotePart,
  Operand,
  Step,
  TableKey,
  Target,
} from '../program.ts';
import { PENDING_KEY, RESERVED_NAMES, schemaAt } from '../schema.ts';
import { type CompileContext, type EventScope, IDENTIFIER } from './context.ts';
import { checkOperandExpr, parseExpressionAt, parseScalarExpression } from './expressions.ts';
import {
  contentOffset,
  getNode,
  getPair,
  isMap,
  isScalar,
  isSeq,
  mapPairs,
  placeAtOffset,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from '../yaml-nodes.ts';

const STEP_FIELDS: Readonly<Record<Step['kind'], readonly string[]>> = {
  set: ['var', 'value'],
  mutate: ['var', 'op', 'value'],
  branch: ['conditions', 'if', 'steps', 'else'],
  table_roll: ['roll', 'var', 'table'],
  call: ['event', 'args'],
  note: ['message'],
  list_push: ['var', 'item', 'value'],
  list_remove: ['var', 'index', 'value'],
  dict_set: ['var', 'key', 'value'],
  dict_delete: ['var', 'key'],
  foreach: ['array', 'item', 'index', 'steps'],
};
const ACTIONS = Object.keys(STEP_FIELDS) as Step['kind'][];
const MUTATE_OPS: readonly MutateOp[] = ['add', 'sub', 'mul', 'div'];

export function checkSteps(ctx: CompileContext, node: unknown, scope: EventScope, where: string): Step[] {
  if (node === null || (isScalar(node) && node.value === null)) return [];
  if (!isSeq(node)) {
    ctx.sink.error('YARE_BAD_STEP', `${where} must be a list of steps.`, placeOfNode(ctx.src, node));
    return [];
  }
  const steps: Step[] = [];
  node.items.forEach((item, i) => {
    const step = checkStep(ctx, item, scope, `${where}[${i}]`);
    if (step) steps.push(step);
  });
  return steps;
}

export function checkStep(
  ctx: CompileContext,
  node: unknown,
  scope: EventScope,
  where: string,
): Step | undefined {
  const place = placeOfNode(ctx.src, node);
  if (!isMap(node)) {
    ctx.sink.error('YARE_BAD_STEP', `${where} must be a mapping with an action: key.`, place);
    return undefined;
  }
  const actionRaw = scalarOf(getNode(node, 'action'));
  if (typeof actionRaw !== 'string' || !(ACTIONS as string[]).includes(actionRaw)) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}: unknown action ${JSON.stringify(actionRaw ?? null)}. Actions are: ${ACTIONS.join(', ')}.${typeof actionRaw === 'string' ? didYouMean(actionRaw, ACTIONS) : ''}`,
      place,
    );
    return undefined;
  }
  const action = actionRaw as Step['kind'];
  const allowed = new Set(['action', ...STEP_FIELDS[action]]);
  for (const { key, pair } of mapPairs(node)) {
    if (!allowed.has(key)) {
      ctx.sink.error(
        'YARE_BAD_STEP',
        `${where}: '${action}' has no field '${key}'. Its fields are: ${STEP_FIELDS[action].join(', ')}.${didYouMean(key, STEP_FIELDS[action])}`,
        placeOfNode(ctx.src, pair.key),
      );
    }
  }
  const field = (name: string): unknown => getNode(node, name);
  const required = (name: string): unknown => {
    const v = getPair(node, name);
    if (!v) ctx.sink.error('YARE_BAD_STEP', `${where}: '${action}' needs a '${name}' field.`, place);
    return v?.value;
  };
  return CHECK_ACTION[action]({ ctx, node, scope, where, place, field, required });
}

/** A step being checked: its node, scope and place, and readers of its fields. */
interface StepSite {
  readonly ctx: CompileContext;
  readonly node: YAMLMap;
  readonly scope: EventScope;
  /** The step's path in the file, for messages: `events.attack.steps[2]`. */
  readonly where: string;
  readonly place: SourcePlace;
  /** A field's node, or undefined. */
  field(name: string): unknown;
  /** A field's node; a missing one is reported. */
  required(name: string): unknown;
}

/** The checker of each action. */
const CHECK_ACTION: Readonly<Record<Step['kind'], (site: StepSite) => Step | undefined>> = {
  set: checkSetStep,
  mutate: checkMutateStep,
  branch: checkBranchStep,
  table_roll: checkTableRollStep,
  call: checkCallStep,
  note: checkNoteStep,
  list_push: checkListPushStep,
  list_remove: checkListRemoveStep,
  dict_set: checkDictSetStep,
  dict_delete: checkDictDeleteStep,
  foreach: checkForeachStep,
};

function checkSetStep(site: StepSite): Step | undefined {
  const { ctx, node, scope, where, place, field, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const value = checkOperand(ctx, getPair(node, 'value') ? field('value') : required('value'), scope);
  if (target?.kind === 'static' && target.root === 'state' && target.path.join('.') === PENDING_KEY) {
    noteResolvers(ctx, field('value'));
  }
  return target && value ? { kind: 'set', target, value, place } : undefined;
}

function checkMutateStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const opNode = required('op');
  const op = scalarOf(opNode);
  if (opNode !== undefined && !(MUTATE_OPS as unknown[]).includes(op)) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}: mutate op ${JSON.stringify(op)} is unknown. Ops are: ${MUTATE_OPS.join(', ')}.`,
      placeOfNode(ctx.src, opNode),
    );
    return undefined;
  }
  const value = checkOperand(ctx, required('value'), scope);
  return target && value && op ? { kind: 'mutate', target, op: op as MutateOp, value, place } : undefined;
}

function checkBranchStep(site: StepSite): Step | undefined {
  const { ctx, node, scope, where, place } = site;
  return checkBranch(ctx, node, scope, where, place);
}

function checkTableRollStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, required } = site;
  const roll = checkOperand(ctx, required('roll'), scope);
  const target = checkTarget(ctx, required('var'), scope, where);
  const tableNode = required('table');
  const table: { key: TableKey; value: Operand }[] = [];
  if (tableNode !== undefined && !isMap(tableNode)) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}: table must be a mapping like { "1-5": goblin, "6+": orc }.`,
      placeOfNode(ctx.src, tableNode),
    );
  } else if (isMap(tableNode)) {
    for (const { key, pair, value } of mapPairs(tableNode)) {
      const parsed = parseTableKey(key);
      if (!parsed) {
        ctx.sink.error(
          'YARE_BAD_STEP',
          `${where}: table key '${key}' must be a number, a range like 1-5, or N+ like 11+.`,
          placeOfNode(ctx.src, pair.key),
        );
        continue;
      }
      const operand = checkOperand(ctx, value, scope);
      if (operand) table.push({ key: parsed, value: operand });
    }
  }
  return roll && target ? { kind: 'table_roll', roll, target, table, place } : undefined;
}

function checkCallStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, field, required } = site;
  const eventNode = required('event');
  const eventName = scalarOf(eventNode);
  if (typeof eventName !== 'string' || !ctx.eventNodes.has(eventName)) {
    if (eventNode !== undefined) {
      ctx.sink.error(
        'YARE_UNKNOWN_EVENT',
        `${where} calls undefined event ${JSON.stringify(eventName)}. Declared events: ${[...ctx.eventNodes.keys()].join(', ')}.${typeof eventName === 'string' ? didYouMean(eventName, ctx.eventNodes.keys()) : ''}`,
        placeOfNode(ctx.src, eventNode),
      );
    }
    return undefined;
  }
  const calleeInputs = ctx.eventInputs.get(eventName) ?? new Map<string, InputSpec>();
  const argsNode = field('args');
  const args: { name: string; value: Operand }[] = [];
  if (argsNode !== undefined && !(isScalar(argsNode) && argsNode.value === null)) {
    if (!isMap(argsNode)) {
      ctx.sink.error(
        'YARE_BAD_STEP',
        `${where}: args must be a mapping of input name: value.`,
        placeOfNode(ctx.src, argsNode),
      );
    } else {
      for (const { key, pair, value } of mapPairs(argsNode)) {
        if (!calleeInputs.has(key)) {
          ctx.sink.error(
            'YARE_UNKNOWN_INPUT',
            `${where}: '${eventName}' has no input '${key}'.${didYouMean(key, calleeInputs.keys())}`,
            placeOfNode(ctx.src, pair.key),
          );
          continue;
        }
        const operand = checkOperand(ctx, value, scope);
        if (operand) args.push({ name: key, value: operand });
      }
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

function checkNoteStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, required } = site;
  return checkNote(ctx, required('message'), scope, where, place);
}

function checkListPushStep(site: StepSite): Step | undefined {
  const { ctx, node, scope, where, place, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const itemPair = getPair(node, 'item') ?? getPair(node, 'value');
  if (!itemPair) {
    ctx.sink.error('YARE_BAD_STEP', `${where}: list_push needs an 'item' field.`, place);
    return undefined;
  }
  const item = checkOperand(ctx, itemPair.value, scope);
  return target && item ? { kind: 'list_push', target, item, place } : undefined;
}

function checkListRemoveStep(site: StepSite): Step | undefined {
  const { ctx, node, scope, where, place, field, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const hasIndex = getPair(node, 'index') !== undefined;
  const hasValue = getPair(node, 'value') !== undefined;
  if (hasIndex === hasValue) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}: list_remove must specify exactly one of 'index' or 'value'.`,
      place,
    );
    return undefined;
  }
  const index = hasIndex ? checkOperand(ctx, field('index'), scope) : undefined;
  const value = hasValue ? checkOperand(ctx, field('value'), scope) : undefined;
  return target ? { kind: 'list_remove', target, index, value, place } : undefined;
}

function checkDictSetStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const key = checkOperand(ctx, required('key'), scope);
  const value = checkOperand(ctx, required('value'), scope);
  return target && key && value ? { kind: 'dict_set', target, key, value, place } : undefined;
}

function checkDictDeleteStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, required } = site;
  const target = checkTarget(ctx, required('var'), scope, where);
  const key = checkOperand(ctx, required('key'), scope);
  return target && key ? { kind: 'dict_delete', target, key, place } : undefined;
}

function checkForeachStep(site: StepSite): Step | undefined {
  const { ctx, scope, where, place, field, required } = site;
  const arrayNode = required('array');
  const itemName = localName(ctx, field('item'), 'item', where);
  const indexName = localName(ctx, field('index'), 'index', where);
  const rawArray = scalarOf(arrayNode);
  let array: Operand | { kind: 'path'; target: Target } | undefined;
  if (typeof rawArray === 'string' && !rawArray.startsWith('@') && /^(state|temp)\./.test(rawArray)) {
    // The original reads a bare `state.x` path directly; keep that, checked like any target.
    const target = checkTarget(ctx, arrayNode, scope, where);
    array = target ? { kind: 'path', target } : undefined;
  } else {
    array = checkOperand(ctx, arrayNode, scope);
  }
  const inner: EventScope = {
    inputs: scope.inputs,
    locals: new Set([...scope.locals, itemName, indexName]),
  };
  const steps = checkSteps(ctx, required('steps'), inner, `${where}.steps`);
  return array ? { kind: 'foreach', array, itemName, indexName, steps, place } : undefined;
}

export function localName(ctx: CompileContext, node: unknown, fallback: string, where: string): string {
  if (node === undefined) return fallback;
  const v = scalarOf(node);
  if (typeof v === 'string' && IDENTIFIER.test(v) && !RESERVED_NAMES.has(v)) return v;
  ctx.sink.error(
    'YARE_BAD_STEP',
    `${where}: foreach names must be identifiers that are not reserved, got ${JSON.stringify(v)}.`,
    placeOfNode(ctx.src, node),
  );
  return fallback;
}

export function checkBranch(
  ctx: CompileContext,
  node: YAMLMap,
  scope: EventScope,
  where: string,
  place: SourcePlace,
): Step | undefined {
  const conditions = getNode(node, 'conditions');
  const arms: BranchArm[] = [];
  if (conditions !== undefined) {
    if (getPair(node, 'if') || getPair(node, 'else') || getPair(node, 'steps')) {
      ctx.sink.error(
        'YARE_BAD_STEP',
        `${where}: a branch uses either conditions: [...] or if:/steps:/else:, not both.`,
        place,
      );
      return undefined;
    }
    if (!isSeq(conditions)) {
      ctx.sink.error(
        'YARE_BAD_STEP',
        `${where}: conditions must be a list of { if, steps } with an optional { else, steps }.`,
        placeOfNode(ctx.src, conditions),
      );
      return undefined;
    }
    let sawElse = false;
    conditions.items.forEach((cond, i) => {
      const at = `${where}.conditions[${i}]`;
      const condPlace = placeOfNode(ctx.src, cond);
      if (!isMap(cond)) {
        ctx.sink.error('YARE_BAD_STEP', `${at} must be a mapping with if: and steps:.`, condPlace);
        return;
      }
      for (const { key, pair } of mapPairs(cond)) {
        if (key !== 'if' && key !== 'else' && key !== 'steps') {
          ctx.sink.error(
            'YARE_BAD_STEP',
            `${at}: unknown key '${key}'; a condition has if (or else) and steps.`,
            placeOfNode(ctx.src, pair.key),
          );
        }
      }
      // An `else` key with any value is the else arm: `- else:` followed by a sibling `steps:` gives null.
      const isElse = getPair(cond, 'else') !== undefined;
      const ifPair = getPair(cond, 'if');
      if (isElse && ifPair) {
        ctx.sink.error('YARE_BAD_STEP', `${at}: a condition has either if: or else:, not both.`, condPlace);
        return;
      }
      if (!isElse && !ifPair) {
        ctx.sink.error('YARE_BAD_STEP', `${at}: a condition needs if: (or else:).`, condPlace);
        return;
      }
      if (sawElse)
        ctx.sink.warning('YARE_UNREACHABLE', `${at} comes after an else and can never run.`, condPlace);
      if (isElse) sawElse = true;
      const test = ifPair ? checkCondition(ctx, ifPair.value, scope) : undefined;
      if (ifPair && !test) return;
      arms.push({ test, steps: checkSteps(ctx, getNode(cond, 'steps') ?? null, scope, `${at}.steps`) });
    });
    return { kind: 'branch', arms, place };
  }
  const ifPair = getPair(node, 'if');
  if (!ifPair) {
    ctx.sink.error('YARE_BAD_STEP', `${where}: a branch needs conditions: [...] or if:/steps:/else:.`, place);
    return undefined;
  }
  const test = checkCondition(ctx, ifPair.value, scope);
  if (!test) return undefined;
  arms.push({ test, steps: checkSteps(ctx, getNode(node, 'steps') ?? null, scope, `${where}.steps`) });
  const elsePair = getPair(node, 'else');
  if (elsePair)
    arms.push({ test: undefined, steps: checkSteps(ctx, elsePair.value, scope, `${where}.else`) });
  return { kind: 'branch', arms, place };
}

export function checkCondition(ctx: CompileContext, node: unknown, scope: EventScope): Operand | undefined {
  const raw = scalarOf(node);
  if (typeof raw === 'string' && !raw.startsWith('@')) {
    ctx.sink.error(
      'YARE_NOT_AN_EXPRESSION',
      `Condition ${JSON.stringify(raw)} is plain text, which would always be true. Start it with @ to make it an expression: "@ ${raw}".`,
      placeOfNode(ctx.src, node),
    );
    return undefined;
  }
  return checkOperand(ctx, node, scope);
}

export function checkNote(
  ctx: CompileContext,
  node: unknown,
  scope: EventScope,
  where: string,
  place: SourcePlace,
): Step | undefined {
  if (node === undefined) return undefined;
  const raw = scalarOf(node);
  if (typeof raw !== 'string') {
    ctx.sink.error('YARE_BAD_STEP', `${where}.message must be a string.`, placeOfNode(ctx.src, node));
    return undefined;
  }
  if (raw.length > MAX_NOTE_TEMPLATE_LENGTH) {
    ctx.sink.error(
      'YARE_NOTE_TOO_LONG',
      `${where}.message exceeds max length (${raw.length} > ${MAX_NOTE_TEMPLATE_LENGTH} chars).`,
      placeOfNode(ctx.src, node),
    );
    return undefined;
  }
  const injection = ctx.options.checkInjection?.(raw);
  if (injection) {
    ctx.sink.error('CART_INJECTION', `${where}.message: ${injection}`, placeOfNode(ctx.src, node));
    return undefined;
  }
  const parts: NotePart[] = [];
  const base = contentOffset(node);
  let last = 0;
  const pattern = /\{([^{}]*)\}/g;
  for (let m = pattern.exec(raw); m !== null; m = pattern.exec(raw)) {
    if (m.index > last) parts.push(raw.slice(last, m.index));
    const inner = m[1]!;
    const innerText = inner.trimStart().startsWith('@') ? inner.trimStart().slice(1) : inner;
    const innerOffset = m.index + 1 + (inner.length - innerText.length);
    const place =
      base === undefined ? placeOfNode(ctx.src, node) : placeAtOffset(ctx.src, base + innerOffset);
    const expr = parseExpressionAt(
      ctx,
      innerText,
      place,
      base === undefined ? undefined : base + innerOffset,
    );
    if (expr) {
      checkOperandExpr(ctx, expr, scope, base === undefined ? undefined : base + innerOffset, place);
      parts.push({ kind: 'expr', expr, place });
    }
    last = m.index + m[0].length;
  }
  if (last < raw.length) parts.push(raw.slice(last));
  return { kind: 'note', parts, template: raw, place };
}

/** `var:` — a `state.`/`temp.` path checked now, or an `@` expression that yields a path at run time. */
export function checkTarget(
  ctx: CompileContext,
  node: unknown,
  scope: EventScope,
  where: string,
): Target | undefined {
  if (node === undefined) return undefined;
  const raw = scalarOf(node);
  if (typeof raw !== 'string') {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}.var must be a path string like state.player.hp.`,
      placeOfNode(ctx.src, node),
    );
    return undefined;
  }
  if (raw.startsWith('@')) {
    const operand = checkOperand(ctx, node, scope);
    return operand ? { kind: 'dynamic', expr: operand } : undefined;
  }
  const text = raw.trim();
  const segments = text.split('.');
  const root = segments[0];
  if ((root !== 'state' && root !== 'temp') || segments.length < 2 || segments.some((s) => s === '')) {
    ctx.sink.error(
      'YARE_BAD_STEP',
      `${where}.var '${text}' must start with 'state.' or 'temp.'.`,
      placeOfNode(ctx.src, node),
    );
    return undefined;
  }
  const path = segments.slice(1);
  if (root === 'state') {
    const findings: CheckFinding[] = [];
    checkStatePath(path, 0, ctx.schema, findings);
    for (const f of findings)
      ctx.sink.error(f.code, `${where}.var: ${f.message}`, placeOfNode(ctx.src, node));
    if (findings.length) return undefined;
  }
  const declared = root === 'state' ? schemaAt(ctx.schema, path) : undefined;
  const field = declared?.kind === 'field' && declared.path.length === path.length ? declared : undefined;
  return { kind: 'static', root, path, text, segments: [root, ...path], field };
}

/** A value field: `@ expression`, a `'quoted'` string literal, any other string as is, or a YAML constant. */
export function checkOperand(ctx: CompileContext, node: unknown, scope: EventScope): Operand | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && typeof node.value === 'string' && node.value.startsWith('@')) {
    const expr = parseScalarExpression(ctx, node.value, node, false);
    if (!expr) return undefined;
    checkOperandExpr(ctx, expr, scope, expr.base, expr.place);
    return { kind: 'expr', expr, place: expr.place };
  }
  if (isScalar(node) && typeof node.value === 'string') {
    const s = node.value.trim();
    if (s.length >= 2 && s.startsWith("'") && s.endsWith("'"))
      return { kind: 'const', value: s.slice(1, -1) };
    return { kind: 'const', value: node.value };
  }
  return { kind: 'const', value: plainValue(node) };
}

/** Records `resolver_event` names from literal `_pending_interaction` dicts, so resolvers are never tools. */
export function noteResolvers(ctx: CompileContext, node: unknown): void {
  if (!isMap(node)) return;
  const resolver = getNode(node, 'resolver_event');
  const name = scalarOf(resolver);
  if (typeof name === 'string') ctx.resolverNames.set(name, placeOfNode(ctx.src, resolver));
}

function parseTableKey(key: string): TableKey | undefined {
  const s = key.trim();
  let m = /^(-?\d+)$/.exec(s);
  if (m) return { kind: 'exact', value: Number(m[1]) };
  m = /^(-?\d+)\s*-\s*(-?\d+)$/.exec(s);
  if (m) return { kind: 'range', low: Number(m[1]), high: Number(m[2]) };
  m = /^(-?\d+)\s*\+$/.exec(s);
  if (m) return { kind: 'atLeast', low: Number(m[1]) };
  return undefined;
}
