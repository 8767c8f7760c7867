// A structural check that a JavaScript regular expression runs in time linear in its text on a
// backtracking engine (V8's), and a way to list every regular expression a source file holds. The rule
// (conservative: it may refuse a linear pattern, never accept a polynomial one):
//
// - no backreference, and no unbounded quantifier inside a lookaround or under another repeated group
//   (nested quantifiers);
// - with no unbounded quantifier (`*`, `+`, `{n,}`), each start position costs a bounded number of steps;
// - otherwise the pattern is anchored at the start of the text (`^` without the `m` flag, or every
//   alternative so), so it has one start position, and each unbounded quantifier's characters are disjoint
//   from what may follow it, so giving characters back to it fails at once (no quantifier trades characters
//   with another);
// - or it is unanchored with exactly one unbounded quantifier, in final position (nothing is required
//   after it, not even `$`): the first way it matches succeeds.
//
// Character sets are compared over a sample alphabet (ASCII, Latin-1, common Unicode spaces, a few letters
// of other scripts), enough for the patterns this project writes.

import { readFileSync } from 'node:fs';
import { parseSync } from 'vite';

type Node =
  | { readonly kind: 'atom'; readonly set: CharSet }
  | { readonly kind: 'zero' } // anchors, \b, lookarounds: match no character
  | { readonly kind: 'start' }
  | { readonly kind: 'end' }
  | { readonly kind: 'seq'; readonly items: readonly Node[] }
  | { readonly kind: 'alt'; readonly options: readonly Node[] }
  | {
      readonly kind: 'repeat';
      readonly node: Node;
      readonly min: number;
      readonly max: number; // Infinity for unbounded
    };

const SAMPLE: readonly string[] = (() => {
  const points: number[] = [];
  for (let c = 0; c < 0x250; c++) points.push(c);
  for (const c of [0x1680, 0x2000, 0x2007, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff])
    points.push(c);
  for (const c of [0x0410, 0x0435, 0x03b1, 0x05d0, 0x0627, 0x4e00, 0xff21, 0xff10]) points.push(c);
  return points.map((c) => String.fromCodePoint(c));
})();

function setOf(source: string, flags: string): CharSet {
  const regex = new RegExp(`^(?:${source})$`, flags.replace(/[gym]/g, ''));
  return Uint8Array.from(SAMPLE, (ch) => (regex.test(ch) ? 1 : 0));
}

type CharSet = Uint8Array<ArrayBuffer>;

const EMPTY: CharSet = new Uint8Array(SAMPLE.length);

function union(a: CharSet, b: CharSet): CharSet {
  return Uint8Array.from(a, (v, i) => v | b[i]!);
}

function overlaps(a: CharSet, b: CharSet): boolean {
  return a.some((v, i) => v === 1 && b[i] === 1);
}

class Parser {
  i = 0;
  constructor(
    readonly source: string,
    readonly flags: string,
  ) {}

  fail(message: string): never {
    throw new Error(`${message} at ${this.i}`);
  }

