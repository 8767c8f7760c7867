// Parsing untrusted YAML with positions kept and every resource bounded (the caps of limits.ts).
//
// The order matters: byte cap and control characters first (cheap, on the text); then a lexer pass that
// stops at the first flow collection nested too deep (the parser is slow on 10^5 nested `[`); then the
// concrete syntax tree is walked without recursion for depth, node count and `%` directives; only then is
// the document composed (the composer recurses). Last, the composed nodes are walked without recursion for
// what the parser lets through: unknown or non-core tags, non-finite and unsafe numbers, `__proto__` and
// `<<` keys, aliases (counted, cycle-checked, and their expansion bounded), control characters in
// escaped strings. Parser warnings are errors here.

import {
  type Alias,
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node as YamlNode,
  Parser,
  type YAMLError,
} from 'yaml';
import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { type CartridgeCode, cartError, placeInText } from './diagnostics.ts';
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_ERRORS_REPORTED, MAX_YAML_NODES } from './limits.ts';
import { decodeCartridgeFile, firstControlCharacter, hex4 } from './text.ts';
import { findIndentationProblem } from './yaml-indentation.ts';

export interface YamlLimits {
  readonly maxBytes: number;
  readonly maxDepth?: number;
  readonly maxAliases?: number;
  readonly maxNodes?: number;
}

export type YamlParseResult =
  | { ok: true; doc: Document.Parsed; lineCounter: LineCounter; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** Options of the YAML 1.2 core schema with nothing extra: no merge keys, no 1.1 types, unique keys. */
const COMPOSE_OPTIONS = {
  version: '1.2',
  schema: 'core',
  merge: false,
  // The parser's own duplicate check compares every key with every other (quadratic: minutes for 10^5
  // keys); `checkKeys` does it with a set instead.
  uniqueKeys: false,
  strict: true,
  intAsBigInt: false,
} as const;

const CORE = 'tag:yaml.org,2002:';
const SCALAR_TAGS = new Set([`${CORE}str`, `${CORE}int`, `${CORE}float`, `${CORE}bool`, `${CORE}null`]);
const INTEGER_SOURCE = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/;

export function parseYamlSafely(text: string, file: string, limits: YamlLimits): YamlParseResult {
  const maxDepth = limits.maxDepth ?? MAX_YAML_DEPTH;
  const maxAliases = limits.maxAliases ?? MAX_YAML_ALIASES;
  const maxNodes = limits.maxNodes ?? MAX_YAML_NODES;

  const decoded = decodeCartridgeFile(text, file, limits.maxBytes, file);
  if (!decoded.ok) return decoded;
  const source = decoded.text;
  const lineCounter = new LineCounter();
  const at = (offset: number): SourcePlace => placeOf(offset, file, lineCounter);

  const lexed = lexWithinDepth(source, maxDepth);
  if (!lexed.ok) {
    // The line counter is only filled by the parser, which has not run yet.
    return { ok: false, diagnostics: [tooDeep(placeInText(source, lexed.offset, file), maxDepth)] };
  }

  const tokens = parseLexemes(lexed.lexemes, lineCounter);
  const cstProblem = checkSyntaxTree(tokens, maxDepth, maxNodes);
  if (cstProblem) {
    const place = at(cstProblem.offset);
    switch (cstProblem.kind) {
      case 'depth':
        return { ok: false, diagnostics: [tooDeep(place, maxDepth)] };
      case 'nodes':
        return { ok: false, diagnostics: [tooManyNodes(place, maxNodes)] };
      case 'directive':
        return {
          ok: false,
          diagnostics: [
            cartError(
              'CART_YAML_DIRECTIVE',
              'YAML directives (`%YAML`, `%TAG`) are not allowed: cartridges are always YAML 1.2 with the core ' +
                'schema. Remove the line.',
              place,
            ),
          ],
        };
      default:
        return assertNever(cstProblem.kind);
    }
  }

  const docs = [...new Composer(COMPOSE_OPTIONS).compose(tokens, true, source.length)];
  const doc = docs[0];
  if (!doc) throw new Error('yaml Composer returned no document for a forced compose');
  const diagnostics: Diagnostic[] = [];
  const second = docs[1];
  if (second) {
    diagnostics.push(
      cartError(
        'CART_MULTIPLE_DOCUMENTS',
        'A cartridge file holds one YAML document, but a second one starts here. Remove the `---` line ' +
          'and merge the documents.',
        at(second.range[0]),
      ),
    );
  }
  // One root cause, one error: the parser's first error only (the rest are usually its cascade), or, when
  // a mis-indented line explains it, that line with the indentation it should have.
  const firstError = doc.errors[0];
  if (firstError) diagnostics.push(rootCause(firstError, source, file, at));
  for (const w of doc.warnings) diagnostics.push(fromYamlProblem(w, source, at));
  if (diagnostics.length > 0) return { ok: false, diagnostics: capReported(diagnostics, file) };

  const walked = checkNodes(doc, source, at, { maxDepth, maxAliases, maxNodes });
  if (walked.length > 0) return { ok: false, diagnostics: capReported(walked, file) };
  expandAliases(doc);
  return { ok: true, doc, lineCounter, diagnostics: [] };
}

/** `file:line:col` of a node (its start) or of a character offset in the parsed text. */
export function placeOf(
  nodeOrOffset: number | { readonly range?: readonly number[] | null },
  file: string,
  lineCounter: LineCounter,
): SourcePlace {
  const offset = typeof nodeOrOffset === 'number' ? nodeOrOffset : (nodeOrOffset.range?.[0] ?? 0);
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, col };
}

