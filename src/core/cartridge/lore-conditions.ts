// Lore that follows the state (docs/cartridges.md, "Lore that follows the state"): the `when:` conditions of
// `bot_lore.md` sections and World Info entries (`extensions.mnesos.when`). Each is an expression of the rules
// language, compiled once: it reads `state.` as the rules see it (private fields included) and the world
// ledger through `entity(key)`, `thread(key)`, `fact(id)`, `knows(entity, fact_id)` and `scene()`. It is checked at load like every
// expression (`bot_lore.md:line:col`, "did you mean"), may not roll dice or call macros (it is evaluated every
// turn and changes nothing), and a section or entry is in play exactly while its condition holds.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import {
  type EntityRecord,
  type FactRecord,
  getFact,
  knowsFact,
  lookup,
  type Scene,
  type ThreadRecord,
  type World,
} from '../ledger/index.ts';
import type { ConditionalLore, LoreAdmission, WorldInfoBook, WorldInfoEntry } from '../lore/index.ts';
import { locateJsonPath } from '../lore/index.ts';
import {
  type CheckFinding,
  type Closure,
  type CompiledRules,
  checkExpr,
  compileClosure,
  type Dict,
  type EvalContext,
  type HostFunction,
  MAX_STEPS_PER_RUN,
  newDict,
  parseExpression,
  toValue,
  truthy,
  type Value,
  walkExpr,
  YareError,
  type YareErrorCode,
} from '../yare/index.ts';
import { cartError } from './diagnostics.ts';
import {
  CHANGED,
  type ConditionInput,
  type ConditionInputs,
  conditionInputs,
  inputToken,
} from './lore-condition-inputs.ts';

/** One compiled condition: the text as written, its closure, what it reads, and its two verdicts (made once). */
export interface CompiledCondition {
  readonly text: string;
  readonly closure: Closure;
  /** The state paths and ledger records it reads; undefined when it is evaluated every turn. */
  readonly inputs: ConditionInputs;
  readonly held: ConditionVerdict;
  readonly kept: ConditionVerdict;
}

function compiledCondition(text: string, closure: Closure, inputs: ConditionInputs): CompiledCondition {
  return {
    text,
    closure,
    inputs,
    held: { held: true, why: `when held: ${text}` },
    kept: { held: false, why: `when false: ${text}` },
  };
}

export interface LoreConditions {
  /** `bot_lore.md` sections with a condition, by chunk id (`L<line>`). */
  readonly sections: ReadonlyMap<string, CompiledCondition>;
  /** World Info entries with a condition, by uid. */
  readonly worldInfo: ReadonlyMap<number, CompiledCondition>;
}

/** Where the conditions' texts are, for diagnostics. */
export interface ConditionFiles {
  readonly lore: string;
  readonly worldInfo?: { readonly file: string; readonly text: string };
}

// ------------------------------------------------------------------------------ the ledger functions

/** The evaluation context of conditions: `state` and the world. */
class ConditionScope implements EvalContext {
  constructor(
    readonly state: Dict,
    readonly world: World,
  ) {}
  lookup(name: string): Value | undefined {
    return name === 'state' ? this.state : undefined;
  }
  macro(_name: string, span: { start: number; end: number }): Value {
    throw new YareError('YARE_UNKNOWN_MACRO', 'a lore condition cannot use macros', span);
  }
  roll(): number {
    throw new YareError('YARE_UNSUPPORTED', 'a lore condition cannot roll dice');
  }
  /** Comprehension items of all of a turn's conditions together, bounded like one rules run. */
  steps = 0;
  step(): void {
    if (++this.steps > MAX_STEPS_PER_RUN)
      throw new YareError(
        'YARE_STEP_LIMIT',
        `the lore conditions of one turn took more than ${MAX_STEPS_PER_RUN} steps (MAX_STEPS_PER_RUN)`,
      );
  }
}

function scopeOf(ctx: EvalContext, span: { start: number; end: number }): ConditionScope {
  if (ctx instanceof ConditionScope) return ctx;
  throw new YareError('YARE_UNSUPPORTED', 'the ledger functions exist only in lore conditions', span);
}

