// Shape pass, steps: each step's YAML mapping read into a raw step — a known action, only its own
// fields, the required ones present, the parts of a branch, table, call, note or foreach laid out — with
// its values read by shape-values.ts. Problems stay on the nodes (raw-ast.ts); check-steps.ts resolves
// what the steps name.

import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { CONDITION_SHAPE, STEP_SHAPES, TABLE_KEY_PATTERN } from '../grammar.ts';
import type { ObjectShape } from '../grammar-shape.ts';
import { MAX_NOTE_TEMPLATE_LENGTH } from '../limits.ts';
import type { MutateOp, StepKind, TableKey } from '../program.ts';
import { RESERVED_NAMES } from '../schema.ts';
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
import { IDENTIFIER } from './context.ts';
import type {
  RawBranchArm,
  RawField,
  RawLiteral,
  RawLocalName,
  RawNote,
  RawNotePart,
  RawOperand,
  RawRecordValue,
  RawStep,
  RawStepList,
  RawTableRow,
} from './raw-ast.ts';
import {
  type ShapeContext,
  shapeCondition,
  shapeError,
  shapeExpressionAt,
  shapeOperand,
  shapeTarget,
  shapeWarning,
} from './shape-values.ts';

/** Each action's shape in the grammar: every kind of compiled step has one, and no other is listed. */
const STEP_GRAMMAR: Readonly<Record<StepKind, ObjectShape>> = STEP_SHAPES satisfies Record<
  StepKind,
  ObjectShape
>;
type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : false;
const STEP_KINDS_MATCH: SameKeys<typeof STEP_SHAPES, Record<StepKind, unknown>> = true;
void STEP_KINDS_MATCH;

/** Each action's fields, in the grammar's order, and the ones it requires. */
const ACTIONS = Object.keys(STEP_GRAMMAR) as StepKind[];
function byAction<T>(read: (shape: ObjectShape) => T): Readonly<Record<StepKind, T>> {
  const out = {} as Record<StepKind, T>;
  for (const action of ACTIONS) out[action] = read(STEP_GRAMMAR[action]);
  return out;
}
const STEP_FIELDS = byAction((shape): readonly string[] => Object.keys(shape.props));
const STEP_REQUIRED = byAction((shape): ReadonlySet<string> => new Set(shape.required ?? []));
const MUTATE_OPS: readonly MutateOp[] = STEP_SHAPES.mutate.props.op.enum;
const CONDITION_KEYS: ReadonlySet<string> = new Set(Object.keys(CONDITION_SHAPE.props));
const TABLE_KEY = new RegExp(TABLE_KEY_PATTERN);

function isMutateOp(op: unknown): op is MutateOp {
  return (MUTATE_OPS as readonly unknown[]).includes(op);
}

function isActionName(name: unknown): name is StepKind {
  return typeof name === 'string' && Object.hasOwn(STEP_FIELDS, name);
}

export function shapeSteps(ctx: ShapeContext, node: unknown, where: string): RawStepList {
  if (node === null || (isScalar(node) && node.value === null)) return { problems: [], items: [] };
  if (!isSeq(node)) {
    return {
      problems: [
        shapeError('YARE_BAD_STEP', `${where} must be a list of steps.`, placeOfNode(ctx.src, node)),
      ],
      items: [],
    };
  }
  return { problems: [], items: node.items.map((item, i) => shapeStep(ctx, item, `${where}[${i}]`)) };
}

/** A step being shaped: its mapping, place and path, and a reader of its fields. */
interface StepSite {
  readonly ctx: ShapeContext;
  readonly node: YAMLMap;
  /** The step's path in the file, for messages: `events.attack.steps[2]`. */
  readonly where: string;
  readonly place: SourcePlace;
  /** Fields the action does not have. */
  readonly problems: readonly Diagnostic[];
  /** A field's node, or undefined. */
  field(name: string): unknown;
  /** A field the grammar requires: its node, read by `shape`, and the problem when it is missing. */
  required<T>(name: string, shape: (node: unknown) => T | undefined): RawField<T>;
}

