// Notes as a player may read them. A note is interpolated by the rules with the whole state, private fields
// included (the rules and the Narrator model need them); the offline narrator shows notes to the player
// directly, so each note is rendered again through the public view of the state: it is matched to the
// note template that produced it, and every sentence that shows a value read from a private field (directly,
// or through a macro) is left out. A note no template of the cartridge produced (one the engine wrote for
// itself) is left out too.

import {
  type CompiledRules,
  type DomainSchema,
  type Expr,
  type NotePart,
  type Step,
  walkExpr,
} from '../../core/yare/index.ts';

interface Template {
  /** Text before the first value, then [value, text after it] pairs. */
  readonly lead: string;
  readonly values: readonly { readonly private: boolean; readonly after: string }[];
  /** Characters of literal text: with several matching templates, the most specific one is used. */
  readonly literalChars: number;
}

/** Macro nesting followed when deciding whether a macro reads a private field (deeper counts as private). */
const MAX_MACRO_DEPTH = 16;
/** Note templates indexed per cartridge; a cartridge with more keeps the first ones (the rest are dropped). */
export const MAX_NOTE_TEMPLATES = 2_000;

const templatesByRules = new WeakMap<CompiledRules, readonly Template[]>();

/** Whether the schema below this path holds any private field (a path the rules compute at run time). */
function hasPrivate(node: DomainSchema): boolean {
  if (node.visibility === 'private') return true;
  for (const child of node.children.values()) {
    if (child.visibility === 'private') return true;
    if (child.kind === 'domain' && hasPrivate(child)) return true;
  }
  return false;
}

/** `state.a.b['c']` as its constant segments, or undefined when a segment is computed. */
function statePath(expr: Expr): { root: string; path: string[] } | undefined {
  const path: string[] = [];
  let node: Expr = expr;
  for (;;) {
    if (node.kind === 'attribute') {
      path.unshift(node.name);
      node = node.object;
    } else if (node.kind === 'index') {
      if (node.index.kind === 'literal' && typeof node.index.value === 'string')
        path.unshift(node.index.value);
      // A computed key: only the part before it is known, and everything below that part counts.
      else path.length = 0;
      node = node.object;
    } else if (node.kind === 'name') {
      return { root: node.name, path };
    } else {
      return undefined;
    }
  }
}

/** The computed keys of a path chain (`state.a[temp.k]` → `temp.k`). */
function computedIndexes(expr: Expr): Expr[] {
  const out: Expr[] = [];
  let node: Expr = expr;
  while (node.kind === 'attribute' || node.kind === 'index') {
    if (node.kind === 'index' && !(node.index.kind === 'literal' && typeof node.index.value === 'string'))
      out.push(node.index);
    node = node.object;
  }
  return out;
}

/** Whether `state.<path>` shows a private field (or a group holding one). */
export function pathIsPrivate(schema: DomainSchema, path: readonly string[]): boolean {
  let node: DomainSchema = schema;
  for (const segment of path) {
    const child = node.children.get(segment);
    if (child === undefined) return false;
    if (child.visibility === 'private') return true;
    if (child.kind === 'field') return false;
    node = child;
  }
  // The path stops at a group, or a computed key picks inside it: private when anything below is.
  return hasPrivate(node);
}

/** Whether an expression reads a private field, directly or through a macro. */
export function readsPrivate(rules: CompiledRules, expr: Expr, depth = 0): boolean {
  if (depth > MAX_MACRO_DEPTH) return true;
  let found = false;
  const visit = (node: Expr): boolean => {
    if (found) return false;
    const named = statePath(node);
    if (named === undefined) return true;
    if (named.root === 'state' && pathIsPrivate(rules.schema, named.path)) found = true;
    else if (named.root === 'macros' && named.path.length > 0) {
      const macro = rules.macros.get(named.path[0]!);
      if (macro !== undefined && readsPrivate(rules, macro.ast, depth + 1)) found = true;
    }
    // The chain itself is judged whole (its prefix `state.player` is not a read of the group); only
    // the keys it computes are expressions of their own.
    for (const index of computedIndexes(node)) walkExpr(index, visit);
    return false;
  };
  walkExpr(expr, visit);
  return found;
}

function templateOf(rules: CompiledRules, parts: readonly NotePart[]): Template {
  let lead = '';
  const values: { private: boolean; after: string }[] = [];
  let literalChars = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      literalChars += part.length;
      if (values.length === 0) lead += part;
      else values[values.length - 1]!.after += part;
    } else {
      const isPrivate = part.kind === 'expr' && readsPrivate(rules, part.expr.ast, 0);
      values.push({ private: isPrivate, after: '' });
    }
  }
  return { lead, values, literalChars };
}

function collect(rules: CompiledRules, steps: readonly Step[], out: Template[]): void {
  for (const step of steps) {
    if (out.length >= MAX_NOTE_TEMPLATES) return;
    switch (step.kind) {
      case 'note':
        out.push(templateOf(rules, step.parts));
        break;
      case 'branch':
        for (const arm of step.arms) collect(rules, arm.steps, out);
        break;
      case 'foreach':
        collect(rules, step.steps, out);
        break;
      default:
        break;
    }
  }
}

function templatesOf(rules: CompiledRules): readonly Template[] {
  let templates = templatesByRules.get(rules);
  if (templates === undefined) {
    const out: Template[] = [];
    for (const event of rules.events.values()) collect(rules, event.steps, out);
    templates = out;
    templatesByRules.set(rules, templates);
  }
  return templates;
}

/** Marks where a private value stood; sentences holding one are dropped. */
const WITHHELD = '\u0000';

/**
 * The note with private values replaced by WITHHELD, when `template` produced it; undefined otherwise.
 * Values are found leftmost: each literal after a value is searched from where the value starts.
 */
function rendered(template: Template, note: string): string | undefined {
  if (!note.startsWith(template.lead)) return undefined;
  let pos = template.lead.length;
  let out = template.lead;
  const n = template.values.length;
  if (n === 0) return note === template.lead ? note : undefined;
  for (let i = 0; i < n; i++) {
    const { private: isPrivate, after } = template.values[i]!;
    let end: number;
    if (i === n - 1) {
      if (!note.endsWith(after) || note.length - after.length < pos) return undefined;
      end = note.length - after.length;
    } else if (after === '') {
      // Two values side by side cannot be told apart: when either is private, both are withheld.
      const next = template.values[i + 1]!;
      if (isPrivate || next.private) return WITHHELD;
      end = pos;
    } else {
      end = note.indexOf(after, pos);
      if (end < 0) return undefined;
    }
    out += (isPrivate ? WITHHELD : note.slice(pos, end)) + after;
    pos = end + after.length;
  }
  return out;
}

const SENTENCE_END = /(?<=[.!?])\s+/;

/**
 * The note rendered through the public view of the state: sentences showing a private value are left out.
 * Undefined when no note template of the cartridge produced it (a note the engine wrote for itself) or
 * when nothing public is left.
 */
export function publicNote(rules: CompiledRules, note: string): string | undefined {
  let best: { text: string; chars: number } | undefined;
  for (const template of templatesOf(rules)) {
    if (best !== undefined && template.literalChars <= best.chars) continue;
    const text = rendered(template, note);
    if (text !== undefined) best = { text, chars: template.literalChars };
  }
  if (best === undefined) return undefined;
  if (!best.text.includes(WITHHELD)) return best.text;
  const kept = best.text.split(SENTENCE_END).filter((s) => !s.includes(WITHHELD));
  const text = kept.join(' ').trim();
  return text === '' ? undefined : text;
}