function keyArg(name: string, args: readonly Value[], span: { start: number; end: number }): string {
  const key = args[0];
  if (typeof key !== 'string')
    throw new YareError('YARE_TYPE', `${name}() takes a key as text, as in ${name}('mara')`, span);
  return key;
}

/**
 * A ledger record as conditions read it, built once per record however many conditions and turns read it:
 * the ledger replaces a record instead of editing it, so the same object always reads the same (an entity's
 * value also says whether it is in the scene, so it is kept with the scene it was built for).
 */
const entityValues = new WeakMap<EntityRecord, { readonly scene: Scene | null; readonly value: Dict }>();
const recordValues = new WeakMap<object, Dict>();

function recordOnce<T extends object>(source: T, build: (source: T) => Dict): Dict {
  let value = recordValues.get(source);
  if (value === undefined) {
    value = build(source);
    recordValues.set(source, value);
  }
  return value;
}

function entityValue(e: EntityRecord, scene: Scene | null): Dict {
  const known = entityValues.get(e);
  if (known !== undefined && known.scene === scene) return known.value;
  const value = record({
    key: e.key,
    name: e.name,
    type: e.entityType ?? null,
    status: e.status ?? null,
    location: e.location ?? null,
    holder: e.holder ?? null,
    conditions: [...e.conditions],
    attributes: { ...e.attributes },
    present: scene?.present.includes(e.key) ?? false,
  });
  entityValues.set(e, { scene, value });
  return value;
}

const threadValue = (t: ThreadRecord): Dict =>
  record({ key: t.key, title: t.title, open: t.resolved === undefined });

const factValue = (f: FactRecord): Dict =>
  record({
    id: f.id,
    predicate: f.predicate,
    subject: f.subject ?? null,
    object: f.object ?? null,
    value: f.value ?? null,
  });

const sceneValue = (s: Scene): Dict =>
  record({ location: s.location ?? null, present: [...s.present], summary: s.summary ?? null });

function record(fields: Record<string, unknown>): Dict {
  const out = newDict();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = toValue(v);
  return out;
}

export const LEDGER_CONDITION_FUNCTIONS: ReadonlyMap<string, HostFunction> = new Map<string, HostFunction>([
  [
    'entity',
    {
      minArgs: 1,
      maxArgs: 1,
      usage: "entity('mara').location == 'chapel'",
      call(ctx, args, span) {
        const scope = scopeOf(ctx, span);
        const key = keyArg('entity', args, span);
        const e = lookup(scope.world.entities, key);
        return e === undefined ? null : entityValue(e, scope.world.scene);
      },
    },
  ],
  [
    'thread',
    {
      minArgs: 1,
      maxArgs: 1,
      usage: "thread('missing_miller').open",
      call(ctx, args, span) {
        const scope = scopeOf(ctx, span);
        const key = keyArg('thread', args, span);
        const t = lookup(scope.world.threads, key);
        return t === undefined ? null : recordOnce(t, threadValue);
      },
    },
  ],
  [
    'fact',
    {
      minArgs: 1,
      maxArgs: 1,
      usage: "fact('bridge_burned') != None",
      call(ctx, args, span) {
        const scope = scopeOf(ctx, span);
        const id = keyArg('fact', args, span);
        const f = getFact(scope.world, id);
        // A withdrawn fact is no longer asserted: to a condition it is not there.
        return f === undefined || f.invalidated !== undefined ? null : recordOnce(f, factValue);
      },
    },
  ],
  [
    'knows',
    {
      minArgs: 2,
      maxArgs: 2,
      usage: "knows('bran', 'secret_key')",
      call(ctx, args, span) {
        const scope = scopeOf(ctx, span);
        const entity = keyArg('knows', args, span);
        const id = args[1];
        if (typeof id !== 'string')
          throw new YareError(
            'YARE_TYPE',
            "knows() takes an entity key and a fact id, as in knows('bran', 'secret_key')",
            span,
          );
        const f = getFact(scope.world, id);
        return f !== undefined && f.invalidated === undefined && knowsFact(f, entity);
      },
    },
  ],
  [
    'scene',
    {
      minArgs: 0,
      maxArgs: 0,
      usage: "scene().location == 'chapel'",
      call(ctx, _args, span) {
        const scope = scopeOf(ctx, span);
        const s = scope.world.scene;
        return s === null ? null : recordOnce(s, sceneValue);
      },
    },
  ],
]);