export function shapeStep(ctx: ShapeContext, node: unknown, where: string): RawStep {
  const place = placeOfNode(ctx.src, node);
  if (!isMap(node)) {
    return {
      kind: 'invalid',
      problem: shapeError('YARE_BAD_STEP', `${where} must be a mapping with an action: key.`, place),
    };
  }
  const actionRaw = scalarOf(getNode(node, 'action'));
  if (!isActionName(actionRaw)) {
    return {
      kind: 'invalid',
      problem: shapeError(
        'YARE_BAD_STEP',
        `${where}: unknown action ${JSON.stringify(actionRaw ?? null)}. Actions are: ${ACTIONS.join(', ')}.${typeof actionRaw === 'string' ? didYouMean(actionRaw, ACTIONS) : ''}`,
        place,
      ),
    };
  }
  const action = actionRaw;
  const allowed = new Set(['action', ...STEP_FIELDS[action]]);
  const problems = mapPairs(node)
    .filter(({ key }) => !allowed.has(key))
    .map(({ key, pair }) =>
      shapeError(
        'YARE_BAD_STEP',
        `${where}: '${action}' has no field '${key}'. Its fields are: ${STEP_FIELDS[action].join(', ')}.${didYouMean(key, STEP_FIELDS[action])}`,
        placeOfNode(ctx.src, pair.key),
      ),
    );
  const site: StepSite = {
    ctx,
    node,
    where,
    place,
    problems,
    field: (name) => getNode(node, name),
    required: (name, shape) => {
      const pair = getPair(node, name);
      return {
        missing:
          pair || !STEP_REQUIRED[action].has(name)
            ? undefined
            : shapeError('YARE_BAD_STEP', `${where}: '${action}' needs a '${name}' field.`, place),
        raw: shape(pair?.value),
      };
    },
  };
  return SHAPE_ACTION[action](site);
}

/** The shape of each action. */
const SHAPE_ACTION: Readonly<Record<StepKind, (site: StepSite) => RawStep>> = {
  set: shapeSetStep,
  mutate: shapeMutateStep,
  branch: shapeBranchStep,
  table_roll: shapeTableRollStep,
  call: shapeCallStep,
  note: shapeNoteStep,
  list_push: shapeListPushStep,
  list_remove: shapeListRemoveStep,
  dict_set: shapeDictSetStep,
  dict_delete: shapeDictDeleteStep,
  create: shapeCreateStep,
  foreach: shapeForeachStep,
};

const targetOf = (site: StepSite) => (node: unknown) => shapeTarget(site.ctx, node, site.where);
const operandOf = (site: StepSite) => (node: unknown) => shapeOperand(site.ctx, node);

function base(site: StepSite): { place: SourcePlace; where: string; problems: readonly Diagnostic[] } {
  return { place: site.place, where: site.where, problems: site.problems };
}

function shapeSetStep(site: StepSite): RawStep {
  const { ctx } = site;
  const target = site.required('var', targetOf(site));
  const value = site.required('value', operandOf(site));
  // A literal `_pending_interaction` mapping names its resolver event, which is never offered as a tool.
  const valueNode = site.field('value');
  const resolverNode = isMap(valueNode) ? getNode(valueNode, 'resolver_event') : undefined;
  const resolverName = scalarOf(resolverNode);
  const resolver =
    typeof resolverName === 'string'
      ? { name: resolverName, place: placeOfNode(ctx.src, resolverNode) }
      : undefined;
  const literal = isMap(valueNode) ? shapeLiteral(ctx, valueNode) : undefined;
  return { kind: 'set', ...base(site), target, value, resolver, literal };
}

/** A literal mapping's value and the place of every node in it (a pair's value, or its key without one). */
function shapeLiteral(ctx: ShapeContext, node: YAMLMap): RawLiteral {
  const places = new Map<string, SourcePlace>();
  const walk = (at: unknown, path: (string | number)[]): void => {
    places.set(JSON.stringify(path), placeOfNode(ctx.src, at));
    if (isMap(at)) {
      for (const { key, pair, value } of mapPairs(at)) walk(value ?? pair.key, [...path, key]);
    } else if (isSeq(at)) {
      for (const [i, item] of at.items.entries()) walk(item, [...path, i]);
    }
  };
  walk(node, []);
  return { value: plainValue(node), places };
}

function shapeMutateStep(site: StepSite): RawStep {
  const target = site.required('var', targetOf(site));
  const opField = site.required('op', (node) => ({ node, op: scalarOf(node) }));
  const opNode = opField.raw?.node;
  const op = opField.raw?.op;
  const known = isMutateOp(op) ? op : undefined;
  const problem =
    opNode !== undefined && !known
      ? shapeError(
          'YARE_BAD_STEP',
          `${site.where}: mutate op ${JSON.stringify(op)} is unknown. Ops are: ${MUTATE_OPS.join(', ')}.`,
          placeOfNode(site.ctx.src, opNode),
        )
      : undefined;
  // With a refused op the step stops there: its value is not read.
  const value: RawField<RawOperand> = problem
    ? { missing: undefined, raw: undefined }
    : site.required('value', operandOf(site));
  return {
    kind: 'mutate',
    ...base(site),
    target,
    op: { missing: opField.missing, raw: known, problem },
    value,
  };
}

