// Where events and macros are declared and used in a cartridge's text: the language server's index for
// go-to-definition and rename, the linter's for "never used". Built from the YAML node tree (tolerant of
// errors elsewhere in the file), so it works while the author is still typing.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';

export type SymbolKind = 'event' | 'macro';

/** A span of a file's text: [start, end) offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface SymbolSite extends Span {
  readonly kind: SymbolKind;
  readonly name: string;
  /** The declaration (the key under `events:` or `macros:`), or a use. */
  readonly role: 'declaration' | 'reference';
}

/** Budget of nodes visited while indexing one file. */
const MAX_INDEXED_NODES = 200_000;
const MACRO_USE = /\bmacros\.([A-Za-z_][A-Za-z0-9_]*)/g;

export function parseLoosely(text: string): {
  doc: ReturnType<typeof parseDocument>;
  lineCounter: LineCounter;
} {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false, uniqueKeys: false, strict: false });
  return { doc, lineCounter };
}

/** Declarations and uses of events and macros in yare.yaml. */
export function indexRules(text: string): SymbolSite[] {
  const { doc } = parseLoosely(text);
  const sites: SymbolSite[] = [];
  const root = doc.contents;
  if (!isMap(root)) return sites;
  for (const pair of root.items) {
    if (!isScalar(pair.key)) continue;
    const section = String(pair.key.value);
    if ((section === 'events' || section === 'macros') && isMap(pair.value)) {
      for (const entry of pair.value.items) {
        if (isScalar(entry.key) && entry.key.range)
          sites.push(
            site(
              section === 'events' ? 'event' : 'macro',
              String(entry.key.value),
              entry.key.range,
              'declaration',
            ),
          );
      }
    }
  }
  let budget = MAX_INDEXED_NODES;
  const stack: unknown[] = [root];
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const action = node.items.find((p) => isScalar(p.key) && p.key.value === 'action');
      const isCall = isScalar(action?.value) && action.value.value === 'call';
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const value = pair.value;
        if (isScalar(value) && typeof value.value === 'string' && value.range) {
          if ((key === 'event' && isCall) || key === 'resolver_event')
            sites.push(site('event', value.value, valueSpan(text, value), 'reference'));
          else sites.push(...macroUses(text, value.range));
        }
        stack.push(value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isScalar(item) && typeof item.value === 'string' && item.range)
          sites.push(...macroUses(text, item.range));
        else stack.push(item);
      }
    }
  }
  return sites;
}

/** Uses of events in a scenario file: `event: NAME` steps and `ran: NAME` expectations. */
export function indexScenario(text: string): SymbolSite[] {
  const { doc } = parseLoosely(text);
  const sites: SymbolSite[] = [];
  let budget = MAX_INDEXED_NODES;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const value = pair.value;
        if (
          (key === 'event' || key === 'ran') &&
          isScalar(value) &&
          typeof value.value === 'string' &&
          value.range
        )
          sites.push(site('event', value.value, valueSpan(text, value), 'reference'));
        else stack.push(value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return sites;
}

function site(
  kind: SymbolKind,
  name: string,
  range: readonly number[] | Span,
  role: SymbolSite['role'],
): SymbolSite {
  const [start, end] = Array.isArray(range) ? range : [(range as Span).start, (range as Span).end];
  return { kind, name, start: start!, end: end!, role };
}

/** The span of a scalar's text without its quotes. */
function valueSpan(text: string, node: YamlNode & { range?: readonly number[] | null }): Span {
  const [start, end] = node.range ?? [0, 0];
  const quoted = text[start!] === '"' || text[start!] === "'";
  return quoted ? { start: start! + 1, end: end! - 1 } : { start: start!, end: trimEnd(text, start!, end!) };
}

function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

function macroUses(text: string, range: readonly number[]): SymbolSite[] {
  const [start, end] = range;
  const source = text.slice(start, end);
  const out: SymbolSite[] = [];
  for (const m of source.matchAll(MACRO_USE)) {
    const at = start! + m.index! + 'macros.'.length;
    out.push({ kind: 'macro', name: m[1]!, start: at, end: at + m[1]!.length, role: 'reference' });
  }
  return out;
}