// ------------------------------------------------------------------------------ compiling

type Compiled =
  | { readonly ok: true; readonly condition: CompiledCondition }
  | { readonly ok: false; readonly code: YareErrorCode; readonly message: string; readonly offset: number };

/** Compiles one condition text (`@ …` or a bare expression); offsets of errors count from the text's start. */
export function compileCondition(rules: CompiledRules, text: string): Compiled {
  const body = text.startsWith('@') ? text.slice(1).trimStart() : text;
  const skipped = text.length - body.length;
  if (body.trim() === '')
    return { ok: false, code: 'YARE_SYNTAX', message: 'the condition is empty', offset: 0 };
  let expr: ReturnType<typeof parseExpression>;
  try {
    expr = parseExpression(body, { source: text, offset: skipped });
  } catch (error) {
    if (!(error instanceof YareError)) throw error;
    return {
      ok: false,
      code: error.code,
      message: error.message,
      offset: skipped + (error.span?.start ?? 0),
    };
  }
  const findings: CheckFinding[] = [];
  checkExpr(
    expr.ast,
    {
      schema: rules.schema,
      inputs: new Set(),
      macros: new Set(),
      locals: new Set(),
      functions: LEDGER_CONDITION_FUNCTIONS,
      roots: ['state'],
    },
    findings,
  );
  walkExpr(expr.ast, (node) => {
    if (node.kind === 'call' && node.callee === 'roll')
      findings.push({
        code: 'YARE_UNKNOWN_FUNCTION',
        message:
          'a lore condition cannot roll dice: it is evaluated every turn and must hold or not on the state alone',
        start: node.span.start,
      });
    return undefined;
  });
  const first = findings.sort((a, b) => a.start - b.start)[0];
  if (first !== undefined)
    return { ok: false, code: first.code, message: first.message, offset: skipped + first.start };
  return {
    ok: true,
    condition: compiledCondition(
      text,
      compileClosure(expr, { hostFunctions: LEDGER_CONDITION_FUNCTIONS }),
      conditionInputs(expr.ast),
    ),
  };
}

/**
 * A condition that did not compile (the loader refuses such a cartridge; a turn given one anyway keeps the
 * section out, saying why, instead of letting it in unconditionally).
 */
function failing(text: string, compiled: Extract<Compiled, { ok: false }>): CompiledCondition {
  const code = compiled.code;
  // It reads nothing: its verdict is the same every turn.
  return compiledCondition(text, () => {
    throw new YareError(code, compiled.message);
  }, []);
}

/** The JSON path of each World Info entry in the file, in book order (the reader keeps every entry in order). */
function worldInfoEntryPaths(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const obj = (v: unknown): Record<string, unknown> | undefined =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const root = obj(value);
  const wrapped = root?.spec === 'lorebook_v3';
  const entries = wrapped ? obj(root?.data)?.entries : root?.entries;
  const prefix = wrapped ? 'data.entries' : 'entries';
  const keys = Array.isArray(entries) ? entries.map((_, i) => String(i)) : Object.keys(obj(entries) ?? {});
  return keys.map((k) => `${prefix}.${k}`);
}