function shapeBranchStep(site: StepSite): RawStep {
  const { ctx, node, where, place } = site;
  const refused = (message: string, at = place): RawStep => ({
    kind: 'branch-refused',
    ...base(site),
    problem: shapeError('YARE_BAD_STEP', message, at),
  });
  const conditions = getNode(node, 'conditions');
  if (conditions !== undefined) {
    if (getPair(node, 'if') || getPair(node, 'else') || getPair(node, 'steps')) {
      return refused(`${where}: a branch uses either conditions: [...] or if:/steps:/else:, not both.`);
    }
    if (!isSeq(conditions)) {
      return refused(
        `${where}: conditions must be a list of { if, steps } with an optional { else, steps }.`,
        placeOfNode(ctx.src, conditions),
      );
    }
    let sawElse = false;
    const arms = conditions.items.map((cond, i): RawBranchArm => {
      const at = `${where}.conditions[${i}]`;
      const condPlace = placeOfNode(ctx.src, cond);
      if (!isMap(cond)) {
        return {
          kind: 'refused',
          problems: [shapeError('YARE_BAD_STEP', `${at} must be a mapping with if: and steps:.`, condPlace)],
        };
      }
      const problems = mapPairs(cond)
        .filter(({ key }) => !CONDITION_KEYS.has(key))
        .map(({ key, pair }) =>
          shapeError(
            'YARE_BAD_STEP',
            `${at}: unknown key '${key}'; a condition has if (or else) and steps.`,
            placeOfNode(ctx.src, pair.key),
          ),
        );
      // An `else` key with any value is the else arm: `- else:` followed by a sibling `steps:` gives null.
      const isElse = getPair(cond, 'else') !== undefined;
      const ifPair = getPair(cond, 'if');
      if (isElse && ifPair) {
        problems.push(
          shapeError('YARE_BAD_STEP', `${at}: a condition has either if: or else:, not both.`, condPlace),
        );
        return { kind: 'refused', problems };
      }
      if (!isElse && !ifPair) {
        problems.push(shapeError('YARE_BAD_STEP', `${at}: a condition needs if: (or else:).`, condPlace));
        return { kind: 'refused', problems };
      }
      if (sawElse)
        problems.push(
          shapeWarning('YARE_UNREACHABLE', `${at} comes after an else and can never run.`, condPlace),
        );
      if (isElse) sawElse = true;
      return {
        kind: 'arm',
        problems,
        test: ifPair ? shapeCondition(ctx, ifPair.value) : undefined,
        steps: shapeSteps(ctx, getNode(cond, 'steps') ?? null, `${at}.steps`),
      };
    });
    return { kind: 'branch', ...base(site), arms };
  }
  const ifPair = getPair(node, 'if');
  if (!ifPair) return refused(`${where}: a branch needs conditions: [...] or if:/steps:/else:.`);
  const test = shapeCondition(ctx, ifPair.value);
  const elsePair = getPair(node, 'else');
  return {
    kind: 'branch-if',
    ...base(site),
    test,
    steps: shapeSteps(ctx, getNode(node, 'steps') ?? null, `${where}.steps`),
    orElse: elsePair ? shapeSteps(ctx, elsePair.value, `${where}.else`) : undefined,
  };
}

function shapeTableRollStep(site: StepSite): RawStep {
  const { ctx, where } = site;
  const roll = site.required('roll', operandOf(site));
  const target = site.required('var', targetOf(site));
  const table = site.required('table', (tableNode) => tableNode);
  const tableNode = table.raw;
  let problem: Diagnostic | undefined;
  const rows: RawTableRow[] = [];
  if (tableNode !== undefined && !isMap(tableNode)) {
    problem = shapeError(
      'YARE_BAD_STEP',
      `${where}: table must be a mapping like { "1-5": goblin, "6+": orc }.`,
      placeOfNode(ctx.src, tableNode),
    );
  } else if (isMap(tableNode)) {
    for (const { key, pair, value } of mapPairs(tableNode)) {
      const parsed = parseTableKey(key);
      if (!parsed) {
        rows.push({
          kind: 'refused',
          problem: shapeError(
            'YARE_BAD_STEP',
            `${where}: table key '${key}' must be a number, a range like 1-5, or N+ like 11+.`,
            placeOfNode(ctx.src, pair.key),
          ),
        });
        continue;
      }
      const operand = shapeOperand(ctx, value);
      if (operand) rows.push({ kind: 'row', key: parsed, value: operand });
    }
  }
  return {
    kind: 'table_roll',
    ...base(site),
    roll,
    target,
    table: { missing: table.missing, raw: rows, problem },
  };
}