  parseAlt(): Node {
    const options = [this.parseSeq()];
    while (this.source[this.i] === '|') {
      this.i++;
      options.push(this.parseSeq());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  parseSeq(): Node {
    const items: Node[] = [];
    while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
      const atom = this.parseAtom();
      items.push(this.parseQuantifier(atom));
    }
    return { kind: 'seq', items };
  }

  parseQuantifier(node: Node): Node {
    const s = this.source;
    let min: number;
    let max: number;
    const ch = s[this.i];
    if (ch === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (ch === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (ch === '?') [min, max] = [0, 1];
    else if (ch === '{') {
      const brace = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i, this.i + 24));
      if (brace === null) return node; // a literal brace, already consumed as an atom elsewhere
      min = Number(brace[1]);
      max = brace[2] === undefined ? min : brace[3] === '' ? Number.POSITIVE_INFINITY : Number(brace[3]);
      this.i += brace[0].length - 1;
    } else return node;
    this.i++;
    if (s[this.i] === '?') this.i++; // lazy
    if (node.kind === 'zero' || node.kind === 'start' || node.kind === 'end') return node;
    return { kind: 'repeat', node, min, max };
  }

  parseAtom(): Node {
    const s = this.source;
    const start = this.i;
    const ch = s[this.i]!;
    switch (ch) {
      case '^':
        this.i++;
        return this.flags.includes('m') ? { kind: 'zero' } : { kind: 'start' };
      case '$':
        this.i++;
        return { kind: 'end' };
      case '(': {
        let zeroWidth = false;
        if (s.startsWith('(?:', this.i)) this.i += 3;
        else if (s.startsWith('(?=', this.i) || s.startsWith('(?!', this.i)) {
          this.i += 3;
          zeroWidth = true;
        } else if (s.startsWith('(?<=', this.i) || s.startsWith('(?<!', this.i)) {
          this.i += 4;
          zeroWidth = true;
        } else if (s.startsWith('(?<', this.i)) {
          this.i = s.indexOf('>', this.i) + 1;
        } else this.i++;
        const inner = this.parseAlt();
        if (s[this.i] !== ')') this.fail('unbalanced parenthesis');
        this.i++;
        if (zeroWidth) {
          if (hasUnbounded(inner)) this.fail('an unbounded quantifier inside a lookaround');
          return { kind: 'zero' };
        }
        return inner;
      }
      case '[': {
        this.i++;
        if (s[this.i] === '^') this.i++;
        if (s[this.i] === ']') this.i++;
        while (this.i < s.length && s[this.i] !== ']') this.i += s[this.i] === '\\' ? 2 : 1;
        this.i++;
        return { kind: 'atom', set: setOf(s.slice(start, this.i), this.flags) };
      }
      case '\\': {
        const next = s[this.i + 1] ?? '';
        if (/[1-9]/.test(next) || next === 'k') this.fail('a backreference');
        if (next === 'b' || next === 'B') {
          this.i += 2;
          return { kind: 'zero' };
        }
        if ((next === 'p' || next === 'P') && s[this.i + 2] === '{') this.i = s.indexOf('}', this.i) + 1;
        else if (next === 'u' && s[this.i + 2] === '{') this.i = s.indexOf('}', this.i) + 1;
        else if (next === 'u') this.i += 6;
        else if (next === 'x') this.i += 4;
        else if (next === 'c') this.i += 3;
        else this.i += 2;
        return { kind: 'atom', set: setOf(s.slice(start, this.i), this.flags) };
      }
      default: {
        const code = s.codePointAt(this.i)!;
        this.i += code > 0xffff ? 2 : 1;
        return { kind: 'atom', set: setOf(s.slice(start, this.i), this.flags) };
      }
    }
  }
}

function hasUnbounded(node: Node): boolean {
  switch (node.kind) {
    case 'atom':
    case 'zero':
    case 'start':
    case 'end':
      return false;
    case 'seq':
      return node.items.some(hasUnbounded);
    case 'alt':
      return node.options.some(hasUnbounded);
    case 'repeat':
      return node.max === Number.POSITIVE_INFINITY || hasUnbounded(node.node);
    default: {
      const unreachable: never = node;
      return unreachable;
    }
  }
}

function countUnbounded(node: Node): number {
  switch (node.kind) {
    case 'atom':
    case 'zero':
    case 'start':
    case 'end':
      return 0;
    case 'seq':
      return node.items.reduce((n, item) => n + countUnbounded(item), 0);
    case 'alt':
      return node.options.reduce((n, item) => n + countUnbounded(item), 0);
    case 'repeat':
      return (node.max === Number.POSITIVE_INFINITY ? 1 : 0) + countUnbounded(node.node);
    default: {
      const unreachable: never = node;
      return unreachable;
    }
  }
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case 'atom':
      return false;
    case 'zero':
    case 'start':
    case 'end':
      return true;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.options.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.node);
    default: {
      const unreachable: never = node;
      return unreachable;
    }
  }
}

function first(node: Node): CharSet {
  switch (node.kind) {
    case 'atom':
      return node.set;
    case 'zero':
    case 'start':
    case 'end':
      return EMPTY;
    case 'seq': {
      let out = EMPTY;
      for (const item of node.items) {
        out = union(out, first(item));
        if (!nullable(item)) break;
      }
      return out;
    }
    case 'alt':
      return node.options.reduce((acc, o) => union(acc, first(o)), EMPTY);
    case 'repeat':
      return first(node.node);
    default: {
      const unreachable: never = node;
      return unreachable;
    }
  }
}

/** Every character the node can consume. */
function chars(node: Node): CharSet {
  switch (node.kind) {
    case 'atom':
      return node.set;
    case 'zero':
    case 'start':
    case 'end':
      return EMPTY;
    case 'seq':
      return node.items.reduce((acc, o) => union(acc, chars(o)), EMPTY);
    case 'alt':
      return node.options.reduce((acc, o) => union(acc, chars(o)), EMPTY);
    case 'repeat':
      return chars(node.node);
    default: {
      const unreachable: never = node;
      return unreachable;
    }
  }
}