/**
 * The node at `path` (keys of mappings, indexes of sequences), or its key when `at` is `'key'`. When the path
 * leaves the document, the deepest node found is used, so a "missing field" error points at its parent.
 */
export function nodeAtPath(
  doc: Document,
  path: readonly (string | number)[],
  at: 'key' | 'value' = 'value',
): YamlNode | undefined {
  const aliases = resolveAliases(doc);
  let node: YamlNode | undefined = (doc.contents as YamlNode | null) ?? undefined;
  for (let i = 0; i < path.length && node; i++) {
    const segment = path[i];
    const current: YamlNode = isAlias(node) ? (aliases.get(node) ?? node) : node;
    let next: YamlNode | undefined;
    if (isMap(current)) {
      for (const pair of current.items) {
        if (isScalar(pair.key) && String(pair.key.value) === String(segment)) {
          const isLast = i === path.length - 1;
          next = isLast && at === 'key' ? pair.key : ((pair.value as YamlNode | null) ?? pair.key);
          break;
        }
      }
    } else if (isSeq(current) && typeof segment === 'number') {
      next = (current.items[segment] as YamlNode | undefined) ?? undefined;
    }
    if (!next) return current;
    node = next;
  }
  return node;
}

export function placeAtPath(
  doc: Document,
  path: readonly (string | number)[],
  file: string,
  lineCounter: LineCounter,
  at: 'key' | 'value' = 'value',
): SourcePlace {
  const node = nodeAtPath(doc, path, at);
  return placeOf(node ?? 0, file, lineCounter);
}

/**
 * Plain data from a document: null-prototype objects for mappings (a key named `__proto__` stays an own
 * property and pollutes nothing), arrays for sequences, aliases expanded into fresh copies. Meant for
 * documents accepted by `parseYamlSafely`; on anything else it still refuses cycles and the depth and node
 * limits by throwing, so it can never hang or blow the stack.
 */
