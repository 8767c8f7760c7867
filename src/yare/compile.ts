// Compiles the parsed `yare.yaml` document into checked rules: schema, macros, events and their steps.
// Expressions are parsed once here; paths, inputs, macros, calls and functions are checked; every finding
// carries `file:line:col`. The compiler keeps going after an error so an author sees all of them.

import type { Document, LineCounter } from 'yaml';
import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { type CheckFinding, checkExpr, checkStatePath } from './check.ts';
import { DiagnosticSink, didYouMean } from './diagnostics-sink.ts';
import { YareError } from './errors.ts';
import type { Expr, Expression } from './expr/ast.ts';
import { parseExpression } from './expr/parser.ts';
import { MAX_NOTE_TEMPLATE_LENGTH } from './limits.ts';
import type {
  BranchArm,
  CompiledRules,
  DomainSchema,
  EngineSettings,
  EventDef,
  FieldType,
  InputSpec,
  MutateOp,
  NotePart,
  NpcTemplate,
  Operand,
  Step,
  TableKey,
  Target,
} from './program.ts';
import { buildInitialState, compileSchema, FIELD_TYPES, RESERVED_NAMES, schemaAt } from './schema.ts';
import { formatValue } from './python.ts';
import type { Value } from './values.ts';
import {
  contentOffset,
  getNode,
  getPair,
  isAbsent,
  isMap,
  isScalar,
  isSeq,
  mapPairs,
  type NodeSource,
  placeAtOffset,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from './yaml-nodes.ts';

export type { CompiledRules } from './program.ts';

export interface RulesSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

export interface CompileRulesOptions {
  /** Checks a note template for prompt injection; returns a message when it should be refused. */
  readonly checkInjection?: (text: string) => string | undefined;
}

/** The top-level keys of yare.yaml this engine reads; others are ignored with a warning. */
export const KNOWN_TOP_LEVEL: ReadonlySet<string> = new Set([
  'version',
  'bot_name',
  'state_schema',
  'macros',
  'events',
  'npc_templates',
  'engine_settings',
  'separate_npc',
  'separate_npc_brain',
  'ledger',
]);
const EVENT_KEYS = new Set(['description', 'inputs', 'steps', 'trigger_on', 'internal', 'intents']);
const INPUT_KEYS = new Set(['type', 'enum', 'default', 'description']);
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
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function compileRules(
  source: RulesSource,
  options: CompileRulesOptions = {},
): { rules?: CompiledRules; diagnostics: Diagnostic[] } {
  const compiler = new RulesCompiler(source, options);
  const rules = compiler.compile();
  return compiler.sink.hasErrors
    ? { diagnostics: compiler.sink.items }
    : { rules, diagnostics: compiler.sink.items };
}

interface EventScope {
  readonly inputs: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
}

class RulesCompiler {
  readonly sink = new DiagnosticSink();
  private readonly src: NodeSource;
  private schema!: DomainSchema;
  private readonly macroNodes = new Map<
    string,
    { node: unknown; expr?: Expression & { place: SourcePlace } }
  >();
  private readonly macroRefs = new Map<string, Set<string>>();
  private eventNodes = new Map<string, { node: YAMLMap; place: SourcePlace }>();
  private readonly eventInputs = new Map<string, ReadonlyMap<string, InputSpec>>();
  private readonly resolverNames = new Map<string, SourcePlace>();

  constructor(
    source: RulesSource,
    private readonly options: CompileRulesOptions,
  ) {
    this.src = { file: source.file, lineCounter: source.lineCounter };
    this.doc = source.doc;
  }
  private readonly doc: Document.Parsed;

  compile(): CompiledRules {
    const root = this.doc.contents;
    const rootPlace = placeOfNode(this.src, root);
    if (root !== null && !isMap(root) && !(isScalar(root) && root.value === null)) {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        'yare.yaml must be a mapping with state_schema, macros and events.',
        rootPlace,
      );
    }
    const top = isMap(root) ? root : undefined;
    if (top) {
      for (const { key, pair } of mapPairs(top)) {
        if (key !== 'prompt_directives' && !KNOWN_TOP_LEVEL.has(key)) {
          this.sink.warning(
            'YARE_UNKNOWN_KEY',
            `Unknown top-level key '${key}' in yare.yaml is ignored.${didYouMean(key, KNOWN_TOP_LEVEL)}`,
            placeOfNode(this.src, pair.key),
          );
        }
      }
      const directives = getPair(top, 'prompt_directives');
      if (directives) {
        this.sink.error(
          'YARE_DIRECTIVES_IN_RULES',
          "'prompt_directives' must live in prompt_directives.yaml, not in yare.yaml. Keep yare.yaml purely procedural.",
          placeOfNode(this.src, directives.key),
        );
      }
    }
    this.schema = compileSchema(top ? getNode(top, 'state_schema') : undefined, this.src, this.sink);
    this.collectMacros(top ? getNode(top, 'macros') : undefined);
    this.collectEvents(top ? getNode(top, 'events') : undefined);
    for (const [name, { node }] of this.eventNodes)
      this.eventInputs.set(name, this.compileInputs(name, getNode(node, 'inputs')));
    this.compileMacros();
    const events = new Map<string, EventDef>();
    for (const [name, { node, place }] of this.eventNodes)
      events.set(name, this.compileEvent(name, node, place));
    for (const [name, place] of this.resolverNames) {
      const ev = events.get(name);
      if (ev) events.set(name, { ...ev, resolver: true });
      else
        this.sink.error(
          'YARE_UNKNOWN_EVENT',
          `resolver_event '${name}' is not a declared event.${didYouMean(name, events.keys())}`,
          place,
        );
    }
    const macros = new Map<string, Expression & { place: SourcePlace }>();
    for (const [name, m] of this.macroNodes) if (m.expr) macros.set(name, m.expr);
    const separate = top ? getNode(top, 'separate_npc') : undefined;
    if (separate !== undefined && typeof scalarOf(separate) !== 'boolean') {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        `separate_npc must be a boolean (true or false), got ${JSON.stringify(scalarOf(separate))}.`,
        placeOfNode(this.src, separate),
      );
    }
    const botNameNode = top ? getNode(top, 'bot_name') : undefined;
    const botName = scalarOf(botNameNode);
    if (botNameNode !== undefined && (typeof botName !== 'string' || botName.trim() === '')) {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        'bot_name must be non-empty text.',
        placeOfNode(this.src, botNameNode),
      );
    }
    return {
      file: this.src.file,
      botName: typeof botName === 'string' ? botName : undefined,
      schema: this.schema,
      macros,
      events,
      eventNames: [...events.keys()],
      npcTemplates: this.compileNpcTemplates(top ? getNode(top, 'npc_templates') : undefined),
      engineSettings: this.compileEngineSettings(top ? getNode(top, 'engine_settings') : undefined),
      initialState: buildInitialState(this.schema),
    };
  }

  /** A mapping section, or undefined when it is absent (null) or not a mapping (reported). */
  private mapping(node: unknown, message: string): YAMLMap | undefined {
    if (isAbsent(node)) return undefined;
    if (isMap(node)) return node;
    this.sink.error('YARE_BAD_SCHEMA', message, placeOfNode(this.src, node));
    return undefined;
  }

  // ---------------------------------------------------------------- macros

  private collectMacros(node: unknown): void {
    const map = this.mapping(node, 'macros must be a mapping of name: expression.');
    if (!map) return;
    for (const { key, pair, value } of mapPairs(map)) {
      if (!IDENTIFIER.test(key)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Macro name '${key}' must be an identifier.`,
          placeOfNode(this.src, pair.key),
        );
        continue;
      }
      this.macroNodes.set(key, { node: value });
    }
  }

  private compileMacros(): void {
    const macroNames = new Set(this.macroNodes.keys());
    for (const [name, entry] of this.macroNodes) {
      const raw = scalarOf(entry.node);
      const place = placeOfNode(this.src, entry.node);
      if (typeof raw !== 'string') {
        this.sink.error(
          'YARE_NOT_AN_EXPRESSION',
          `Macro '${name}' must be an expression string, e.g. "@ roll(1d20) + 2".`,
          place,
        );
        continue;
      }
      // A macro is always an expression: the leading `@` is optional (the seed's template omits it).
      const expr = this.parse(raw, entry.node, true);
      if (!expr) continue;
      entry.expr = { source: expr.source, offset: expr.offset, ast: expr.ast, place: expr.place };
      const refs = new Set<string>();
      this.report(expr, (findings) =>
        checkExpr(
          expr.ast,
          { schema: this.schema, inputs: 'any', macros: macroNames, locals: new Set() },
          findings,
          refs,
        ),
      );
      this.macroRefs.set(name, refs);
    }
    // A macro that reaches itself would never finish.
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, trail: string[]): void => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        const cycle = [...trail.slice(trail.indexOf(name)), name];
        const entry = this.macroNodes.get(name);
        this.sink.error(
          'YARE_MACRO_CYCLE',
          `Macro cycle: ${cycle.map((c) => `macros.${c}`).join(' → ')}.`,
          placeOfNode(this.src, entry?.node),
        );
        return;
      }
      state.set(name, 'visiting');
      for (const ref of this.macroRefs.get(name) ?? []) visit(ref, [...trail, name]);
      state.set(name, 'done');
    };
    for (const name of this.macroNodes.keys()) visit(name, []);
  }

  /** Inputs a macro reads, directly or through other macros. */
  private macroInputs(name: string, seen = new Set<string>()): Set<string> {
    const out = new Set<string>();
    if (seen.has(name)) return out;
    seen.add(name);
    const expr = this.macroNodes.get(name)?.expr;
    if (expr) collectInputRefs(expr.ast, out);
    for (const ref of this.macroRefs.get(name) ?? []) for (const i of this.macroInputs(ref, seen)) out.add(i);
    return out;
  }

  // ---------------------------------------------------------------- events

  private collectEvents(node: unknown): void {
    const map = this.mapping(node, 'events must be a mapping of event name: { steps: [...] }.');
    if (!map) return;
    for (const { key, pair, value } of mapPairs(map)) {
      const place = placeOfNode(this.src, pair.key);
      if (!IDENTIFIER.test(key)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Event name '${key}' must be an identifier (letters, digits, underscores).`,
          place,
        );
        continue;
      }
      if (!isMap(value)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Event '${key}' must be a mapping with steps:.`,
          placeOfNode(this.src, value, place),
        );
        continue;
      }
      this.eventNodes.set(key, { node: value, place });
    }
  }

  private compileEvent(name: string, node: YAMLMap, place: SourcePlace): EventDef {
    for (const { key, pair } of mapPairs(node)) {
      if (!EVENT_KEYS.has(key)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Unknown key '${key}' in event '${name}'. Event keys are: ${[...EVENT_KEYS].join(', ')}.${didYouMean(key, EVENT_KEYS)}`,
          placeOfNode(this.src, pair.key),
        );
      }
    }
    const inputs = this.eventInputs.get(name) ?? new Map();
    const scope: EventScope = { inputs: new Set(inputs.keys()), locals: new Set() };
    const stepsNode = getNode(node, 'steps');
    const steps = stepsNode === undefined ? [] : this.compileSteps(stepsNode, scope, `events.${name}.steps`);
    const triggerNode = getNode(node, 'trigger_on');
    let triggerOn: 'cycle_tick' | undefined;
    if (triggerNode !== undefined) {
      if (scalarOf(triggerNode) === 'cycle_tick') triggerOn = 'cycle_tick';
      else
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `trigger_on supports only 'cycle_tick', got ${JSON.stringify(scalarOf(triggerNode))}.`,
          placeOfNode(this.src, triggerNode),
        );
    }
    const internalNode = getNode(node, 'internal');
    if (internalNode !== undefined && typeof scalarOf(internalNode) !== 'boolean') {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        'internal must be true or false.',
        placeOfNode(this.src, internalNode),
      );
    }
    const descriptionNode = getNode(node, 'description');
    const description =
      typeof scalarOf(descriptionNode) === 'string'
        ? (scalarOf(descriptionNode) as string)
        : `Trigger the ${name} event.`;
    return {
      name,
      description,
      inputs,
      inputList: [...inputs.values()],
      inputsListForm: isSeq(getNode(node, 'inputs')),
      steps,
      triggerOn,
      internal: scalarOf(internalNode) === true,
      resolver: false,
      intents: this.compileIntents(getNode(node, 'intents')),
      place,
    };
  }

  private compileIntents(node: unknown): string[] {
    if (node === undefined) return [];
    if (!isSeq(node)) {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        'intents must be a list of example player phrases.',
        placeOfNode(this.src, node),
      );
      return [];
    }
    const out: string[] = [];
    for (const item of node.items) {
      const v = scalarOf(item);
      if (typeof v === 'string' && v.trim() !== '') out.push(v);
      else
        this.sink.error(
          'YARE_BAD_SCHEMA',
          'Each intent must be a non-empty string.',
          placeOfNode(this.src, item),
        );
    }
    return out;
  }

  private compileInputs(eventName: string, node: unknown): ReadonlyMap<string, InputSpec> {
    const inputs = new Map<string, InputSpec>();
    if (isAbsent(node)) return inputs;
    if (isSeq(node)) {
      for (const item of node.items) {
        const n = scalarOf(item);
        if (typeof n !== 'string' || !IDENTIFIER.test(n)) {
          this.sink.error(
            'YARE_BAD_SCHEMA',
            `Input names of '${eventName}' must be identifiers.`,
            placeOfNode(this.src, item),
          );
          continue;
        }
        inputs.set(n, untypedInput(n));
      }
      return inputs;
    }
    if (!isMap(node)) {
      this.sink.error(
        'YARE_BAD_SCHEMA',
        `inputs of '${eventName}' must be a list of names or a mapping of typed inputs.`,
        placeOfNode(this.src, node),
      );
      return inputs;
    }
    for (const { key, pair, value } of mapPairs(node)) {
      const place = placeOfNode(this.src, pair.key);
      if (!IDENTIFIER.test(key) || RESERVED_NAMES.has(key)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Input name '${key}' of '${eventName}' must be an identifier and not a reserved name.`,
          place,
        );
        continue;
      }
      if (value === null || (isScalar(value) && value.value === null)) {
        inputs.set(key, untypedInput(key));
        continue;
      }
      if (!isMap(value)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Input '${key}' of '${eventName}' must be a mapping like { type: int, default: 0 }.`,
          placeOfNode(this.src, value, place),
        );
        continue;
      }
      for (const { key: k, pair: p } of mapPairs(value)) {
        if (!INPUT_KEYS.has(k)) {
          this.sink.error(
            'YARE_BAD_SCHEMA',
            `Unknown key '${k}' in input '${key}' of '${eventName}'. Input keys are: ${[...INPUT_KEYS].join(', ')}.${didYouMean(k, INPUT_KEYS)}`,
            placeOfNode(this.src, p.key),
          );
        }
      }
      const typeRaw = scalarOf(getNode(value, 'type'));
      let type: FieldType | undefined;
      if (typeRaw !== undefined) {
        if (typeof typeRaw === 'string' && (FIELD_TYPES as readonly string[]).includes(typeRaw))
          type = typeRaw as FieldType;
        else {
          this.sink.error(
            'YARE_BAD_SCHEMA',
            `Input '${key}' of '${eventName}' has unknown type ${JSON.stringify(typeRaw)}. Types are: ${FIELD_TYPES.join(', ')}.${didYouMean(String(typeRaw), FIELD_TYPES)}`,
            placeOfNode(this.src, getNode(value, 'type')),
          );
        }
      }
      const enumNode = getNode(value, 'enum');
      let enumValues: Value[] | undefined;
      if (enumNode !== undefined) {
        const plain = plainValue(enumNode);
        if (Array.isArray(plain) && plain.length > 0) enumValues = plain;
        else
          this.sink.error(
            'YARE_BAD_SCHEMA',
            `enum of input '${key}' must be a non-empty list.`,
            placeOfNode(this.src, enumNode),
          );
      }
      const defaultPair = getPair(value, 'default');
      const descriptionRaw = scalarOf(getNode(value, 'description'));
      const def = defaultPair ? plainValue(defaultPair.value) : null;
      if (
        defaultPair &&
        enumValues &&
        !enumValues.some((v) => String(v).toLowerCase() === String(def).toLowerCase())
      ) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `Default ${JSON.stringify(def)} of input '${key}' is not one of its enum values.`,
          placeOfNode(this.src, defaultPair.value),
        );
      }
      inputs.set(key, {
        name: key,
        type,
        enum: enumValues,
        enumIndex: enumValues ? new Map(enumValues.map((v) => [formatValue(v).toLowerCase(), v])) : undefined,
        hasDefault: defaultPair !== undefined,
        default: def,
        description: typeof descriptionRaw === 'string' ? descriptionRaw : undefined,
        required: defaultPair === undefined,
      });
    }
    return inputs;
  }

  // ---------------------------------------------------------------- steps

  private compileSteps(node: unknown, scope: EventScope, where: string): Step[] {
    if (node === null || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) {
      this.sink.error('YARE_BAD_STEP', `${where} must be a list of steps.`, placeOfNode(this.src, node));
      return [];
    }
    const steps: Step[] = [];
    node.items.forEach((item, i) => {
      const step = this.compileStep(item, scope, `${where}[${i}]`);
      if (step) steps.push(step);
    });
    return steps;
  }

  private compileStep(node: unknown, scope: EventScope, where: string): Step | undefined {
    const place = placeOfNode(this.src, node);
    if (!isMap(node)) {
      this.sink.error('YARE_BAD_STEP', `${where} must be a mapping with an action: key.`, place);
      return undefined;
    }
    const actionRaw = scalarOf(getNode(node, 'action'));
    if (typeof actionRaw !== 'string' || !(ACTIONS as string[]).includes(actionRaw)) {
      this.sink.error(
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
        this.sink.error(
          'YARE_BAD_STEP',
          `${where}: '${action}' has no field '${key}'. Its fields are: ${STEP_FIELDS[action].join(', ')}.${didYouMean(key, STEP_FIELDS[action])}`,
          placeOfNode(this.src, pair.key),
        );
      }
    }
    const field = (name: string): unknown => getNode(node, name);
    const required = (name: string): unknown => {
      const v = getPair(node, name);
      if (!v) this.sink.error('YARE_BAD_STEP', `${where}: '${action}' needs a '${name}' field.`, place);
      return v?.value;
    };
    switch (action) {
      case 'set': {
        const target = this.compileTarget(required('var'), scope, where);
        const value = this.compileOperand(getPair(node, 'value') ? field('value') : required('value'), scope);
        if (
          target?.kind === 'static' &&
          target.root === 'state' &&
          target.path.join('.') === '_pending_interaction'
        ) {
          this.noteResolvers(field('value'));
        }
        return target && value ? { kind: 'set', target, value, place } : undefined;
      }
      case 'mutate': {
        const target = this.compileTarget(required('var'), scope, where);
        const opNode = required('op');
        const op = scalarOf(opNode);
        if (opNode !== undefined && !(MUTATE_OPS as unknown[]).includes(op)) {
          this.sink.error(
            'YARE_BAD_STEP',
            `${where}: mutate op ${JSON.stringify(op)} is unknown. Ops are: ${MUTATE_OPS.join(', ')}.`,
            placeOfNode(this.src, opNode),
          );
          return undefined;
        }
        const value = this.compileOperand(required('value'), scope);
        return target && value && op
          ? { kind: 'mutate', target, op: op as MutateOp, value, place }
          : undefined;
      }
      case 'branch':
        return this.compileBranch(node, scope, where, place);
      case 'table_roll': {
        const roll = this.compileOperand(required('roll'), scope);
        const target = this.compileTarget(required('var'), scope, where);
        const tableNode = required('table');
        const table: { key: TableKey; value: Operand }[] = [];
        if (tableNode !== undefined && !isMap(tableNode)) {
          this.sink.error(
            'YARE_BAD_STEP',
            `${where}: table must be a mapping like { "1-5": goblin, "6+": orc }.`,
            placeOfNode(this.src, tableNode),
          );
        } else if (isMap(tableNode)) {
          for (const { key, pair, value } of mapPairs(tableNode)) {
            const parsed = parseTableKey(key);
            if (!parsed) {
              this.sink.error(
                'YARE_BAD_STEP',
                `${where}: table key '${key}' must be a number, a range like 1-5, or N+ like 11+.`,
                placeOfNode(this.src, pair.key),
              );
              continue;
            }
            const operand = this.compileOperand(value, scope);
            if (operand) table.push({ key: parsed, value: operand });
          }
        }
        return roll && target ? { kind: 'table_roll', roll, target, table, place } : undefined;
      }
      case 'call': {
        const eventNode = required('event');
        const eventName = scalarOf(eventNode);
        if (typeof eventName !== 'string' || !this.eventNodes.has(eventName)) {
          if (eventNode !== undefined) {
            this.sink.error(
              'YARE_UNKNOWN_EVENT',
              `${where} calls undefined event ${JSON.stringify(eventName)}. Declared events: ${[...this.eventNodes.keys()].join(', ')}.${typeof eventName === 'string' ? didYouMean(eventName, this.eventNodes.keys()) : ''}`,
              placeOfNode(this.src, eventNode),
            );
          }
          return undefined;
        }
        const calleeInputs = this.eventInputs.get(eventName) ?? new Map<string, InputSpec>();
        const argsNode = field('args');
        const args: { name: string; value: Operand }[] = [];
        if (argsNode !== undefined && !(isScalar(argsNode) && argsNode.value === null)) {
          if (!isMap(argsNode)) {
            this.sink.error(
              'YARE_BAD_STEP',
              `${where}: args must be a mapping of input name: value.`,
              placeOfNode(this.src, argsNode),
            );
          } else {
            for (const { key, pair, value } of mapPairs(argsNode)) {
              if (!calleeInputs.has(key)) {
                this.sink.error(
                  'YARE_UNKNOWN_INPUT',
                  `${where}: '${eventName}' has no input '${key}'.${didYouMean(key, calleeInputs.keys())}`,
                  placeOfNode(this.src, pair.key),
                );
                continue;
              }
              const operand = this.compileOperand(value, scope);
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
            this.sink.error(
              'YARE_BAD_STEP',
              `${where}: call to '${eventName}' is missing its required input '${spec.name}'.`,
              place,
            );
          }
        }
        return { kind: 'call', event: eventName, args, place };
      }
      case 'note':
        return this.compileNote(required('message'), scope, where, place);
      case 'list_push': {
        const target = this.compileTarget(required('var'), scope, where);
        const itemPair = getPair(node, 'item') ?? getPair(node, 'value');
        if (!itemPair) {
          this.sink.error('YARE_BAD_STEP', `${where}: list_push needs an 'item' field.`, place);
          return undefined;
        }
        const item = this.compileOperand(itemPair.value, scope);
        return target && item ? { kind: 'list_push', target, item, place } : undefined;
      }
      case 'list_remove': {
        const target = this.compileTarget(required('var'), scope, where);
        const hasIndex = getPair(node, 'index') !== undefined;
        const hasValue = getPair(node, 'value') !== undefined;
        if (hasIndex === hasValue) {
          this.sink.error(
            'YARE_BAD_STEP',
            `${where}: list_remove must specify exactly one of 'index' or 'value'.`,
            place,
          );
          return undefined;
        }
        const index = hasIndex ? this.compileOperand(field('index'), scope) : undefined;
        const value = hasValue ? this.compileOperand(field('value'), scope) : undefined;
        return target ? { kind: 'list_remove', target, index, value, place } : undefined;
      }
      case 'dict_set': {
        const target = this.compileTarget(required('var'), scope, where);
        const key = this.compileOperand(required('key'), scope);
        const value = this.compileOperand(required('value'), scope);
        return target && key && value ? { kind: 'dict_set', target, key, value, place } : undefined;
      }
      case 'dict_delete': {
        const target = this.compileTarget(required('var'), scope, where);
        const key = this.compileOperand(required('key'), scope);
        return target && key ? { kind: 'dict_delete', target, key, place } : undefined;
      }
      case 'foreach': {
        const arrayNode = required('array');
        const itemName = this.localName(field('item'), 'item', where);
        const indexName = this.localName(field('index'), 'index', where);
        const rawArray = scalarOf(arrayNode);
        let array: Operand | { kind: 'path'; target: Target } | undefined;
        if (typeof rawArray === 'string' && !rawArray.startsWith('@') && /^(state|temp)\./.test(rawArray)) {
          // The original reads a bare `state.x` path directly; keep that, checked like any target.
          const target = this.compileTarget(arrayNode, scope, where);
          array = target ? { kind: 'path', target } : undefined;
        } else {
          array = this.compileOperand(arrayNode, scope);
        }
        const inner: EventScope = {
          inputs: scope.inputs,
          locals: new Set([...scope.locals, itemName, indexName]),
        };
        const steps = this.compileSteps(required('steps'), inner, `${where}.steps`);
        return array ? { kind: 'foreach', array, itemName, indexName, steps, place } : undefined;
      }
    }
  }

  private localName(node: unknown, fallback: string, where: string): string {
    if (node === undefined) return fallback;
    const v = scalarOf(node);
    if (typeof v === 'string' && IDENTIFIER.test(v) && !RESERVED_NAMES.has(v)) return v;
    this.sink.error(
      'YARE_BAD_STEP',
      `${where}: foreach names must be identifiers that are not reserved, got ${JSON.stringify(v)}.`,
      placeOfNode(this.src, node),
    );
    return fallback;
  }

  private compileBranch(
    node: YAMLMap,
    scope: EventScope,
    where: string,
    place: SourcePlace,
  ): Step | undefined {
    const conditions = getNode(node, 'conditions');
    const arms: BranchArm[] = [];
    if (conditions !== undefined) {
      if (getPair(node, 'if') || getPair(node, 'else') || getPair(node, 'steps')) {
        this.sink.error(
          'YARE_BAD_STEP',
          `${where}: a branch uses either conditions: [...] or if:/steps:/else:, not both.`,
          place,
        );
        return undefined;
      }
      if (!isSeq(conditions)) {
        this.sink.error(
          'YARE_BAD_STEP',
          `${where}: conditions must be a list of { if, steps } with an optional { else, steps }.`,
          placeOfNode(this.src, conditions),
        );
        return undefined;
      }
      let sawElse = false;
      conditions.items.forEach((cond, i) => {
        const at = `${where}.conditions[${i}]`;
        const condPlace = placeOfNode(this.src, cond);
        if (!isMap(cond)) {
          this.sink.error('YARE_BAD_STEP', `${at} must be a mapping with if: and steps:.`, condPlace);
          return;
        }
        for (const { key, pair } of mapPairs(cond)) {
          if (key !== 'if' && key !== 'else' && key !== 'steps') {
            this.sink.error(
              'YARE_BAD_STEP',
              `${at}: unknown key '${key}'; a condition has if (or else) and steps.`,
              placeOfNode(this.src, pair.key),
            );
          }
        }
        // An `else` key with any value is the else arm: `- else:` followed by a sibling `steps:` gives null.
        const isElse = getPair(cond, 'else') !== undefined;
        const ifPair = getPair(cond, 'if');
        if (isElse && ifPair) {
          this.sink.error(
            'YARE_BAD_STEP',
            `${at}: a condition has either if: or else:, not both.`,
            condPlace,
          );
          return;
        }
        if (!isElse && !ifPair) {
          this.sink.error('YARE_BAD_STEP', `${at}: a condition needs if: (or else:).`, condPlace);
          return;
        }
        if (sawElse)
          this.sink.warning('YARE_UNREACHABLE', `${at} comes after an else and can never run.`, condPlace);
        if (isElse) sawElse = true;
        const test = ifPair ? this.compileCondition(ifPair.value, scope) : undefined;
        if (ifPair && !test) return;
        arms.push({ test, steps: this.compileSteps(getNode(cond, 'steps') ?? null, scope, `${at}.steps`) });
      });
      return { kind: 'branch', arms, place };
    }
    const ifPair = getPair(node, 'if');
    if (!ifPair) {
      this.sink.error(
        'YARE_BAD_STEP',
        `${where}: a branch needs conditions: [...] or if:/steps:/else:.`,
        place,
      );
      return undefined;
    }
    const test = this.compileCondition(ifPair.value, scope);
    if (!test) return undefined;
    arms.push({ test, steps: this.compileSteps(getNode(node, 'steps') ?? null, scope, `${where}.steps`) });
    const elsePair = getPair(node, 'else');
    if (elsePair)
      arms.push({ test: undefined, steps: this.compileSteps(elsePair.value, scope, `${where}.else`) });
    return { kind: 'branch', arms, place };
  }

  private compileCondition(node: unknown, scope: EventScope): Operand | undefined {
    const raw = scalarOf(node);
    if (typeof raw === 'string' && !raw.startsWith('@')) {
      this.sink.error(
        'YARE_NOT_AN_EXPRESSION',
        `Condition ${JSON.stringify(raw)} is plain text, which would always be true. Start it with @ to make it an expression: "@ ${raw}".`,
        placeOfNode(this.src, node),
      );
      return undefined;
    }
    return this.compileOperand(node, scope);
  }

  private compileNote(node: unknown, scope: EventScope, where: string, place: SourcePlace): Step | undefined {
    if (node === undefined) return undefined;
    const raw = scalarOf(node);
    if (typeof raw !== 'string') {
      this.sink.error('YARE_BAD_STEP', `${where}.message must be a string.`, placeOfNode(this.src, node));
      return undefined;
    }
    if (raw.length > MAX_NOTE_TEMPLATE_LENGTH) {
      this.sink.error(
        'YARE_NOTE_TOO_LONG',
        `${where}.message exceeds max length (${raw.length} > ${MAX_NOTE_TEMPLATE_LENGTH} chars).`,
        placeOfNode(this.src, node),
      );
      return undefined;
    }
    const injection = this.options.checkInjection?.(raw);
    if (injection) {
      this.sink.error('CART_INJECTION', `${where}.message: ${injection}`, placeOfNode(this.src, node));
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
        base === undefined ? placeOfNode(this.src, node) : placeAtOffset(this.src, base + innerOffset);
      const expr = this.parseText(innerText, place, base === undefined ? undefined : base + innerOffset);
      if (expr) {
        this.checkOperandExpr(expr, scope, base === undefined ? undefined : base + innerOffset, place);
        parts.push({ kind: 'expr', expr, place });
      }
      last = m.index + m[0].length;
    }
    if (last < raw.length) parts.push(raw.slice(last));
    return { kind: 'note', parts, template: raw, place };
  }

  /** `var:` — a `state.`/`temp.` path checked now, or an `@` expression that yields a path at run time. */
  private compileTarget(node: unknown, scope: EventScope, where: string): Target | undefined {
    if (node === undefined) return undefined;
    const raw = scalarOf(node);
    if (typeof raw !== 'string') {
      this.sink.error(
        'YARE_BAD_STEP',
        `${where}.var must be a path string like state.player.hp.`,
        placeOfNode(this.src, node),
      );
      return undefined;
    }
    if (raw.startsWith('@')) {
      const operand = this.compileOperand(node, scope);
      return operand ? { kind: 'dynamic', expr: operand } : undefined;
    }
    const text = raw.trim();
    const segments = text.split('.');
    const root = segments[0];
    if ((root !== 'state' && root !== 'temp') || segments.length < 2 || segments.some((s) => s === '')) {
      this.sink.error(
        'YARE_BAD_STEP',
        `${where}.var '${text}' must start with 'state.' or 'temp.'.`,
        placeOfNode(this.src, node),
      );
      return undefined;
    }
    const path = segments.slice(1);
    if (root === 'state') {
      const findings: CheckFinding[] = [];
      checkStatePath(path, 0, this.schema, findings);
      for (const f of findings)
        this.sink.error(f.code, `${where}.var: ${f.message}`, placeOfNode(this.src, node));
      if (findings.length) return undefined;
    }
    const declared = root === 'state' ? schemaAt(this.schema, path) : undefined;
    const field = declared?.kind === 'field' && declared.path.length === path.length ? declared : undefined;
    return { kind: 'static', root, path, text, segments: [root, ...path], field };
  }

  /** A value field: `@ expression`, a `'quoted'` string literal, any other string as is, or a YAML constant. */
  private compileOperand(node: unknown, scope: EventScope): Operand | undefined {
    if (node === undefined) return undefined;
    if (isScalar(node) && typeof node.value === 'string' && node.value.startsWith('@')) {
      const expr = this.parse(node.value, node, false);
      if (!expr) return undefined;
      this.checkOperandExpr(expr, scope, expr.base, expr.place);
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

  private checkOperandExpr(
    expr: Expression,
    scope: EventScope,
    base: number | undefined,
    place: SourcePlace,
  ): void {
    const findings: CheckFinding[] = [];
    const refs = new Set<string>();
    checkExpr(
      expr.ast,
      {
        schema: this.schema,
        inputs: scope.inputs,
        macros: new Set(this.macroNodes.keys()),
        locals: scope.locals,
      },
      findings,
      refs,
    );
    for (const ref of refs) {
      for (const input of this.macroInputs(ref)) {
        if (!scope.inputs.has(input)) {
          findings.push({
            code: 'YARE_UNKNOWN_INPUT',
            message: `macros.${ref} reads inputs.${input}, which this event does not declare.`,
            start: 0,
          });
        }
      }
    }
    for (const f of findings) {
      this.sink.error(
        f.code,
        f.message,
        base === undefined ? place : placeAtOffset(this.src, base + f.start),
      );
    }
  }

  /** Parses a YAML scalar holding an expression. `atOptional`: macros may omit the leading `@`. */
  private parse(
    raw: string,
    node: unknown,
    atOptional: boolean,
  ): (Expression & { place: SourcePlace; base: number | undefined }) | undefined {
    const place = placeOfNode(this.src, node);
    let text = raw;
    let skip = 0;
    const trimmed = raw.trimStart();
    if (trimmed.startsWith('@')) {
      skip = raw.length - trimmed.length + 1;
      text = raw.slice(skip);
    } else if (!atOptional) {
      this.sink.error(
        'YARE_NOT_AN_EXPRESSION',
        `Expected an expression starting with @, got ${JSON.stringify(raw)}.`,
        place,
      );
      return undefined;
    }
    const ws = text.length - text.trimStart().length;
    const base = contentOffset(node);
    const exprBase = base === undefined ? undefined : base + skip + ws;
    const expr = this.parseText(
      text.trimStart(),
      exprBase === undefined ? place : placeAtOffset(this.src, exprBase),
      exprBase,
    );
    return expr
      ? { ...expr, place: exprBase === undefined ? place : placeAtOffset(this.src, exprBase), base: exprBase }
      : undefined;
  }

  private parseText(text: string, place: SourcePlace, base: number | undefined): Expression | undefined {
    try {
      return parseExpression(text);
    } catch (error) {
      if (error instanceof YareError) {
        const at =
          base !== undefined && error.span ? placeAtOffset(this.src, base + error.span.start) : place;
        this.sink.error(error.code, error.message, at);
        return undefined;
      }
      throw error;
    }
  }

  private report(expr: Expression & { place: SourcePlace }, run: (findings: CheckFinding[]) => void): void {
    const findings: CheckFinding[] = [];
    run(findings);
    for (const f of findings) this.sink.error(f.code, f.message, expr.place);
  }

  // ---------------------------------------------------------------- npc templates, engine settings

  private compileNpcTemplates(node: unknown): ReadonlyMap<string, NpcTemplate> {
    const out = new Map<string, NpcTemplate>();
    const map = this.mapping(node, 'npc_templates must be a YAML mapping.');
    if (!map) return out;
    for (const { key, pair, value } of mapPairs(map)) {
      const place = placeOfNode(this.src, pair.key);
      if (!isMap(value)) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' must be a mapping with 'type' and 'description'.`,
          place,
        );
        continue;
      }
      const type = scalarOf(getNode(value, 'type'));
      if (type !== 'name' && type !== 'tag') {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' has invalid type ${JSON.stringify(type ?? null)}. Allowed values: name, tag.`,
          placeOfNode(this.src, getNode(value, 'type') ?? value),
        );
        continue;
      }
      const description = scalarOf(getNode(value, 'description'));
      if (typeof description !== 'string') {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' must have a 'description' string.`,
          place,
        );
        continue;
      }
      const creditNode = getNode(value, 'credit');
      const credit = scalarOf(creditNode);
      if (creditNode !== undefined && (typeof credit !== 'number' || !Number.isInteger(credit))) {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `npc_templates entry '${key}' credit must be an integer.`,
          placeOfNode(this.src, creditNode),
        );
        continue;
      }
      for (const { key: k, pair: p } of mapPairs(value)) {
        if (!['type', 'description', 'credit'].includes(k)) {
          this.sink.warning(
            'YARE_UNKNOWN_KEY',
            `npc_templates entry '${key}': unknown key '${k}' is ignored.`,
            placeOfNode(this.src, p.key),
          );
        }
      }
      out.set(key, { key, type, description, credit: typeof credit === 'number' ? credit : undefined });
    }
    return out;
  }

  private compileEngineSettings(node: unknown): EngineSettings {
    const settings = { npcMinCreditThreshold: 5, maxBatchedNpcs: 3 };
    const map = this.mapping(node, 'engine_settings must be a mapping.');
    if (!map) return settings;
    for (const { key, pair, value } of mapPairs(map)) {
      const v = scalarOf(value);
      const ok = typeof v === 'number' && Number.isInteger(v) && v >= 0;
      if (key === 'npc_min_credit_threshold' && ok) settings.npcMinCreditThreshold = v;
      else if (key === 'max_batched_npcs' && ok && v >= 1) settings.maxBatchedNpcs = v;
      else if (key === 'npc_min_credit_threshold' || key === 'max_batched_npcs') {
        this.sink.error(
          'YARE_BAD_SCHEMA',
          `engine_settings.${key} must be a non-negative integer${key === 'max_batched_npcs' ? ' (at least 1)' : ''}.`,
          placeOfNode(this.src, value),
        );
      } else {
        this.sink.warning(
          'YARE_UNKNOWN_KEY',
          `engine_settings.${key} is unknown and ignored.`,
          placeOfNode(this.src, pair.key),
        );
      }
    }
    return settings;
  }

  /** Records `resolver_event` names from literal `_pending_interaction` dicts, so resolvers are never tools. */
  noteResolvers(node: unknown): void {
    if (!isMap(node)) return;
    const resolver = getNode(node, 'resolver_event');
    const name = scalarOf(resolver);
    if (typeof name === 'string') this.resolverNames.set(name, placeOfNode(this.src, resolver));
  }
}