/** Compiles every condition of the cartridge's lore and World Info; each problem is an error at its place. */
export function compileLoreConditions(
  rules: CompiledRules,
  lore: ConditionalLore,
  worldInfo: WorldInfoBook | undefined,
  files: ConditionFiles,
): { conditions: LoreConditions; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const sections = new Map<string, CompiledCondition>();
  for (const source of lore.conditions) {
    const compiled = compileCondition(rules, source.text);
    sections.set(source.chunkId, compiled.ok ? compiled.condition : failing(source.text, compiled));
    if (!compiled.ok) {
      const place: SourcePlace = { file: files.lore, line: source.line, col: source.col + compiled.offset };
      diagnostics.push(
        cartError('CART_BAD_CONDITION', `when: of section "${source.heading}": ${compiled.message}`, place),
      );
    }
  }
  const entries = new Map<number, CompiledCondition>();
  if (worldInfo !== undefined) {
    const paths = files.worldInfo === undefined ? [] : worldInfoEntryPaths(files.worldInfo.text);
    for (const [i, entry] of worldInfo.entries.entries()) {
      if (entry.when === undefined) continue;
      const compiled = compileCondition(rules, entry.when);
      entries.set(entry.uid, compiled.ok ? compiled.condition : failing(entry.when, compiled));
      if (compiled.ok) continue;
      const path = `${paths[i] ?? `entries.${entry.uid}`}.extensions.mnesos.when`;
      const place: SourcePlace | undefined =
        files.worldInfo === undefined
          ? undefined
          : { file: files.worldInfo.file, ...locateJsonPath(files.worldInfo.text, path) };
      diagnostics.push(cartError('CART_BAD_CONDITION', `${path}: ${compiled.message}`, place));
    }
  }
  return { conditions: { sections, worldInfo: entries }, diagnostics };
}

// ------------------------------------------------------------------------------ evaluating

export type ConditionVerdict =
  | { readonly held: true; readonly why: string }
  | { readonly held: false; readonly why: string; readonly error?: string };

/** Verdicts by section id or entry uid. */
export interface VerdictTable<K> {
  readonly size: number;
  get(key: K): ConditionVerdict | undefined;
  entries(): Iterable<readonly [K, ConditionVerdict]>;
  values(): Iterable<ConditionVerdict>;
}

/** The verdicts of one turn: each condition evaluated once on the state and the world. */
export interface ConditionVerdicts {
  readonly sections: VerdictTable<string>;
  readonly worldInfo: VerdictTable<number>;
  /** Conditions evaluated for these verdicts; the others kept their last verdict (nothing they read changed). */
  readonly evaluated: number;
}

/** The conditions of a table in a fixed order, and where each key is: made once per compiled table. */
interface Layout<K> {
  readonly keys: readonly K[];
  readonly conditions: readonly CompiledCondition[];
  readonly at: ReadonlyMap<K, number>;
}

const layouts = new WeakMap<ReadonlyMap<unknown, CompiledCondition>, Layout<unknown>>();

function layoutOf<K>(table: ReadonlyMap<K, CompiledCondition>): Layout<K> {
  let layout = layouts.get(table) as Layout<K> | undefined;
  if (layout === undefined) {
    const keys = [...table.keys()];
    layout = { keys, conditions: keys.map((k) => table.get(k)!), at: new Map(keys.map((k, i) => [k, i])) };
    layouts.set(table, layout as Layout<unknown>);
  }
  return layout;
}

/** A verdict as one byte: the condition's own `held` or `kept`, or a failure (kept apart, by index). */
const UNKNOWN = 0;
const HELD = 1;
const KEPT = 2;
const FAILED = 3;

/**
 * One turn's verdicts as a byte per condition beside the shared layout: no per-turn map or array of objects
 * is built (a turn's garbage is two kilobytes for 2,000 conditions).
 */
class Verdicts<K> implements VerdictTable<K> {
  constructor(
    private readonly layout: Layout<K>,
    private readonly codes: Uint8Array,
    private readonly failures: ReadonlyMap<number, ConditionVerdict> | undefined,
  ) {}
  get size(): number {
    return this.codes.length;
  }
  private at(i: number): ConditionVerdict {
    const code = this.codes[i];
    const condition = this.layout.conditions[i]!;
    return code === HELD ? condition.held : code === KEPT ? condition.kept : this.failures!.get(i)!;
  }
  get(key: K): ConditionVerdict | undefined {
    const i = this.layout.at.get(key);
    return i === undefined ? undefined : this.at(i);
  }
  *entries(): Iterable<readonly [K, ConditionVerdict]> {
    for (let i = 0; i < this.codes.length; i++) yield [this.layout.keys[i]!, this.at(i)];
  }
  *values(): Iterable<ConditionVerdict> {
    for (let i = 0; i < this.codes.length; i++) yield this.at(i);
  }
}