export function toPlain(doc: Document): unknown {
  const aliases = resolveAliases(doc);
  const expanding = new Set<YamlNode>();
  let budget = MAX_YAML_NODES;
  const convert = (node: YamlNode | null | undefined, depth: number): unknown => {
    if (node === null || node === undefined) return null;
    if (--budget < 0) throw new Error(`toPlain: more than ${MAX_YAML_NODES} nodes`);
    if (isAlias(node)) {
      const target = aliases.get(node);
      if (!target) throw new Error(`toPlain: alias *${node.source} has no anchor before it`);
      if (expanding.has(target)) throw new Error(`toPlain: alias *${node.source} refers to itself`);
      expanding.add(target);
      try {
        return convert(target, depth);
      } finally {
        expanding.delete(target);
      }
    }
    if (isScalar(node)) return node.value;
    if (depth >= MAX_YAML_DEPTH) throw new Error(`toPlain: nesting deeper than ${MAX_YAML_DEPTH}`);
    if (isSeq(node)) return node.items.map((item) => convert(item as YamlNode | null, depth + 1));
    if (isMap(node)) {
      const out: Record<string, unknown> = Object.create(null);
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
          throw new Error('toPlain: a mapping key is not a plain scalar');
        }
        out[String(key.value)] = convert(pair.value as YamlNode | null, depth + 1);
      }
      return out;
    }
    throw new Error('toPlain: unexpected YAML node');
  };
  return convert((doc.contents as YamlNode | null) ?? null, 0);
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The text's lexemes, or the offset where nesting first goes deeper than `maxDepth`, from the lexer alone:
 * flow brackets are counted exactly, and block indicators (`-`, `?`, `:`) on one line bound the block
 * collections that line opens. The parser is slow on 10^5 levels opened on one line, and this pass stops
 * at the first excess; otherwise its lexemes feed the parser (parseLexemes).
 */
function lexWithinDepth(
  source: string,
  maxDepth: number,
): { ok: true; lexemes: string[] } | { ok: false; offset: number } {
  const lexemes: string[] = [];
  let flow = 0;
  let indicatorsOnLine = 0;
  let offset = 0;
  for (const token of new Lexer().lex(source)) {
    lexemes.push(token);
    // The lexer interleaves one-character control tokens that are not part of the source.
    if (token === '\x02' || token === '\x18' || token === '\x1f') continue;
    if (token === '[' || token === '{') {
      if (++flow > maxDepth) return { ok: false, offset };
    } else if (token === ']' || token === '}') {
      if (flow > 0) flow--;
    } else if (flow === 0 && (token === '-' || token === '?' || token === ':')) {
      if (++indicatorsOnLine > maxDepth) return { ok: false, offset };
    } else if (token.includes('\n')) indicatorsOnLine = 0;
    offset += token.length;
  }
  return { ok: true, lexemes };
}

/**
 * The concrete syntax tree from the lexemes the depth check already produced: what `Parser.parse(source)`
 * does, without lexing the text a second time.
 */
function parseLexemes(lexemes: readonly string[], lineCounter: LineCounter): CST.Token[] {
  const parser = new Parser(lineCounter.addNewLine);
  lineCounter.addNewLine(0); // what Parser.parse does before its first lexeme
  const tokens: CST.Token[] = [];
  for (const lexeme of lexemes) for (const token of parser.next(lexeme)) tokens.push(token);
  for (const token of parser.end()) tokens.push(token);
  return tokens;
}

type SyntaxTreeProblem = { kind: 'depth' | 'nodes' | 'directive'; offset: number };

/** Iterative walk of the concrete syntax tree: collection depth, node count, `%` directives. */
function checkSyntaxTree(
  tokens: readonly CST.Token[],
  maxDepth: number,
  maxNodes: number,
): SyntaxTreeProblem | undefined {
  const stack: Array<[CST.Token, number]> = [];
  for (const token of tokens) {
    if (token.type === 'directive') return { kind: 'directive', offset: token.offset };
    if (token.type === 'document' && token.value) stack.push([token.value, 0]);
  }
  let nodes = 0;
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    switch (token.type) {
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        if (depth + 1 > maxDepth) return { kind: 'depth', offset: token.offset };
        if (++nodes > maxNodes) return { kind: 'nodes', offset: token.offset };
        for (const item of token.items) {
          if ('key' in item && item.key) stack.push([item.key, depth + 1]);
          if (item.value) stack.push([item.value, depth + 1]);
        }
        break;
      }
      default:
        if (++nodes > maxNodes) return { kind: 'nodes', offset: token.offset };
    }
  }
  return undefined;
}

