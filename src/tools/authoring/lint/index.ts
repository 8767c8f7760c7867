// Lint: what compiles but is probably a mistake. Each finding is a warning with `file:line:col` and a
// LINT_ code; `mnesos validate` prints them, `validate --strict` fails on them, and the language server
// shows them as the author types. Pure: it reads the loaded cartridge only.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import { chunkLore, tokenize } from '../../../core/lore/index.ts';
import {
  type DomainSchema,
  ENGINE_FIELDS as ENGINE_FIELD_TYPES,
  type EventDef,
  type Expr,
  type FieldSchema,
  type Operand,
  type SchemaNode,
  type Step,
  type TableKey,
  walkExpr,
} from '../../../core/yare/index.ts';
import { eventUses, macroReads } from './uses.ts';
import { lintValueTypes } from './value-types.ts';

export type LintCode =
  | 'LINT_UNREACHABLE_EVENT'
  | 'LINT_FIELD_UNUSED'
  | 'LINT_FIELD_NEVER_READ'
  | 'LINT_MACRO_UNUSED'
  | 'LINT_CONSTANT_CONDITION'
  | 'LINT_TABLE_GAP'
  | 'LINT_TABLE_OVERLAP'
  | 'LINT_NOTE_SILENT'
  | 'LINT_LORE_UNREACHABLE'
  | 'LINT_VALUE_TYPE';

/** Values of a dice roll checked one by one for table gaps; wider rolls are checked for overlaps only. */
const MAX_TABLE_SPAN = 100_000;
/** The engine's own fields: written by the engine, read by the client. */
const ENGINE_FIELDS: ReadonlySet<string> = new Set(ENGINE_FIELD_TYPES.keys());

type Warn = (code: LintCode, message: string, place: SourcePlace | undefined) => void;
type EventUses = ReturnType<typeof eventUses>;

/** What the rules read and write, gathered over every event (and the macros) for the field checks. */
interface RuleUses {
  readonly called: Set<string>;
  readonly reads: string[][];
  readonly writes: Set<string>;
  readonly usedMacros: Set<string>;
  dynamicWrites: boolean;
}

export function lintCartridge(cartridge: Cartridge): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn: Warn = (code, message, place) =>
    out.push(place ? { severity: 'warning', code, message, place } : { severity: 'warning', code, message });
  const rules = cartridge.rules;

  const macros = macroReads(rules);
  const all: RuleUses = {
    called: new Set(),
    reads: [...macros.reads],
    writes: new Set(),
    usedMacros: new Set(macros.macros),
    dynamicWrites: false,
  };
  const usesOf = new Map([...rules.events.values()].map((e) => [e.name, eventUses(e.steps)]));
  for (const event of rules.events.values()) {
    const uses = usesOf.get(event.name)!;
    gatherUses(all, uses);
    lintSilentNotes(rules.schema, event.name, uses, notesReachedFrom(usesOf, event.name), warn);
    lintEventSteps(event.steps, warn);
  }

  lintUnreachableEvents(rules.events.values(), all.called, warn);
  for (const [name, expr] of rules.macros)
    if (!all.usedMacros.has(name))
      warn('LINT_MACRO_UNUSED', `Macro '${name}' is never used (macros.${name}).`, expr.place);
  lintFieldUses(rules.schema, all, warn);

  lintLore(cartridge, warn);
  out.push(...lintValueTypes(rules));
  // Findings are placed in the compiled rules; for yare.js/yare.ts those are where the author wrote them.
  const place = cartridge.placeInRules;
  return place === undefined ? out : out.map(place);
}

function gatherUses(all: RuleUses, uses: EventUses): void {
  for (const c of uses.calls) all.called.add(c);
  all.reads.push(...uses.reads);
  for (const w of uses.writes) all.writes.add(w.path.join('.'));
  for (const m of uses.macros) all.usedMacros.add(m);
  all.dynamicWrites ||= uses.dynamicWrite;
}

/** Notes an event adds, with those of the events it calls (they share one list of notes). */
function notesReachedFrom(
  usesOf: ReadonlyMap<string, EventUses>,
  name: string,
): { count: number; reads: string[][] } {
  const out: string[][] = [];
  let count = 0;
  const seen = new Set<string>();
  const stack = [name];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const uses = usesOf.get(next);
    if (!uses) continue;
    out.push(...uses.noteReads);
    count += uses.notes;
    stack.push(...uses.calls);
  }
  return { count, reads: out };
}