/** Problems with the unbounded quantifiers under `node`, given the characters that may follow it. */
function checkFollow(node: Node, after: CharSet, problems: string[]): void {
  switch (node.kind) {
    case 'atom':
    case 'zero':
    case 'start':
    case 'end':
      return;
    case 'seq': {
      let follow = after;
      for (let k = node.items.length - 1; k >= 0; k--) {
        const item = node.items[k]!;
        checkFollow(item, follow, problems);
        follow = nullable(item) ? union(first(item), follow) : first(item);
      }
      return;
    }
    case 'alt':
      for (const option of node.options) checkFollow(option, after, problems);
      return;
    case 'repeat': {
      if (node.max > 1 && hasUnbounded(node.node))
        problems.push('a repeated group that holds an unbounded quantifier (nested quantifiers)');
      if (node.max === Number.POSITIVE_INFINITY && overlaps(chars(node.node), after))
        problems.push('an unbounded quantifier whose characters may also be what follows it');
      // Inside a repeat, what follows an item includes the repeat's own start again.
      checkFollow(node.node, node.max > 1 ? union(first(node.node), after) : after, problems);
      return;
    }
    default:
      throw new Error(`unknown node ${(node as { kind: string }).kind}`);
  }
}

function anchoredAtStart(node: Node): boolean {
  if (node.kind === 'start') return true;
  if (node.kind === 'alt') return node.options.every(anchoredAtStart);
  if (node.kind === 'seq') {
    for (const item of node.items) {
      if (anchoredAtStart(item)) return true;
      if (item.kind !== 'zero') return false;
    }
  }
  return false;
}

/** The single unbounded quantifier is the last thing the pattern needs. */
function finalQuantifier(node: Node): boolean {
  if (node.kind !== 'seq') return node.kind === 'repeat' && node.max === Number.POSITIVE_INFINITY;
  const last = node.items.at(-1);
  if (last === undefined) return false;
  if (last.kind === 'repeat') return last.max === Number.POSITIVE_INFINITY && !hasUnbounded(last.node);
  if (last.kind === 'seq') return finalQuantifier(last);
  return false;
}

/** Why the pattern might take more than linear time on a backtracking engine, or undefined. */
export function linearityProblem(source: string, flags: string): string | undefined {
  let tree: Node;
  try {
    const parser = new Parser(source, flags);
    tree = parser.parseAlt();
    if (parser.i !== source.length) parser.fail('unbalanced parenthesis');
  } catch (error) {
    return (error as Error).message;
  }
  const problems: string[] = [];
  checkFollow(tree, EMPTY, problems);
  const nested = problems.find((p) => p.includes('nested'));
  if (nested !== undefined) return nested;
  const unbounded = countUnbounded(tree);
  if (unbounded === 0) return undefined;
  if (anchoredAtStart(tree)) return problems[0];
  if (unbounded === 1 && finalQuantifier(tree)) return undefined;
  return `unanchored with ${unbounded} unbounded quantifier(s), not all in final position`;
}

export interface FoundRegex {
  readonly file: string;
  readonly line: number;
  readonly source: string;
  readonly flags: string;
}

export interface RegexCensus {
  readonly literals: readonly FoundRegex[];
  /** `new RegExp(…)` / `RegExp(…)` calls: patterns built at run time, as `file:line`. */
  readonly constructed: readonly string[];
}

/** Every regular-expression literal and `RegExp` construction in a TypeScript file. */
export function regexesIn(file: string): RegexCensus {
  const text = readFileSync(file, 'utf8');
  const parsed = parseSync(file, text, { lang: file.endsWith('x') ? 'tsx' : 'ts' });
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]!.message}`);
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const literals: FoundRegex[] = [];
  const constructed: string[] = [];
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    const node = value as {
      type?: string;
      start?: number;
      regex?: { pattern: string; flags: string };
      callee?: { type?: string; name?: string };
    };
    if (node.type === 'Literal' && node.regex !== undefined)
      literals.push({ file, line: lineOf(node.start!), source: node.regex.pattern, flags: node.regex.flags });
    if (
      (node.type === 'NewExpression' || node.type === 'CallExpression') &&
      node.callee?.type === 'Identifier' &&
      node.callee.name === 'RegExp'
    )
      constructed.push(`${file}:${lineOf(node.start!)}`);
    for (const [key, child] of Object.entries(node)) if (key !== 'parent') walk(child);
  };
  walk(parsed.program);
  return { literals, constructed };
}