/**
 * What the conditions of one cartridge read, and what the last evaluation found: the token of each input,
 * each condition's verdict and the steps it used. A condition none of whose inputs changed since it was last
 * evaluated keeps its verdict: the verdicts are those of evaluating every condition, since a condition is a
 * function of its inputs. Kept per compiled set of conditions (one per cartridge), whichever session asks.
 */
interface Memo {
  readonly inputs: readonly ConditionInput[];
  /** Each input's token when last read (UNREAD before the first turn). */
  readonly tokens: unknown[];
  /** Which inputs changed this turn (reused: an evaluation runs to its end before the next begins). */
  readonly changed: Uint8Array;
  readonly sections: TableMemo;
  readonly worldInfo: TableMemo;
}

interface TableMemo {
  /** Each condition's inputs as indexes into `Memo.inputs`; undefined: evaluated every turn. */
  readonly reads: readonly (readonly number[] | undefined)[];
  /** Each condition's last verdict (UNKNOWN before its first evaluation), and the failures by index. */
  readonly codes: Uint8Array;
  readonly failures: Map<number, ConditionVerdict>;
  readonly steps: number[];
}

const UNREAD: unique symbol = Symbol('unread');
const memos = new WeakMap<LoreConditions, Memo>();

function memoOf(conditions: LoreConditions): Memo {
  let memo = memos.get(conditions);
  if (memo !== undefined) return memo;
  const inputs: ConditionInput[] = [];
  const at = new Map<string, number>();
  const indexOf = (input: ConditionInput): number => {
    let i = at.get(input.text);
    if (i === undefined) {
      i = inputs.length;
      inputs.push(input);
      at.set(input.text, i);
    }
    return i;
  };
  const tableMemo = <K>(table: ReadonlyMap<K, CompiledCondition>): TableMemo => {
    const reads = layoutOf(table).conditions.map((c) => c.inputs?.map(indexOf));
    return { reads, codes: new Uint8Array(reads.length), failures: new Map(), steps: reads.map(() => 0) };
  };
  const sections = tableMemo(conditions.sections);
  const worldInfo = tableMemo(conditions.worldInfo);
  memo = {
    inputs,
    tokens: inputs.map(() => UNREAD),
    changed: new Uint8Array(inputs.length),
    sections,
    worldInfo,
  };
  memos.set(conditions, memo);
  return memo;
}

/** Reads every input once; says which changed since the last read, and remembers the new tokens. */
function changedInputs(memo: Memo, state: Dict, world: World): Uint8Array {
  const changed = memo.changed;
  changed.fill(0);
  for (let i = 0; i < memo.inputs.length; i++) {
    const token = inputToken(memo.inputs[i]!, state, world);
    if (token === CHANGED || !Object.is(token, memo.tokens[i])) {
      changed[i] = 1;
      memo.tokens[i] = token;
    }
  }
  return changed;
}

function unchanged(reads: readonly number[] | undefined, changed: Uint8Array): boolean {
  if (reads === undefined) return false;
  for (let i = 0; i < reads.length; i++) if (changed[reads[i]!] === 1) return false;
  return true;
}

/**
 * One table's verdicts: a condition reading no changed input keeps its last verdict (its steps still count
 * toward the turn's limit). Once the steps pass the limit every later condition is evaluated, as a full
 * evaluation would fail them, and `limit.exceeded` is set.
 */
function evaluateTable<K>(
  table: ReadonlyMap<K, CompiledCondition>,
  scope: ConditionScope,
  memo: TableMemo,
  changed: Uint8Array,
  limit: { exceeded: boolean; evaluated: number },
): Verdicts<K> {
  const layout = layoutOf(table);
  const n = layout.conditions.length;
  const { codes, failures, steps } = memo;
  for (let i = 0; i < n; i++) {
    if (!limit.exceeded && codes[i] !== UNKNOWN && unchanged(memo.reads[i], changed)) {
      if (scope.steps + steps[i]! <= MAX_STEPS_PER_RUN) {
        scope.steps += steps[i]!;
        continue;
      }
      limit.exceeded = true;
    }
    const before = scope.steps;
    limit.evaluated++;
    const condition = layout.conditions[i]!;
    const verdict = verdictOf(condition, scope);
    if (scope.steps > MAX_STEPS_PER_RUN) limit.exceeded = true;
    if (verdict === condition.held) codes[i] = HELD;
    else if (verdict === condition.kept) codes[i] = KEPT;
    else {
      codes[i] = FAILED;
      failures.set(i, verdict);
    }
    if (codes[i] !== FAILED && failures.size > 0) failures.delete(i);
    steps[i] = scope.steps - before;
  }
  // The turn's verdicts are the memo's as it now stands, copied: later turns change the memo.
  return new Verdicts(layout, codes.slice(0, n), failures.size === 0 ? undefined : new Map(failures));
}