/** Finds each alias's anchor the way YAML defines it: the last one with that name before it, in order. */
function resolveAliases(doc: Document): Map<Alias, YamlNode | undefined> {
  const result = new Map<Alias, YamlNode | undefined>();
  const anchors = new Map<string, YamlNode>();
  const stack: YamlNode[] = [];
  const root = doc.contents as YamlNode | null;
  if (root) stack.push(root);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isAlias(node)) {
      result.set(node, anchors.get(node.source));
      continue;
    }
    if (node.anchor) anchors.set(node.anchor, node);
    pushChildrenInReverse(node, stack);
  }
  return result;
}

/**
 * Replaces every alias by a copy of its anchor's node, so nothing downstream has to know about aliases.
 * Runs only after `checkNodes` bounded the expansion and refused cycles. Document order guarantees that an
 * anchor's own aliases are already replaced when it is copied. Copies keep the anchor's source range, so
 * a problem inside one points at the text the author wrote.
 */
function expandAliases(doc: Document.Parsed): void {
  const aliases = resolveAliases(doc);
  // Slots hold a node and know how to replace it in its parent; they are visited in document order, so an
  // alias is reached only after its anchor's whole subtree was visited and expanded.
  type Slot = { node: unknown; replace: (node: YamlNode) => void };
  const stack: Slot[] = [];
  stack.push({ node: doc.contents, replace: (n) => (doc.contents = n as typeof doc.contents) });
  while (stack.length > 0) {
    const { node, replace } = stack.pop()!;
    if (isAlias(node)) {
      const target = aliases.get(node);
      if (!target) throw new Error(`expandAliases: alias *${node.source} was not checked`);
      replace(target.clone() as YamlNode);
      continue;
    }
    const slots: Slot[] = [];
    if (isMap(node)) {
      for (const pair of node.items) {
        slots.push({ node: pair.key, replace: () => undefined });
        slots.push({ node: pair.value, replace: (n) => (pair.value = n as typeof pair.value) });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        slots.push({ node: item, replace: (n) => (node.items[i] = n as (typeof node.items)[number]) });
      });
    }
    for (let k = slots.length - 1; k >= 0; k--) stack.push(slots[k]!);
  }
}

function childrenOf(node: YamlNode): YamlNode[] {
  const children: YamlNode[] = [];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (pair.key) children.push(pair.key as YamlNode);
      if (pair.value) children.push(pair.value as YamlNode);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) if (item) children.push(item as YamlNode);
  }
  return children;
}

function pushChildrenInReverse(node: YamlNode, stack: YamlNode[]): void {
  const children = childrenOf(node);
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
}

interface NodeLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxNodes: number;
}

/**
 * The composed-document checks. Post-order sizes and heights are kept per node so an alias costs what its
 * anchor's expansion costs, without expanding anything: a billion-laughs document is refused in linear time.
 */
function checkNodes(
  doc: Document.Parsed,
  source: string,
  at: (offset: number) => SourcePlace,
  limits: NodeLimits,
): Diagnostic[] {
  const root = doc.contents as YamlNode | null;
  if (!root) return [];
  const walk = new NodeWalk(source, at, limits);
  const stack: NodeFrame[] = [{ node: root, depth: 0, exit: false }];
  while (stack.length > 0) {
    const { node, depth, exit } = stack.pop()!;
    // A fatal finding (an alias bomb, cycle or limit) is the only one reported.
    const fatal = exit ? walk.leave(node) : isAlias(node) ? walk.alias(node, depth) : undefined;
    if (fatal !== undefined) return fatal;
    if (exit || isAlias(node)) continue;
    if (!walk.enter(node)) continue;
    stack.push({ node, depth, exit: true });
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i]!, depth: depth + 1, exit: false });
    if (walk.out.length > MAX_YAML_ERRORS_REPORTED) return walk.out;
  }
  return walk.out;
}

/** A node to enter, or (exit) to leave once its children are done. */
type NodeFrame = { node: YamlNode; depth: number; exit: boolean };