/** Numbers the event changes that no note mentions: the Narrator cannot tell them (once per field). */
function lintSilentNotes(
  schema: DomainSchema,
  eventName: string,
  uses: EventUses,
  notes: { count: number; reads: string[][] },
  warn: Warn,
): void {
  if (notes.count === 0) return;
  const mentioned = new Set(notes.reads.map((p) => p.join('.')));
  const reported = new Set<string>();
  for (const w of uses.writes) {
    const field = fieldAt(schema, w.path);
    const dotted = `state.${w.path.join('.')}`;
    if (field?.visibility !== 'public' || (field.type !== 'int' && field.type !== 'float')) continue;
    if (reported.has(dotted)) continue;
    const said =
      [...mentioned].some((m) => m === dotted || m.startsWith(`${dotted}.`) || dotted.startsWith(`${m}.`)) ||
      w.valueReads.some((r) => mentioned.has(r));
    if (!said) {
      reported.add(dotted);
      warn(
        'LINT_NOTE_SILENT',
        `${dotted} changes in '${eventName}', but no note mentions it or the value written; the Narrator will not know. Add {${dotted}} to a note.`,
        w.place,
      );
    }
  }
}

function lintEventSteps(steps: readonly Step[], warn: Warn): void {
  walkSteps(steps, (step) => {
    if (step.kind === 'branch') {
      for (const arm of step.arms)
        if (arm.test && isConstant(arm.test))
          warn(
            'LINT_CONSTANT_CONDITION',
            `This condition does not depend on the state, inputs or dice: it is always ${arm.test.kind === 'const' ? 'the same' : 'true or always false'}.`,
            arm.test.kind === 'expr' ? arm.test.place : step.place,
          );
    }
    if (step.kind === 'table_roll') lintTable(step, warn);
  });
}

function lintUnreachableEvents(events: Iterable<EventDef>, called: ReadonlySet<string>, warn: Warn): void {
  for (const event of events) {
    const reachable =
      !event.internal || event.triggerOn !== undefined || event.resolver || called.has(event.name);
    if (!reachable)
      warn(
        'LINT_UNREACHABLE_EVENT',
        `Event '${event.name}' is internal, and no call, cycle tick or mini-game runs it: it can never happen.`,
        event.place,
      );
  }
}

function lintFieldUses(schema: DomainSchema, all: RuleUses, warn: Warn): void {
  const readPaths = all.reads.filter((p) => p[0] === 'state').map((p) => p.slice(1).join('.'));
  const isRead = (path: string) =>
    readPaths.some((r) => r === path || path.startsWith(`${r}.`) || r.startsWith(`${path}.`));
  const isWritten = (path: string) =>
    all.dynamicWrites ||
    [...all.writes].some((w) => w === path || path.startsWith(`${w}.`) || w.startsWith(`${path}.`));
  for (const field of fields(schema)) {
    const path = field.path.join('.');
    if (ENGINE_FIELDS.has(path)) continue;
    const read = isRead(path);
    const written = isWritten(path);
    if (!read && !written)
      warn(
        'LINT_FIELD_UNUSED',
        `No rule reads or writes state.${path}. If it is only scenery for the Narrator, say it in the lore instead.`,
        field.place,
      );
    else if (!read && field.visibility === 'private' && !field.npcVisible)
      warn(
        'LINT_FIELD_NEVER_READ',
        `state.${path} is written but nothing reads it: no rule, and (private) neither the Narrator nor the NPC brain.`,
        field.place,
      );
  }
}

function walkSteps(steps: readonly Step[], visit: (step: Step) => void): void {
  for (const step of steps) {
    visit(step);
    if (step.kind === 'branch') for (const arm of step.arms) walkSteps(arm.steps, visit);
    if (step.kind === 'foreach') walkSteps(step.steps, visit);
  }
}

function fields(schema: DomainSchema): FieldSchema[] {
  const out: FieldSchema[] = [];
  const walk = (node: SchemaNode) => {
    if (node.kind === 'field') out.push(node);
    else for (const child of node.children.values()) walk(child);
  };
  walk(schema);
  return out;
}

function fieldAt(schema: DomainSchema, path: readonly string[]): FieldSchema | undefined {
  let node: SchemaNode = schema;
  for (const segment of path) {
    if (node.kind === 'field') return node;
    const next = node.children.get(segment);
    if (!next) return undefined;
    node = next;
  }
  return node.kind === 'field' ? node : undefined;
}

function isConstant(test: Operand): boolean {
  if (test.kind === 'const') return true;
  let dynamic = false;
  walkExpr(test.expr.ast, (e) => {
    if (e.kind === 'call' || e.kind === 'name') dynamic = true;
  });
  return !dynamic;
}