function shapeCallStep(site: StepSite): RawStep {
  const { ctx, where } = site;
  const event = site.required('event', (node) =>
    node === undefined ? undefined : { name: scalarOf(node), place: placeOfNode(ctx.src, node) },
  );
  const argsNode = site.field('args');
  const items: { name: string; place: SourcePlace; value: RawOperand | undefined }[] = [];
  if (argsNode !== undefined && !(isScalar(argsNode) && argsNode.value === null)) {
    if (!isMap(argsNode)) {
      return {
        kind: 'call',
        ...base(site),
        event,
        args: {
          kind: 'refused',
          problem: shapeError(
            'YARE_BAD_STEP',
            `${where}: args must be a mapping of input name: value.`,
            placeOfNode(ctx.src, argsNode),
          ),
        },
      };
    }
    for (const { key, pair, value } of mapPairs(argsNode)) {
      items.push({ name: key, place: placeOfNode(ctx.src, pair.key), value: shapeOperand(ctx, value) });
    }
  }
  return { kind: 'call', ...base(site), event, args: { kind: 'args', items } };
}

function shapeNoteStep(site: StepSite): RawStep {
  return { kind: 'note', ...base(site), message: site.required('message', (node) => shapeNote(site, node)) };
}

function shapeNote(site: StepSite, node: unknown): RawNote | undefined {
  const { ctx, where } = site;
  if (node === undefined) return undefined;
  const raw = scalarOf(node);
  const refused = (code: string, message: string): RawNote => ({
    kind: 'refused',
    problem: shapeError(code, message, placeOfNode(ctx.src, node)),
  });
  if (typeof raw !== 'string') return refused('YARE_BAD_STEP', `${where}.message must be a string.`);
  if (raw.length > MAX_NOTE_TEMPLATE_LENGTH) {
    return refused(
      'YARE_NOTE_TOO_LONG',
      `${where}.message exceeds max length (${raw.length} > ${MAX_NOTE_TEMPLATE_LENGTH} chars).`,
    );
  }
  const parts: RawNotePart[] = [];
  const base = contentOffset(node);
  let last = 0;
  // Linear: `[^{}]*` cannot backtrack past a brace, and the template is capped above.
  const pattern = /\{([^{}]*)\}/g;
  for (let m = pattern.exec(raw); m !== null; m = pattern.exec(raw)) {
    if (m.index > last) parts.push(raw.slice(last, m.index));
    const inner = m[1]!;
    const innerText = inner.trimStart().startsWith('@') ? inner.trimStart().slice(1) : inner;
    const innerOffset = m.index + 1 + (inner.length - innerText.length);
    const exprBase = base === undefined ? undefined : base + innerOffset;
    const place = exprBase === undefined ? placeOfNode(ctx.src, node) : placeAtOffset(ctx.src, exprBase);
    const parsed = shapeExpressionAt(ctx, innerText, place, exprBase);
    parts.push({ kind: 'expr', expr: parsed, place, base: exprBase });
    last = m.index + m[0].length;
  }
  if (last < raw.length) parts.push(raw.slice(last));
  return { kind: 'template', template: raw, parts, place: placeOfNode(ctx.src, node) };
}

function shapeListPushStep(site: StepSite): RawStep {
  const { ctx, node, where, place } = site;
  const target = site.required('var', targetOf(site));
  const itemPair = getPair(node, 'item') ?? getPair(node, 'value');
  const item: RawOperand | undefined = itemPair
    ? shapeOperand(ctx, itemPair.value)
    : {
        kind: 'refused',
        problem: shapeError('YARE_BAD_STEP', `${where}: list_push needs an 'item' field.`, place),
      };
  return { kind: 'list_push', ...base(site), target, item };
}