function verdictOf(condition: CompiledCondition, scope: ConditionScope): ConditionVerdict {
  try {
    return truthy(condition.closure(scope)) ? condition.held : condition.kept;
  } catch (error) {
    if (!(error instanceof YareError)) throw error;
    // A condition that cannot be evaluated on this state (a type error, say) keeps its section out.
    return {
      held: false,
      why: `when failed (${error.code}: ${error.message}): ${condition.text}`,
      error: error.message,
    };
  }
}

/**
 * Evaluates every condition on `state` (as the rules see it) and `world`. Pure as far as a caller can tell:
 * the same state and world give the same verdicts. Each ledger read is made once however many conditions
 * share it, and a condition whose inputs did not change since its last evaluation is not evaluated again.
 */
export function evaluateLoreConditions(
  conditions: LoreConditions,
  state: Dict,
  world: World,
): ConditionVerdicts {
  const scope = new ConditionScope(state, world);
  const memo = memoOf(conditions);
  const changed = changedInputs(memo, state, world);
  const limit = { exceeded: false, evaluated: 0 };
  const sections = evaluateTable(conditions.sections, scope, memo.sections, changed, limit);
  const worldInfo = evaluateTable(conditions.worldInfo, scope, memo.worldInfo, changed, limit);
  const verdicts = { sections, worldInfo, evaluated: limit.evaluated };
  // A turn past the step limit leaves nothing to reuse: the next one evaluates every condition afresh.
  if (limit.exceeded) {
    memo.tokens.fill(UNREAD);
    memo.sections.codes.fill(UNKNOWN);
    memo.worldInfo.codes.fill(UNKNOWN);
  }
  return verdicts;
}

/** A section's admission for `lookupAdmitted`: no condition, or its verdict. */
export function admissionOf(verdicts: ConditionVerdicts, chunkId: string): LoreAdmission {
  const v = verdicts.sections.get(chunkId);
  return v === undefined ? { kind: 'always' } : { kind: 'when', held: v.held, why: v.why };
}

/** Each conditional entry's two forms (in play, kept out), made once: activation's caches key on entries. */
const forcedForms = new WeakMap<WorldInfoEntry, { held: WorldInfoEntry; kept: WorldInfoEntry }>();

/**
 * The book as this turn's verdicts leave it: an entry whose condition holds is activated without a key (as
 * `@@activate` does), one whose condition is false is never activated (as `@@dont_activate`), whatever is
 * written in the chat. Entries without a condition are the book's own.
 */
export function worldInfoUnderVerdicts(book: WorldInfoBook, verdicts: ConditionVerdicts): WorldInfoBook {
  if (verdicts.worldInfo.size === 0) return book;
  return {
    ...book,
    entries: book.entries.map((entry) => {
      const v = verdicts.worldInfo.get(entry.uid);
      if (v === undefined) return entry;
      let forms = forcedForms.get(entry);
      if (forms === undefined) {
        forms = {
          held: { ...entry, forceActivate: true, forceSkip: false },
          kept: { ...entry, forceActivate: false, forceSkip: true },
        };
        forcedForms.set(entry, forms);
      }
      return v.held ? forms.held : forms.kept;
    }),
  };
}

/** An activation reason as the author wrote it: the forced activation or skip named by the condition. */
export function worldInfoReason(verdicts: ConditionVerdicts, uid: number, reason: string): string {
  const v = verdicts.worldInfo.get(uid);
  if (v === undefined) return reason;
  if ((v.held && reason === '@@activate') || (!v.held && reason === '@@dont_activate')) return v.why;
  return `${reason} (${v.why})`;
}