function collectInputRefs(e: Expr, out: Set<string>): void {
  switch (e.kind) {
    case 'attribute':
      if (e.object.kind === 'name' && e.object.name === 'inputs') out.add(e.name);
      else collectInputRefs(e.object, out);
      return;
    case 'index':
      collectInputRefs(e.object, out);
      collectInputRefs(e.index, out);
      return;
    case 'call':
      for (const a of e.args) collectInputRefs(a, out);
      for (const k of e.kwargs) collectInputRefs(k.value, out);
      return;
    case 'unary':
      collectInputRefs(e.operand, out);
      return;
    case 'binary':
    case 'logical':
      collectInputRefs(e.left, out);
      collectInputRefs(e.right, out);
      return;
    case 'compare':
      for (const o of e.operands) collectInputRefs(o, out);
      return;
    case 'conditional':
      collectInputRefs(e.test, out);
      collectInputRefs(e.then, out);
      collectInputRefs(e.otherwise, out);
      return;
    case 'list':
      for (const i of e.items) collectInputRefs(i, out);
      return;
    case 'dict':
      for (const en of e.entries) {
        collectInputRefs(en.key, out);
        collectInputRefs(en.value, out);
      }
      return;
    case 'literal':
    case 'dice':
    case 'name':
      return;
  }
}

/** An input declared by name only (list form, or `name:` with nothing after it): any value, required. */
function untypedInput(name: string): InputSpec {
  return {
    name,
    type: undefined,
    enum: undefined,
    enumIndex: undefined,
    hasDefault: false,
    default: null,
    description: undefined,
    required: true,
  };
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