function shapeListRemoveStep(site: StepSite): RawStep {
  const { ctx, node, where, place } = site;
  const target = site.required('var', targetOf(site));
  const hasIndex = getPair(node, 'index') !== undefined;
  const hasValue = getPair(node, 'value') !== undefined;
  const which =
    hasIndex === hasValue
      ? {
          kind: 'refused' as const,
          problem: shapeError(
            'YARE_BAD_STEP',
            `${where}: list_remove must specify exactly one of 'index' or 'value'.`,
            place,
          ),
        }
      : hasIndex
        ? { kind: 'index' as const, operand: shapeOperand(ctx, site.field('index')) }
        : { kind: 'value' as const, operand: shapeOperand(ctx, site.field('value')) };
  return { kind: 'list_remove', ...base(site), target, which };
}

function shapeDictSetStep(site: StepSite): RawStep {
  const target = site.required('var', targetOf(site));
  const key = site.required('key', operandOf(site));
  const value = site.required('value', operandOf(site));
  return { kind: 'dict_set', ...base(site), target, key, value };
}

function shapeDictDeleteStep(site: StepSite): RawStep {
  const target = site.required('var', targetOf(site));
  const key = site.required('key', operandOf(site));
  return { kind: 'dict_delete', ...base(site), target, key };
}

function shapeCreateStep(site: StepSite): RawStep {
  const { ctx, where } = site;
  const collection = site.required('in', (node) => {
    if (node === undefined) return undefined;
    const text = scalarOf(node);
    return {
      text: typeof text === 'string' ? text.trim() : JSON.stringify(text),
      place: placeOfNode(ctx.src, node),
    };
  });
  const values = site.required('record', (node): RawRecordValue[] | undefined => {
    if (node === undefined) return undefined;
    if (!isMap(node)) return [];
    return mapPairs(node).map(({ key, pair, value }) => ({
      name: key,
      place: placeOfNode(ctx.src, pair.key),
      value: shapeOperand(ctx, value) ?? { kind: 'const', value: null },
    }));
  });
  const recordNode = site.field('record');
  const problems =
    recordNode !== undefined && !isMap(recordNode)
      ? [
          ...site.problems,
          shapeError(
            'YARE_BAD_STEP',
            `${where}.record must be a mapping of property: value.`,
            placeOfNode(ctx.src, recordNode),
          ),
        ]
      : site.problems;
  const varNode = site.field('var');
  const target = varNode === undefined ? undefined : shapeTarget(ctx, varNode, where);
  return { kind: 'create', place: site.place, where, problems, collection, values, target };
}

function shapeForeachStep(site: StepSite): RawStep {
  const { ctx, where } = site;
  const array = site.required('array', (arrayNode) => {
    const rawArray = scalarOf(arrayNode);
    if (typeof rawArray === 'string' && !rawArray.startsWith('@') && /^(state|temp)\./.test(rawArray)) {
      // The original reads a bare `state.x` path directly; keep that, checked like any target.
      const target = shapeTarget(ctx, arrayNode, where);
      return target ? { kind: 'path' as const, target } : undefined;
    }
    const operand = shapeOperand(ctx, arrayNode);
    return operand ? { kind: 'operand' as const, operand } : undefined;
  });
  const itemName = shapeLocalName(ctx, site.field('item'), 'item', where);
  const indexName = shapeLocalName(ctx, site.field('index'), 'index', where);
  const steps = site.required('steps', (node) => shapeSteps(ctx, node, `${where}.steps`));
  return { kind: 'foreach', ...base(site), array, itemName, indexName, steps };
}

function shapeLocalName(ctx: ShapeContext, node: unknown, fallback: string, where: string): RawLocalName {
  if (node === undefined) return { name: fallback, problem: undefined };
  const v = scalarOf(node);
  if (typeof v === 'string' && IDENTIFIER.test(v) && !RESERVED_NAMES.has(v))
    return { name: v, problem: undefined };
  return {
    name: fallback,
    problem: shapeError(
      'YARE_BAD_STEP',
      `${where}: foreach names must be identifiers that are not reserved, got ${JSON.stringify(v)}.`,
      placeOfNode(ctx.src, node),
    ),
  };
}

function parseTableKey(key: string): TableKey | undefined {
  if (!TABLE_KEY.test(key)) return undefined;
  const s = key.trim();
  let m = /^(-?\d+)$/.exec(s);
  if (m) return { kind: 'exact', value: Number(m[1]) };
  m = /^(-?\d+)\s*-\s*(-?\d+)$/.exec(s);
  if (m) return { kind: 'range', low: Number(m[1]), high: Number(m[2]) };
  m = /^(-?\d+)\s*\+$/.exec(s);
  if (m) return { kind: 'atLeast', low: Number(m[1]) };
  return undefined;
}
