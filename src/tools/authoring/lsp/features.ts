// Completion and hover for yare.yaml and scenario files. The state schema, inputs and macros come from the
// last rules that compiled; keys and their documentation from the yare.yaml grammar the compiler reads
// (src/core/yare/grammar.ts) and the scenario and directives shapes, as the editor schema is.

import {
  type CompletionItem,
  CompletionItemKind,
  type Hover,
  MarkupKind,
} from 'vscode-languageserver/node.js';
import {
  BUILTINS,
  type CompiledRules,
  type EventDef,
  type MacroFunction,
  schemaAt,
  type SchemaNode,
  YARE_GRAMMAR,
} from '../../../core/yare/index.ts';
import { DIRECTIVES_FILE } from '../schema/directives-shape.ts';
import { SCENARIO_FILE } from '../schema/scenario-shape.ts';
import type { FileShape, Shape } from '../schema/shape.ts';
import { keyContext, keysAt, shapesAt } from './context.ts';
import type { FileRole } from './project.ts';
import { lineStartOf, segmentsUpTo, tokenAt } from './text.ts';

const EVENT_VALUE = /^\s*(?:-\s+)?(?:\{\s*)?(event|resolver_event|ran):\s*["']?[A-Za-z0-9_]*$/;
const KEY_VALUE = /^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):\s*["']?[A-Za-z0-9_]*$/;
const KEY_ONLY = /^(\s*)(-\s+)?[A-Za-z_]*$/;

const isPathChar = (ch: string) => /[A-Za-z0-9_.]/.test(ch);
const isNameChar = (ch: string) => /[A-Za-z_]/.test(ch);

/** Where the run of characters `accept` takes, ending the text, starts (a loop: no regex can backtrack). */
function trailingRunStart(text: string, accept: (ch: string) => boolean): number {
  let start = text.length;
  while (start > 0 && accept(text[start - 1]!)) start--;
  return start;
}

/** `state.`, `inputs.` or `macros.` (after an optional `@`) and the path typed after it, ending the prefix. */
function pathPrefix(prefix: string): { root: string; rest: string } | undefined {
  // The trailing run of path characters: the root starts it, since what precedes a root is not one.
  const run = prefix.slice(trailingRunStart(prefix, isPathChar));
  for (const root of ['state', 'inputs', 'macros'])
    if (run.startsWith(`${root}.`)) return { root, rest: run.slice(root.length + 1) };
  return undefined;
}

export function shapeOfRole(role: FileRole): FileShape | undefined {
  switch (role) {
    case 'yare':
      return YARE_GRAMMAR;
    case 'scenario':
      return SCENARIO_FILE;
    case 'directives':
      return DIRECTIVES_FILE;
    default:
      return undefined;
  }
}

export function complete(
  text: string,
  offset: number,
  role: FileRole,
  rules: CompiledRules | undefined,
): CompletionItem[] {
  const lineStart = lineStartOf(text, offset);
  const prefix = text.slice(lineStart, offset);
  const lines = text.split('\n');
  const lineNo = text.slice(0, lineStart).split('\n').length - 1;
  const file = shapeOfRole(role);

  const path = pathPrefix(prefix);
  if (path && rules) return completePath(path.root, path.rest!, rules, lines, lineNo);

  if (EVENT_VALUE.test(prefix) && rules)
    return [...rules.events.values()].map((e) => ({
      label: e.name,
      kind: CompletionItemKind.Event,
      detail: e.internal ? 'internal event' : 'event',
      documentation: e.description,
    }));

  const keyValue = KEY_VALUE.exec(prefix);
  if (keyValue && file) return completeValue(file, keyValue[1]!, prefix, lines, lineNo);

  const keyOnly = KEY_ONLY.exec(prefix);
  if (keyOnly && file) {
    const column = keyOnly[1]!.length + (keyOnly[2]?.length ?? 0);
    return completeKey(file, rules, lines, lineNo, column);
  }

  if (prefix.includes('@') || prefix.lastIndexOf('{') > prefix.lastIndexOf('}'))
    return completeExpression(prefix);
  return [];
}

/** After `key: `: the values the file's shape allows there (an enum's, a boolean's). */
function completeValue(
  file: FileShape,
  key: string,
  prefix: string,
  lines: readonly string[],
  lineNo: number,
): CompletionItem[] {
  const column = prefix.search(/[A-Za-z_]/);
  const context = keyContext(lines, lineNo, column);
  const values = new Set<string>();
  for (const shape of shapesAt(file, context)) {
    const prop = shape.props[key];
    if (prop?.kind === 'string' && prop.enum) for (const v of prop.enum) values.add(v);
    if (prop?.kind === 'boolean') for (const v of ['true', 'false']) values.add(v);
  }
  return [...values].map((v) => ({ label: v, kind: CompletionItemKind.EnumMember }));
}

/** At the start of a key: the keys the file's shape allows there, or the inputs of the event being run. */
function completeKey(
  file: FileShape,
  rules: CompiledRules | undefined,
  lines: readonly string[],
  lineNo: number,
  column: number,
): CompletionItem[] {
  const context = keyContext(lines, lineNo, column);
  // The inputs of the event a scenario step runs (`inputs:`) or a call step calls (`args:`).
  const owner = context.path.at(-1);
  if (rules && (owner === 'inputs' || owner === 'args')) {
    const eventName = eventOfInputs(lines, lineNo, column);
    const event = eventName === undefined ? undefined : rules.events.get(eventName);
    if (event)
      return [...event.inputs.values()]
        .filter((i) => !context.siblings.has(i.name))
        .map((i) => ({
          label: i.name,
          kind: CompletionItemKind.Variable,
          detail: i.type ?? 'any',
          documentation: i.description,
          insertText: `${i.name}: `,
        }));
  }
  return [...keysAt(file, context)].map(([key, shape]) => ({
    label: key,
    kind: CompletionItemKind.Property,
    detail: kindText(shape),
    documentation: shape.doc,
    insertText: `${key}: `,
  }));
}

/** Inside an expression, not after a `.`: the functions and the roots of paths. */
function completeExpression(prefix: string): CompletionItem[] {
  const word = prefix.slice(trailingRunStart(prefix, isNameChar));
  if (prefix.slice(0, prefix.length - word.length).endsWith('.')) return [];
  return [
    ...[...BUILTINS.values()].map((sig) => ({
      label: sig.name,
      kind: CompletionItemKind.Function,
      detail: sig.usage,
    })),
    ...['state', 'inputs', 'macros', 'temp'].map((root) => ({
      label: root,
      kind: CompletionItemKind.Keyword,
    })),
  ];
}

/** After `state.…`, `macros.` or `inputs.`: what may come next. */
function completePath(
  root: string,
  rest: string,
  rules: CompiledRules,
  lines: readonly string[],
  lineNo: number,
): CompletionItem[] {
  if (root === 'state') return completeState(rest.split('.'), rules);
  if (root === 'macros') return completeMacros(rules);
  const event = enclosingEvent(lines, lineNo, rules);
  const inputs = event
    ? [...event.inputs.values()]
    : [...rules.events.values()].flatMap((e) => [...e.inputs.values()]);
  const seen = new Set<string>();
  return inputs
    .filter((i) => !seen.has(i.name) && seen.add(i.name))
    .map((i) => ({
      label: i.name,
      kind: CompletionItemKind.Variable,
      detail: i.type ?? 'any',
      documentation: i.description,
    }));
}

/** After `state.a.b.`: a domain's children, or (`state.objs.cup.`) the properties of a collection's records. */
function completeState(segments: readonly string[], rules: CompiledRules): CompletionItem[] {
  const node = schemaAt(rules.schema, segments.slice(0, -1));
  const record = node?.kind === 'field' && node.path.length === segments.length - 2 ? node.record : undefined;
  if (record !== undefined)
    return [...record.properties.values()].map((p) => ({
      label: p.name,
      kind: CompletionItemKind.Field,
      detail: describeFieldShort(p),
      documentation: p.description,
    }));
  if (node?.kind !== 'domain') return [];
  return [...node.children.values()].map((child) => ({
    label: child.name,
    kind: child.kind === 'field' ? CompletionItemKind.Field : CompletionItemKind.Module,
    detail: child.kind === 'field' ? describeFieldShort(child) : 'domain',
    documentation: child.kind === 'field' ? child.description : undefined,
  }));
}

/** After `macros.`: the macros and the macro functions. */
function completeMacros(rules: CompiledRules): CompletionItem[] {
  return [
    ...[...rules.macros.entries()].map(([name, expr]) => ({
      label: name,
      kind: CompletionItemKind.Constant,
      detail: expr.source,
    })),
    ...[...rules.macroFunctions.values()].map((fn) => ({
      label: name_(fn),
      kind: CompletionItemKind.Function,
      detail:
        fn.by === undefined ? fn.value?.source : `by ${fn.by.source}: ${[...fn.cases.keys()].join(', ')}`,
    })),
  ];
}

export function hover(
  text: string,
  offset: number,
  role: FileRole,
  rules: CompiledRules | undefined,
): Hover | undefined {
  const found = tokenAt(text, offset);
  if (!found) return undefined;
  const segments = segmentsUpTo(found, offset);
  const markdown = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value } });
  const after = text.slice(found.end).trimStart();
  if (rules && segments[0] === 'state' && segments.length > 1) {
    const node = schemaAt(rules.schema, segments.slice(1));
    if (node) return markdown(describeNode(node));
  }
  if (rules && segments[0] === 'macros' && segments[1]) {
    const macro = rules.macros.get(segments[1]);
    if (macro) return markdown(`**macros.${segments[1]}**\n\n\`\`\`\n@ ${macro.source}\n\`\`\``);
    const fn = rules.macroFunctions.get(segments[1]);
    if (fn) return markdown(describeMacroFunction(fn));
  }
  if (rules && segments[0] === 'inputs' && segments[1]) {
    const lines = text.split('\n');
    const lineNo = text.slice(0, offset).split('\n').length - 1;
    const input = enclosingEvent(lines, lineNo, rules)?.inputs.get(segments[1]);
    if (input)
      return markdown(
        `**inputs.${input.name}**: \`${input.type ?? 'any'}\`${input.enum ? ` one of ${input.enum.map((v) => JSON.stringify(v)).join(', ')}` : ''}${input.required ? ' (required)' : ''}${input.description ? `\n\n${input.description}` : ''}`,
      );
  }
  if (found.token.indexOf('.') === -1) {
    const sig = BUILTINS.get(found.token);
    if (sig && after.startsWith('(')) return markdown(`**${sig.name}** — \`${sig.usage}\``);
    if (after.startsWith(':')) {
      const doc = keyDoc(text, offset, found, role);
      if (doc !== undefined) return markdown(doc);
    }
    const event = rules?.events.get(found.token);
    if (event) return markdown(describeEvent(event));
  }
  return undefined;
}

