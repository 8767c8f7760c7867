// Lore that follows the state (docs/cartridges.md, "Lore that follows the state"): the `when:` conditions of
// `bot_lore.md` sections and World Info entries (`extensions.mnesos.when`). Each is an expression of the rules
// language, compiled once: it reads `state.` as the rules see it (private fields included) and the world
// ledger through `entity(key)`, `thread(key)`, `fact(id)`, `knows(entity, fact_id)` and `scene()`. It is checked at load like every
// expression (`bot_lore.md:line:col`, "did you mean"), may not roll dice or call macros (it is evaluated every
// turn and changes nothing), and a section or entry is in play exactly while its condition holds.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { getFact, knowsFact, lookup, type World } from '../ledger/index.ts';
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

/** One compiled condition: the text as written, its closure, and its two verdicts (made once). */
export interface CompiledCondition {
  readonly text: string;
  readonly closure: Closure;
  readonly held: ConditionVerdict;
  readonly kept: ConditionVerdict;
}

function compiledCondition(text: string, closure: Closure): CompiledCondition {
  return {
    text,
    closure,
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

/** The evaluation context of conditions: `state` and the world, and a cache of this turn's reads. */
class ConditionScope implements EvalContext {
  /** Reads made this turn, by function and key. */
  readonly reads = {
    entity: new Map<string, Value>(),
    thread: new Map<string, Value>(),
    fact: new Map<string, Value>(),
    scene: new Map<string, Value>(),
  };
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
  private steps = 0;
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

/** A read of the world, once per scope: the same key read by many conditions builds one value. */
function cached(reads: Map<string, Value>, key: string, read: () => Value): Value {
  let v = reads.get(key);
  if (v === undefined) {
    v = read();
    reads.set(key, v);
  }
  return v;
}

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
        return cached(scope.reads.entity, key, () => {
          const e = lookup(scope.world.entities, key);
          if (e === undefined) return null;
          return record({
            key: e.key,
            name: e.name,
            type: e.entityType ?? null,
            status: e.status ?? null,
            location: e.location ?? null,
            holder: e.holder ?? null,
            conditions: [...e.conditions],
            attributes: { ...e.attributes },
            present: scope.world.scene?.present.includes(e.key) ?? false,
          });
        });
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
        return cached(scope.reads.thread, key, () => {
          const t = lookup(scope.world.threads, key);
          if (t === undefined) return null;
          return record({ key: t.key, title: t.title, open: t.resolved === undefined });
        });
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
        return cached(scope.reads.fact, id, () => {
          const f = getFact(scope.world, id);
          // A withdrawn fact is no longer asserted: to a condition it is not there.
          if (f === undefined || f.invalidated !== undefined) return null;
          return record({
            id: f.id,
            predicate: f.predicate,
            subject: f.subject ?? null,
            object: f.object ?? null,
            value: f.value ?? null,
          });
        });
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
        return cached(scope.reads.scene, '', () => {
          const s = scope.world.scene;
          if (s === null) return null;
          return record({
            location: s.location ?? null,
            present: [...s.present],
            summary: s.summary ?? null,
          });
        });
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
    condition: compiledCondition(text, compileClosure(expr, { hostFunctions: LEDGER_CONDITION_FUNCTIONS })),
  };
}

/**
 * A condition that did not compile (the loader refuses such a cartridge; a turn given one anyway keeps the
 * section out, saying why, instead of letting it in unconditionally).
 */
function failing(text: string, compiled: Extract<Compiled, { ok: false }>): CompiledCondition {
  const code = compiled.code;
  return compiledCondition(text, () => {
    throw new YareError(code, compiled.message);
  });
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

/** One turn's verdicts in an array beside the shared layout: no per-turn map is built. */
class Verdicts<K> implements VerdictTable<K> {
  constructor(
    private readonly layout: Layout<K>,
    private readonly results: readonly ConditionVerdict[],
  ) {}
  get size(): number {
    return this.results.length;
  }
  get(key: K): ConditionVerdict | undefined {
    const i = this.layout.at.get(key);
    return i === undefined ? undefined : this.results[i];
  }
  *entries(): Iterable<readonly [K, ConditionVerdict]> {
    for (let i = 0; i < this.results.length; i++) yield [this.layout.keys[i]!, this.results[i]!];
  }
  values(): Iterable<ConditionVerdict> {
    return this.results;
  }
}

function evaluateTable<K>(table: ReadonlyMap<K, CompiledCondition>, scope: ConditionScope): Verdicts<K> {
  const layout = layoutOf(table);
  const n = layout.conditions.length;
  const results = new Array<ConditionVerdict>(n);
  for (let i = 0; i < n; i++) results[i] = verdictOf(layout.conditions[i]!, scope);
  return new Verdicts(layout, results);
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
 * Evaluates every condition on `state` (as the rules see it) and `world`. Pure: the same state and world give
 * the same verdicts; each ledger read is made once however many conditions share it.
 */
export function evaluateLoreConditions(
  conditions: LoreConditions,
  state: Dict,
  world: World,
): ConditionVerdicts {
  const scope = new ConditionScope(state, world);
  return {
    sections: evaluateTable(conditions.sections, scope),
    worldInfo: evaluateTable(conditions.worldInfo, scope),
  };
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