/** The lowest and highest value of `roll(NdX)`, `roll(NdX) + c` or `c + roll(NdX)`, when the roll is that simple. */
export function rollRange(roll: Operand): { low: number; high: number } | undefined {
  if (roll.kind !== 'expr') return undefined;
  const dice = (e: Expr) =>
    e.kind === 'call' && e.callee === 'roll' && e.args.length === 1 && e.args[0]!.kind === 'dice'
      ? e.args[0]
      : undefined;
  const int = (e: Expr) =>
    e.kind === 'literal' && typeof e.value === 'number' && Number.isInteger(e.value) ? e.value : undefined;
  const ast = roll.expr.ast;
  let d = dice(ast);
  let shift = 0;
  if (!d && ast.kind === 'binary' && (ast.op === '+' || ast.op === '-')) {
    const left = dice(ast.left);
    const right = dice(ast.right);
    const lc = int(ast.left);
    const rc = int(ast.right);
    if (left && rc !== undefined) [d, shift] = [left, ast.op === '+' ? rc : -rc];
    else if (right && lc !== undefined && ast.op === '+') [d, shift] = [right, lc];
  }
  if (d?.kind !== 'dice') return undefined;
  return { low: d.count + shift, high: d.count * d.sides + shift };
}

function matches(key: TableKey, v: number): boolean {
  switch (key.kind) {
    case 'exact':
      return v === key.value;
    case 'range':
      return v >= key.low && v <= key.high;
    case 'atLeast':
      return v >= key.low;
  }
}

function keyText(key: TableKey): string {
  return key.kind === 'exact'
    ? String(key.value)
    : key.kind === 'range'
      ? `${key.low}-${key.high}`
      : `${key.low}+`;
}

function lintTable(step: Extract<Step, { kind: 'table_roll' }>, warn: Warn): void {
  const keys = step.table.map((row) => row.key);
  for (let i = 0; i < keys.length; i++)
    for (let j = i + 1; j < keys.length; j++) {
      const a = bounds(keys[i]!);
      const b = bounds(keys[j]!);
      if (Math.max(a.low, b.low) <= Math.min(a.high, b.high))
        warn(
          'LINT_TABLE_OVERLAP',
          `Table keys "${keyText(keys[i]!)}" and "${keyText(keys[j]!)}" overlap; the first wins, so "${keyText(keys[j]!)}" is partly dead.`,
          step.place,
        );
    }
  const range = rollRange(step.roll);
  if (!range || range.high - range.low > MAX_TABLE_SPAN) return;
  const gaps: string[] = [];
  let gapStart: number | undefined;
  for (let v = range.low; v <= range.high + 1; v++) {
    const hit = v <= range.high && keys.some((k) => matches(k, v));
    if (!hit && v <= range.high && gapStart === undefined) gapStart = v;
    if ((hit || v > range.high) && gapStart !== undefined) {
      gaps.push(gapStart === v - 1 ? String(gapStart) : `${gapStart}-${v - 1}`);
      gapStart = undefined;
    }
  }
  if (gaps.length > 0)
    warn(
      'LINT_TABLE_GAP',
      `The roll gives ${range.low} to ${range.high}, but no table key matches ${gaps.join(', ')}: then nothing is written.`,
      step.place,
    );
  for (const key of keys) {
    const b = bounds(key);
    if (b.high < range.low || b.low > range.high)
      warn(
        'LINT_TABLE_OVERLAP',
        `Table key "${keyText(key)}" can never match: the roll gives ${range.low} to ${range.high}.`,
        step.place,
      );
  }
}

function bounds(key: TableKey): { low: number; high: number } {
  return key.kind === 'exact'
    ? { low: key.value, high: key.value }
    : key.kind === 'range'
      ? { low: key.low, high: key.high }
      : { low: key.low, high: Number.POSITIVE_INFINITY };
}

function lintLore(cartridge: Cartridge, warn: Warn) {
  let chunks: ReturnType<typeof chunkLore>;
  try {
    chunks = chunkLore(cartridge.lore);
  } catch {
    return; // the loader already reports lore past its limits
  }
  for (const [i, chunk] of chunks.entries()) {
    const next = chunks[i + 1];
    const hasSubsections =
      next !== undefined &&
      next.path.length > chunk.path.length &&
      chunk.path.every((t, k) => next.path[k] === t);
    const place = { file: cartridge.files.lore, line: chunk.line, col: 1 };
    const body = chunk.text
      .split('\n')
      .slice(chunk.heading === '' ? 0 : 1)
      .join('\n')
      .trim();
    if (tokenize(chunk.text).length === 0)
      warn(
        'LINT_LORE_UNREACHABLE',
        'This lore section has no searchable words, so no lore query can ever find it.',
        place,
      );
    else if (chunk.heading !== '' && body === '' && !hasSubsections)
      warn(
        'LINT_LORE_UNREACHABLE',
        `The lore section "${chunk.heading}" has a heading but no text: a query finds only its title.`,
        place,
      );
  }
}