/** The documentation of the key at `found` (a `key:` in a file of this role), or undefined. */
function keyDoc(
  text: string,
  offset: number,
  found: NonNullable<ReturnType<typeof tokenAt>>,
  role: FileRole,
): string | undefined {
  const file = shapeOfRole(role);
  if (!file) return undefined;
  const lines = text.split('\n');
  const lineStart = lineStartOf(text, offset);
  const lineNo = text.slice(0, lineStart).split('\n').length - 1;
  const column = found.start - lineStart;
  for (const shape of shapesAt(file, keyContext(lines, lineNo, column))) {
    const prop = shape.props[found.token];
    if (prop?.doc) return `**${found.token}** (${kindText(prop)}): ${prop.doc}`;
  }
  return undefined;
}

/** The `event:` beside the `inputs:`/`args:` mapping holding this line (a sibling of that key). */
function eventOfInputs(lines: readonly string[], lineNo: number, column: number): string | undefined {
  const holder = keyContext(lines, lineNo, column);
  const depth = holder.path.length;
  for (let i = lineNo - 1; i >= 0; i--) {
    const line = lines[i]!;
    const at = line.search(/\S/);
    if (at === -1 || at >= column) continue;
    const key = /^\s*(?:-\s+)?(inputs|args)\s*:/.exec(line);
    if (!key) return undefined;
    const keyColumn = line.indexOf(key[1]!);
    const siblings = keyContext(lines, i, keyColumn);
    if (siblings.path.length !== depth - 1) return undefined;
    const event = siblings.siblings.get('event');
    if (event !== undefined) return event.replace(/^["']|["']$/g, '');
    // `event:` may come after `inputs:` in the same mapping.
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!;
      const col = next.search(/\S/);
      if (col === -1) continue;
      if (col < keyColumn) break;
      const m = col === keyColumn ? /^\s*event:\s*["']?([A-Za-z0-9_]+)/.exec(next) : null;
      if (m) return m[1];
    }
    return undefined;
  }
  return undefined;
}

/** The event whose steps hold this line (by indentation: `events:` › NAME). */
export function enclosingEvent(
  lines: readonly string[],
  lineNo: number,
  rules: CompiledRules,
): EventDef | undefined {
  const line = lines[lineNo] ?? '';
  const column = Math.max(0, line.search(/\S/));
  const context = keyContext(lines, lineNo, column === -1 ? 0 : column);
  return context.path[0] === 'events' && context.path[1] ? rules.events.get(context.path[1]) : undefined;
}

function describeFieldShort(field: Extract<SchemaNode, { kind: 'field' }>): string {
  const range =
    field.min !== undefined || field.max !== undefined ? ` ${field.min ?? '…'}..${field.max ?? '…'}` : '';
  return `${field.type ?? 'any'}${range}, ${field.visibility}`;
}

export function describeNode(node: SchemaNode): string {
  const path = `state.${node.path.join('.')}`;
  if (node.kind === 'domain')
    return `**${path}** — domain (${node.visibility}${node.npcVisible ? ', NPC-visible' : ''})\n\nFields: ${[...node.children.keys()].join(', ')}`;
  const parts = [
    `type \`${node.type ?? 'any'}\``,
    `default \`${JSON.stringify(node.default)}\``,
    node.min !== undefined || node.max !== undefined
      ? `range ${node.min ?? '−∞'}..${node.max ?? '∞'}`
      : undefined,
    `${node.visibility}${node.visibility === 'public' ? ' (the Narrator and the player see it)' : ' (rules and Director only)'}`,
    node.npcVisible ? 'NPC brain sees it' : undefined,
  ].filter((p) => p !== undefined);
  return `**${path}** — ${parts.join(', ')}${node.description ? `\n\n${node.description}` : ''}`;
}

/** `describe(o)`: a macro with parameters, as completion shows its name. */
function name_(fn: MacroFunction): string {
  return `${fn.name}(${fn.params.join(', ')})`;
}

function describeMacroFunction(fn: MacroFunction): string {
  const body =
    fn.by === undefined
      ? `@ ${fn.value?.source ?? ''}`
      : [
          `by: @ ${fn.by.source}`,
          ...[...fn.cases].map(([kind, e]) => `${kind}: @ ${e.source}`),
          ...(fn.value ? [`else: @ ${fn.value.source}`] : []),
        ].join('\n');
  return `**macros.${name_(fn)}**\n\n\`\`\`\n${body}\n\`\`\``;
}

function describeEvent(event: EventDef): string {
  const flags = [
    event.internal ? 'internal' : 'public',
    event.triggerOn === 'cycle_tick' ? 'runs every turn (cycle_tick)' : undefined,
    event.triggerOn === 'after_event' ? "runs after each player's event (after_event)" : undefined,
    event.resolver ? 'mini-game resolver' : undefined,
  ].filter(Boolean);
  const inputs = [...event.inputs.values()].map(
    (i) => `- \`${i.name}\`: ${i.type ?? 'any'}${i.required ? ' (required)' : ''}`,
  );
  return `**event ${event.name}** (${flags.join(', ')})\n\n${event.description}${inputs.length > 0 ? `\n\nInputs:\n${inputs.join('\n')}` : ''}`;
}

function kindText(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return shape.enum ? shape.enum.join(' | ') : 'text';
    case 'integer':
      return 'whole number';
    case 'array':
      return 'list';
    case 'object':
    case 'tagged':
      return 'mapping';
    case 'ref':
      return shape.name;
    default:
      return shape.kind;
  }
}