/** One walk's findings, and what it knows of the nodes seen: anchors, expanded sizes and heights. */
class NodeWalk {
  readonly out: Diagnostic[] = [];
  readonly #anchors = new Map<string, YamlNode>();
  readonly #size = new Map<YamlNode, number>();
  readonly #height = new Map<YamlNode, number>();
  readonly #onPath = new Set<YamlNode>();
  #aliasCount = 0;

  constructor(
    private readonly source: string,
    private readonly at: (offset: number) => SourcePlace,
    private readonly limits: NodeLimits,
  ) {}

  #placeOf(node: YamlNode): SourcePlace {
    return this.at(node.range?.[0] ?? 0);
  }

  /** Sums the children's expanded sizes (saturating past the limit) and heights. */
  leave(node: YamlNode): Diagnostic[] | undefined {
    const limits = this.limits;
    let total = 1;
    let tallest = 0;
    for (const child of childrenOf(node)) {
      total = Math.min(total + (this.#size.get(child) ?? 1), limits.maxNodes + 1);
      tallest = Math.max(tallest, this.#height.get(child) ?? 0);
    }
    if (total > limits.maxNodes) return [aliasBomb(this.#placeOf(node), limits.maxNodes)];
    this.#size.set(node, total);
    this.#height.set(node, tallest + 1);
    this.#onPath.delete(node);
    return undefined;
  }

  /** An alias counts as its anchor's value, expanded where it stands. */
  alias(node: Alias, depth: number): Diagnostic[] | undefined {
    const limits = this.limits;
    if (++this.#aliasCount > limits.maxAliases) {
      return [
        cartError(
          'CART_ALIAS_LIMIT',
          `More than ${limits.maxAliases} aliases (\`*name\`) in one file. Write the values out instead.`,
          this.#placeOf(node),
        ),
      ];
    }
    const target = this.#anchors.get(node.source);
    if (!target) {
      this.out.push(
        cartError(
          'CART_YAML_SYNTAX',
          `Alias *${node.source} has no anchor &${node.source} before it. Define the anchor first.`,
          this.#placeOf(node),
        ),
      );
      this.#size.set(node, 1);
      this.#height.set(node, 0);
      return undefined;
    }
    if (this.#onPath.has(target)) {
      return [
        cartError(
          'CART_ALIAS_CYCLE',
          `Alias *${node.source} is inside the value it refers to, which would make an endless value.`,
          this.#placeOf(node),
        ),
      ];
    }
    const targetHeight = this.#height.get(target) ?? 0;
    if (depth + targetHeight > limits.maxDepth) return [tooDeep(this.#placeOf(node), limits.maxDepth)];
    this.#size.set(node, this.#size.get(target) ?? 1);
    this.#height.set(node, targetHeight);
    return undefined;
  }

  /** Checks a node that is not an alias; true when it is a collection whose children come next. */
  enter(node: YamlNode): boolean {
    if (node.anchor) this.#anchors.set(node.anchor, node);
    const tagProblem = checkTag(node);
    if (tagProblem) this.out.push(cartError('CART_UNKNOWN_TAG', tagProblem, this.#placeOf(node)));
    if (isScalar(node)) {
      const range = node.range ?? [0, 0];
      const problem = tagProblem ? undefined : checkScalar(node.value, this.source.slice(range[0], range[1]));
      if (problem) this.out.push(cartError(problem.code, problem.message, this.#placeOf(node)));
      this.#size.set(node, 1);
      this.#height.set(node, 0);
      return false;
    }
    if (isMap(node)) this.out.push(...checkKeys(node, this.at));
    this.#onPath.add(node);
    return true;
  }
}

function aliasBomb(place: SourcePlace, maxNodes: number): Diagnostic {
  return cartError(
    'CART_ALIAS_LIMIT',
    `With its aliases expanded, this value holds more than ${maxNodes} values (an "alias bomb"). ` +
      'Write the values out, or use fewer aliases.',
    place,
  );
}

function checkTag(node: YamlNode): string | undefined {
  const tag = node.tag;
  if (tag === undefined) return undefined;
  if (isScalar(node) && SCALAR_TAGS.has(tag)) return undefined;
  if (isMap(node) && tag === `${CORE}map`) return undefined;
  if (isSeq(node) && tag === `${CORE}seq`) return undefined;
  const shown = tag.startsWith(CORE) ? `!!${tag.slice(CORE.length)}` : tag;
  return `The tag ${shown} is not allowed: cartridges use plain YAML values only (text, numbers, true/false, null, lists, mappings). Remove the tag.`;
}

function checkScalar(value: unknown, written: string): { code: CartridgeCode; message: string } | undefined {
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) {
        return {
          code: 'CART_NON_FINITE',
          message: `The number ${written} is not finite (infinity or not-a-number). Use an ordinary number.`,
        };
      }
      if (!Number.isSafeInteger(value) && Number.isInteger(value) && INTEGER_SOURCE.test(written.trim())) {
        return {
          code: 'CART_UNSAFE_INTEGER',
          message: `The integer ${written} is too large to keep exactly (the limit is ±${Number.MAX_SAFE_INTEGER}). Use a smaller number, or quote it to make it text.`,
        };
      }
      return undefined;
    case 'string': {
      const i = firstControlCharacter(value);
      if (i === -1) return undefined;
      return {
        code: 'CART_CONTROL_CHARACTER',
        message: `This text contains control character U+${hex4(value.charCodeAt(i))} (written as an escape). Remove it.`,
      };
    }
    case 'boolean':
      return undefined;
    case 'object':
      if (value === null) return undefined;
      return {
        code: 'CART_UNKNOWN_TAG',
        message: 'This value is not plain data (text, number, true/false or null). Remove its tag.',
      };
    default:
      return { code: 'CART_UNKNOWN_TAG', message: `Unsupported YAML value of type ${typeof value}.` };
  }
}

function checkKeys(map: YamlNode, at: (offset: number) => SourcePlace): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isMap(map)) return out;
  const seen = new Set<string>();
  for (const pair of map.items) {
    const key = pair.key as YamlNode | null;
    const offset = key?.range?.[0] ?? map.range?.[0] ?? 0;
    if (!isScalar(key)) {
      out.push(
        cartError(
          'CART_BAD_KEY',
          'A mapping key must be a plain word or number, not a list, a mapping or an alias.',
          at(offset),
        ),
      );
      continue;
    }
    if (key.value === null || key.value === '' || typeof key.value === 'object') {
      out.push(cartError('CART_BAD_KEY', 'A mapping key is empty. Give it a name.', at(offset)));
      continue;
    }
    const name = String(key.value);
    if (seen.has(name)) {
      out.push(
        cartError(
          'CART_DUPLICATE_KEY',
          `Duplicate key "${name}": keys must be unique within a mapping. Remove or rename one.`,
          at(offset),
        ),
      );
    }
    seen.add(name);
    if (name === '__proto__') {
      out.push(
        cartError(
          'CART_FORBIDDEN_KEY',
          'The key "__proto__" is not allowed (it is how prototype-pollution attacks start). Rename it.',
          at(offset),
        ),
      );
    } else if (name === '<<') {
      out.push(
        cartError(
          'CART_FORBIDDEN_KEY',
          'Merge keys (`<<`) are not supported: cartridges use YAML 1.2 without merges. Write the keys out.',
          at(offset),
        ),
      );
    }
  }
  return out;
}

function fromYamlProblem(
  problem: YAMLError,
  source: string,
  at: (offset: number) => SourcePlace,
): Diagnostic {
  const [start, end] = problem.pos;
  const place = at(start);
  const message = problem.message.split('\n')[0] ?? problem.message;
  switch (problem.code) {
    case 'DUPLICATE_KEY':
      return cartError(
        'CART_DUPLICATE_KEY',
        `Duplicate key "${source.slice(start, end)}": keys must be unique within a mapping. Remove or rename one.`,
        place,
      );
    case 'TAG_RESOLVE_FAILED': {
      const tag = message.replace(/^Unresolved tag: /, '').replace(CORE, '!!');
      return cartError(
        'CART_UNKNOWN_TAG',
        `The tag ${tag} is not allowed: cartridges use plain YAML values only. Remove the tag.`,
        place,
      );
    }
    case 'RESOURCE_EXHAUSTION':
      return cartError('CART_TOO_DEEP', `The YAML parser ran out of resources here (${message}).`, place);
    case 'MULTIPLE_DOCS':
      return cartError('CART_MULTIPLE_DOCUMENTS', 'A cartridge file holds one YAML document.', place);
    case 'TAB_AS_INDENT':
      return cartError('CART_YAML_SYNTAX', `${message}. Indent with spaces.`, place);
    case 'BAD_INDENT':
      return cartError('CART_YAML_SYNTAX', `${message}. Check the indentation of this line.`, place);
    default: {
      const plain = plainWords(message);
      return cartError(
        'CART_YAML_SYNTAX',
        plain
          ? `${plain} (YAML: ${message})`
          : `${message}. Check the YAML syntax here (indentation, quotes, brackets, a colon after each key).`,
        place,
      );
    }
  }
}

function rootCause(
  problem: YAMLError,
  source: string,
  file: string,
  at: (offset: number) => SourcePlace,
): Diagnostic {
  const reported = fromYamlProblem(problem, source, at);
  const line = findIndentationProblem(source);
  if (line === undefined || line.line > (reported.place?.line ?? 0) + 1) return reported;
  const detail = problem.message.split('\n')[0] ?? problem.message;
  return cartError('CART_YAML_SYNTAX', `${line.message} (YAML: ${detail})`, {
    file,
    line: line.line,
    col: line.col,
  });
}

/** The parser's wording in plain words, for the problems authors meet most. */
function plainWords(message: string): string | undefined {
  if (message.startsWith('All mapping items must start at the same column'))
    return 'Wrong indentation: this line does not line up with the keys around it.';
  if (message.startsWith('Nested mappings are not allowed in compact mappings'))
    return 'A "key: value" was found where only a value can be: a line indented too far, or a colon inside text that should be quoted.';
  if (
    message.startsWith('Implicit keys need to be on a single line') ||
    message.startsWith('Implicit map keys need to be followed by map values')
  )
    return 'This line has no "key:" where one is needed: a colon is missing, or the line above is unfinished.';
  if (message.startsWith('A block sequence may not be used as an implicit map key'))
    return 'A list item ("- ") is where a key was expected: check its indentation.';
  if (message.startsWith('Sequence item without - indicator') || message.includes('without - indicator'))
    return 'This line is in a list but does not start with "- ": indent it to continue the item above, or start a new item.';
  if (message.startsWith('Missing closing')) return 'A quoted text is not closed: add the closing quote.';
  if (
    message.includes('flow collection') ||
    message.includes('flow sequence') ||
    message.includes('flow map')
  )
    return 'A [list] or {mapping} written on one line is not closed, or has a stray comma: check its brackets.';
  return undefined;
}

function capReported(diagnostics: Diagnostic[], file: string): Diagnostic[] {
  if (diagnostics.length <= MAX_YAML_ERRORS_REPORTED) return diagnostics;
  const shown = diagnostics.slice(0, MAX_YAML_ERRORS_REPORTED);
  const last = shown[shown.length - 1];
  shown.push(
    cartError(
      'CART_YAML_SYNTAX',
      `${diagnostics.length - MAX_YAML_ERRORS_REPORTED} more YAML problems in this file were not listed; fix the ones above first.`,
      last?.place ?? { file, line: 1, col: 1 },
    ),
  );
  return shown;
}

function tooDeep(place: SourcePlace, maxDepth: number): Diagnostic {
  return cartError(
    'CART_TOO_DEEP',
    `Lists and mappings nest more than ${maxDepth} levels deep here. Flatten the structure.`,
    place,
  );
}

function tooManyNodes(place: SourcePlace, maxNodes: number): Diagnostic {
  return cartError(
    'CART_TOO_MANY_NODES',
    `The file has more than ${maxNodes} values. Split or shorten it.`,
    place,
  );
}

function assertNever(x: never): never {
  throw new Error(`unreachable: ${String(x)}`);
}
