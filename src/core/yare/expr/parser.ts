// Parser: tokens → typed AST, by recursive descent with Python's precedence, lowest first:
// `A if C else B`; `or`; `and`; `not`; comparisons (chainable, `in`, `not in`, `is None`, `is not None`);
// `+ -`; `* / // %`; unary `+ -`; `**` (right-associative, binding tighter than a unary minus on its
// left: `-2 ** 2` is -4); postfix `.name`, `[index]`, `f(args)`; atoms, among them list comprehensions.
//
// Nesting is counted as the parser descends (parentheses, brackets, braces, call arguments,
// subscripts, unary operators, `not`, the `else` branch), and the finished tree's height is checked
// too, both against MAX_EXPRESSION_DEPTH. So neither the parser nor anything that walks the tree
// recursively (evaluator, printer, checker) can overflow the JS stack, whatever the text.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from '../limits.ts';
import type { BinaryOp, CompareOp, ComprehensionClause, Expr, Expression, Span } from './ast.ts';
import { type Keyword, scan, type Token } from './scanner.ts';
import { BUILTINS } from './builtins.ts';
import { forEachChild } from './walk.ts';

export { printExpr } from './printer.ts';

/** Python keywords that are names to the scanner but never valid in a YARE expression. */
const PYTHON_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['lambda', 'lambda expressions are not supported'],
  ['is', "'is' compares with None only: write x is None or x is not None, and compare values with == or !="],
  ['for', "'for' belongs inside a comprehension: [x for x in state.items if x] or {k: v for k in state.d}"],
  ['async', "'async' is not supported"],
  ['await', "'await' is not supported"],
  ['yield', "'yield' is not supported"],
]);
const PYTHON_STATEMENT_WORDS: ReadonlySet<string> = new Set([
  'import',
  'from',
  'as',
  'def',
  'class',
  'return',
  'del',
  'pass',
  'while',
  'with',
  'global',
  'nonlocal',
  'raise',
  'try',
  'except',
  'finally',
  'assert',
  'break',
  'continue',
  'elif',
]);

/** Where a parsed expression sits in its source text (see `Expression`). */
export interface SourceLocation {
  readonly source: string;
  readonly offset: number;
}

/**
 * Parse expression text written without the leading `@`. Spans in the tree are offsets into `text`;
 * `location` says where `text` starts inside a larger source (default: `text` itself, offset 0).
 */
export function parseExpression(text: string, location?: SourceLocation): Expression {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new YareError(
      'YARE_EXPR_TOO_LONG',
      `expression is ${text.length} characters long; the limit is ${MAX_EXPRESSION_LENGTH} (MAX_EXPRESSION_LENGTH)`,
      { start: MAX_EXPRESSION_LENGTH, end: text.length },
    );
  }
  const ast = new Parser(scan(text)).parseTop();
  checkHeight(ast, 0);
  return { source: location?.source ?? text, offset: location?.offset ?? 0, ast };
}

const LEADING_SPACE = /^\s*/;

/**
 * Parse a rules value written `@ expression` (as in `yare.yaml`): strips the `@` and surrounding
 * whitespace, and records how far in the expression starts.
 */
export function parseAtExpression(raw: string): Expression {
  if (raw[0] !== '@') {
    throw new YareError('YARE_NOT_AN_EXPRESSION', "an expression must start with '@'", { start: 0, end: 0 });
  }
  const offset = 1 + LEADING_SPACE.exec(raw.slice(1))![0].length;
  return parseExpression(raw.slice(offset).trimEnd(), { source: raw, offset });
}

/** The source text of a node (e.g. `roll(1d20)` for a call), used to label recorded rolls. */
export function exprText(expr: Expression, span: Span): string {
  return expr.source.slice(expr.offset + span.start, expr.offset + span.end);
}

function checkHeight(node: Expr, depth: number): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw new YareError(
      'YARE_EXPR_TOO_DEEP',
      `expression is nested deeper than ${MAX_EXPRESSION_DEPTH} levels (MAX_EXPRESSION_DEPTH)`,
      node.span,
    );
  }
  forEachChild(node, (child) => checkHeight(child, depth + 1));
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'int':
    case 'float':
      return 'number';
    case 'string':
      return 'string';
    case 'dice':
      return `dice '${t.count}d${t.sides}'`;
    case 'name':
      return `name '${t.name}'`;
    case 'keyword':
      return `'${t.keyword}'`;
    case 'op':
      return `'${t.op}'`;
    case 'eof':
      return 'end of expression';
  }
}

/** Root names a comprehension variable may not hide. */
const COMPREHENSION_RESERVED: ReadonlySet<string> = new Set(['state', 'temp', 'inputs', 'macros']);

function isNone(e: Expr): boolean {
  return e.kind === 'literal' && e.value === null;
}

const SUM_OPS: ReadonlyMap<string, BinaryOp> = new Map<string, BinaryOp>([
  ['+', '+'],
  ['-', '-'],
]);
const TERM_OPS: ReadonlyMap<string, BinaryOp> = new Map<string, BinaryOp>([
  ['*', '*'],
  ['/', '/'],
  ['//', '//'],
  ['%', '%'],
]);
const COMPARE_OPS: ReadonlyMap<string, CompareOp> = new Map<string, CompareOp>([
  ['==', '=='],
  ['!=', '!='],
  ['<', '<'],
  ['<=', '<='],
  ['>', '>'],
  ['>=', '>='],
]);

/** `x.name(...)`: no methods; where a built-in does the same, the message names it. */
function methodCall(name: string, at: Span): YareError {
  const instead = BUILTINS.has(name) ? `; write ${name}(x, ...) instead of x.${name}(...)` : '';
  return new YareError(
    'YARE_UNSUPPORTED',
    `method calls are not supported ('.${name}(...)'); only built-in functions can be called${instead}`,
    at,
  );
}

class Parser {
  private pos = 0;
  private depth = 0;
  /** End offset of the last consumed token: the end of every node's span. */
  private lastEnd = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseTop(): Expr {
    if (this.peek().kind === 'eof')
      throw new YareError('YARE_SYNTAX', 'empty expression', { start: 0, end: 0 });
    const expr = this.conditional();
    const t = this.peek();
    if (t.kind !== 'eof') {
      if (this.isOp(t, '='))
        throw new YareError('YARE_SYNTAX', "'=' cannot be used here; compare with '=='", this.spanOf(t));
      throw this.unexpected(t, 'after a complete expression');
    }
    return expr;
  }

  // --- token helpers -------------------------------------------------------------------------

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  private advance(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== 'eof') this.pos++;
    this.lastEnd = t.end;
    return t;
  }

  private isOp(t: Token, op: string): boolean {
    return t.kind === 'op' && t.op === op;
  }

  private isKeyword(t: Token, keyword: Keyword): boolean {
    return t.kind === 'keyword' && t.keyword === keyword;
  }

  private spanOf(t: Token): Span {
    return { start: t.start, end: t.end };
  }

  private expectOp(op: string, context: string): Token {
    const t = this.peek();
    if (!this.isOp(t, op)) throw this.unexpected(t, `expected '${op}' ${context}`);
    return this.advance();
  }

  /** A clear error for a token that cannot appear here, naming unsupported Python constructs. */
  private unexpected(t: Token, context: string): YareError {
    const where = this.spanOf(t);
    if (t.kind === 'name' && !t.sigil) {
      const reason = PYTHON_KEYWORDS.get(t.name);
      if (reason !== undefined) return new YareError('YARE_UNSUPPORTED', reason, where);
      if (PYTHON_STATEMENT_WORDS.has(t.name)) {
        return new YareError(
          'YARE_UNSUPPORTED',
          `'${t.name}' is a Python statement keyword, not an expression`,
          where,
        );
      }
    }
    if (t.kind === 'op') {
      switch (t.op) {
        case ',':
          return new YareError(
            'YARE_UNSUPPORTED',
            'tuples are not supported (a comma is only allowed in lists, dicts and calls)',
            where,
          );
        case ':':
          return new YareError(
            'YARE_SYNTAX',
            `unexpected ':' (${context}); slices and annotations are not supported`,
            where,
          );
      }
    }
    return new YareError('YARE_SYNTAX', `unexpected ${describe(t)} (${context})`, where);
  }

  /** Count one level of nesting; the opening token is blamed when the limit is passed. */
  private enter(t: Token): void {
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      throw new YareError(
        'YARE_EXPR_TOO_DEEP',
        `expression is nested deeper than ${MAX_EXPRESSION_DEPTH} levels (MAX_EXPRESSION_DEPTH)`,
        this.spanOf(t),
      );
    }
  }

  /** `*x` / `**x` where Python would unpack (lists, dicts, call arguments). */
  private refuseUnpacking(): void {
    const t = this.peek();
    if (t.kind === 'op' && (t.op === '*' || t.op === '**')) {
      throw new YareError('YARE_UNSUPPORTED', `unpacking with '${t.op}' is not supported`, this.spanOf(t));
    }
  }

  private nested(opener: Token): Expr {
    this.enter(opener);
    const e = this.conditional();
    this.depth--;
    return e;
  }

  // --- grammar -------------------------------------------------------------------------------

  private conditional(): Expr {
    const start = this.peek().start;
    const then = this.disjunction();
    const t = this.peek();
    if (!this.isKeyword(t, 'if')) return then;
    this.advance();
    const test = this.disjunction();
    const elseToken = this.peek();
    if (!this.isKeyword(elseToken, 'else'))
      throw this.unexpected(elseToken, "expected 'else' in 'A if C else B'");
    this.advance();
    const otherwise = this.nested(elseToken);
    return { kind: 'conditional', test, then, otherwise, span: { start, end: this.lastEnd } };
  }

  private disjunction(): Expr {
    const start = this.peek().start;
    let left = this.conjunction();
    while (this.isKeyword(this.peek(), 'or')) {
      this.advance();
      const right = this.conjunction();
      left = { kind: 'logical', op: 'or', left, right, span: { start, end: this.lastEnd } };
    }
    return left;
  }

  private conjunction(): Expr {
    const start = this.peek().start;
    let left = this.inversion();
    while (this.isKeyword(this.peek(), 'and')) {
      this.advance();
      const right = this.inversion();
      left = { kind: 'logical', op: 'and', left, right, span: { start, end: this.lastEnd } };
    }
    return left;
  }

  private inversion(): Expr {
    const t = this.peek();
    if (!this.isKeyword(t, 'not')) return this.comparison();
    this.advance();
    this.enter(t);
    const operand = this.inversion();
    this.depth--;
    return { kind: 'unary', op: 'not', operand, span: { start: t.start, end: this.lastEnd } };
  }

  private comparison(): Expr {
    const start = this.peek().start;
    const first = this.sum();
    let ops: CompareOp[] | undefined;
    let operands: Expr[] | undefined;
    for (;;) {
      const op = this.compareOp();
      if (op === undefined) break;
      ops ??= [];
      operands ??= [first];
      ops.push(op);
      const right = this.sum();
      const left = operands[operands.length - 1]!;
      if ((op === 'is' || op === 'is not') && !isNone(left) && !isNone(right)) {
        throw new YareError(
          'YARE_UNSUPPORTED',
          `'${op}' compares with None only: write x ${op} None (compare values with ${op === 'is' ? '==' : '!='})`,
          { start: left.span.start, end: right.span.end },
        );
      }
      operands.push(right);
    }
    if (ops === undefined || operands === undefined) return first;
    return { kind: 'compare', ops, operands, span: { start, end: this.lastEnd } };
  }

  private compareOp(): CompareOp | undefined {
    const t = this.peek();
    if (t.kind === 'op') {
      const op = COMPARE_OPS.get(t.op);
      if (op !== undefined) this.advance();
      return op;
    }
    if (this.isKeyword(t, 'in')) {
      this.advance();
      return 'in';
    }
    if (this.isKeyword(t, 'not') && this.isKeyword(this.peek(1), 'in')) {
      this.advance();
      this.advance();
      return 'not in';
    }
    if (t.kind === 'name' && !t.sigil && t.name === 'is') {
      this.advance();
      if (this.isKeyword(this.peek(), 'not')) {
        this.advance();
        return 'is not';
      }
      return 'is';
    }
    return undefined;
  }

  private sum(): Expr {
    const start = this.peek().start;
    let left = this.term();
    for (;;) {
      const t = this.peek();
      const op = t.kind === 'op' ? SUM_OPS.get(t.op) : undefined;
      if (op === undefined) return left;
      this.advance();
      const right = this.term();
      left = { kind: 'binary', op, left, right, span: { start, end: this.lastEnd } };
    }
  }

  private term(): Expr {
    const start = this.peek().start;
    let left = this.factor();
    for (;;) {
      const t = this.peek();
      const op = t.kind === 'op' ? TERM_OPS.get(t.op) : undefined;
      if (op === undefined) return left;
      this.advance();
      const right = this.factor();
      left = { kind: 'binary', op, left, right, span: { start, end: this.lastEnd } };
    }
  }

  private factor(): Expr {
    const t = this.peek();
    if (this.isOp(t, '-') || this.isOp(t, '+')) {
      this.advance();
      this.enter(t);
      const operand = this.factor();
      this.depth--;
      return {
        kind: 'unary',
        op: t.kind === 'op' && t.op === '-' ? '-' : '+',
        operand,
        span: { start: t.start, end: this.lastEnd },
      };
    }
    return this.power();
  }

  /** `primary ** factor`: right-associative, and the exponent may carry its own sign (`2 ** -1`). */
  private power(): Expr {
    const start = this.peek().start;
    const base = this.primary();
    const t = this.peek();
    if (!this.isOp(t, '**')) return base;
    this.advance();
    this.enter(t);
    const exponent = this.factor();
    this.depth--;
    return { kind: 'binary', op: '**', left: base, right: exponent, span: { start, end: this.lastEnd } };
  }

  private primary(): Expr {
    const first = this.peek();
    const start = first.start;
    let node = this.atom();
    // Calls are only allowed on a plain function name, never on the result of another expression.
    let callable = node.kind === 'name' && first.kind === 'name';
    if (node.kind === 'name' && node.name === 'macros' && !this.isOp(this.peek(), '.')) {
      throw new YareError(
        'YARE_SYNTAX',
        "'macros' must be followed by a macro name, as in macros.attack_roll",
        node.span,
      );
    }
    for (;;) {
      const t = this.peek();
      if (this.isOp(t, '.')) {
        this.advance();
        const nameToken = this.peek();
        if (nameToken.kind !== 'name' && nameToken.kind !== 'keyword') {
          throw this.unexpected(nameToken, "expected a name after '.'");
        }
        if (nameToken.kind === 'name' && nameToken.sigil) {
          throw new YareError(
            'YARE_SYNTAX',
            "'@' is only allowed at the start of a path",
            this.spanOf(nameToken),
          );
        }
        this.advance();
        const name = nameToken.kind === 'name' ? nameToken.name : nameToken.keyword;
        const open = this.peek();
        if (this.isOp(open, '(') && node.kind === 'name' && node.name === 'macros') {
          this.advance();
          node = this.macroCall(name, start, open);
        } else {
          node = { kind: 'attribute', object: node, name, span: { start, end: this.lastEnd } };
          if (this.isOp(open, '(')) throw methodCall(name, this.spanOf(open));
        }
      } else if (this.isOp(t, '[')) {
        this.advance();
        node = this.subscript(t, node, start);
      } else if (this.isOp(t, '(')) {
        if (!callable || node.kind !== 'name') {
          throw new YareError(
            'YARE_UNSUPPORTED',
            'only built-in functions can be called, by their plain name (as in roll(1d20))',
            this.spanOf(t),
          );
        }
        this.advance();
        node = this.call(node.name, start, t);
      } else {
        return node;
      }
      callable = false;
    }
  }

  /** What follows `[` after an object: an index, or a slice `start:stop:step` (each part optional). */
  private subscript(open: Token, object: Expr, start: number): Expr {
    const first = this.isOp(this.peek(), ':') ? undefined : this.nested(open);
    if (!this.isOp(this.peek(), ':')) {
      const close = this.peek();
      if (this.isOp(close, ','))
        throw new YareError('YARE_UNSUPPORTED', 'tuple subscripts are not supported', this.spanOf(close));
      this.expectOp(']', "to close '['");
      return { kind: 'index', object, index: first!, span: { start, end: this.lastEnd } };
    }
    this.advance(); // the first ':'
    const stop = this.slicePart(open);
    let step: Expr | undefined;
    if (this.isOp(this.peek(), ':')) {
      this.advance();
      step = this.slicePart(open);
    }
    this.expectOp(']', "to close the slice's '['");
    return { kind: 'slice', object, start: first, stop, step, span: { start, end: this.lastEnd } };
  }

  /** One part of a slice, or undefined where it is left out (`a[:2]`, `a[1:]`). */
  private slicePart(open: Token): Expr | undefined {
    const t = this.peek();
    return this.isOp(t, ':') || this.isOp(t, ']') ? undefined : this.nested(open);
  }

  /** The arguments of `macros.NAME(...)`, from after the `(`: positional only. */
  private macroCall(name: string, start: number, open: Token): Expr {
    const args: Expr[] = [];
    while (!this.isOp(this.peek(), ')')) {
      this.refuseUnpacking();
      const t = this.peek();
      if (t.kind === 'name' && !t.sigil && this.isOp(this.peek(1), '=')) {
        throw new YareError(
          'YARE_UNSUPPORTED',
          `macros.${name}() takes its arguments by position, not by name`,
          this.spanOf(t),
        );
      }
      args.push(this.nested(open));
      this.checkArgumentCount(args.length, t);
      const sep = this.peek();
      if (this.isOp(sep, ',')) this.advance();
      else if (!this.isOp(sep, ')'))
        throw this.unexpected(sep, `expected ',' or ')' in the call to macros.${name}`);
    }
    this.advance();
    return { kind: 'macroCall', name, args, span: { start, end: this.lastEnd } };
  }

  /** A call (of a builtin or a macro) takes at most MAX_CONTAINER_SIZE arguments. */
  private checkArgumentCount(count: number, at: Token): void {
    if (count > MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `a call has more than ${MAX_CONTAINER_SIZE} arguments (MAX_CONTAINER_SIZE)`,
        this.spanOf(at),
      );
    }
  }

  private call(callee: string, start: number, open: Token): Expr {
    const args: Expr[] = [];
    const kwargs: { name: string; value: Expr }[] = [];
    while (!this.isOp(this.peek(), ')')) {
      this.refuseUnpacking();
      const t = this.peek();
      if (t.kind === 'name' && !t.sigil && this.isOp(this.peek(1), '=')) {
        this.advance();
        this.advance();
        if (kwargs.some((k) => k.name === t.name)) {
          throw new YareError('YARE_SYNTAX', `keyword argument '${t.name}' is repeated`, this.spanOf(t));
        }
        kwargs.push({ name: t.name, value: this.nested(open) });
      } else {
        const arg = this.nested(open);
        const after = this.peek();
        if (after.kind === 'name' && !after.sigil && after.name === 'for') {
          throw new YareError(
            'YARE_UNSUPPORTED',
            'generator expressions are not supported; write a list comprehension, as in sum([x for x in state.items])',
            this.spanOf(after),
          );
        }
        if (kwargs.length > 0) {
          throw new YareError(
            'YARE_SYNTAX',
            'a positional argument cannot follow a keyword argument',
            arg.span,
          );
        }
        args.push(arg);
      }
      this.checkArgumentCount(args.length + kwargs.length, t);
      const sep = this.peek();
      if (this.isOp(sep, ',')) this.advance();
      else if (!this.isOp(sep, ')'))
        throw this.unexpected(sep, `expected ',' or ')' in the call to ${callee}`);
    }
    this.advance();
    return { kind: 'call', callee, args, kwargs, span: { start, end: this.lastEnd } };
  }

  private atom(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'int':
        this.advance();
        return { kind: 'literal', value: t.value, span: this.spanOf(t) };
      case 'float':
        this.advance();
        return { kind: 'literal', value: { float: t.value }, span: this.spanOf(t) };
      case 'string': {
        // Adjacent string literals concatenate, as in Python ('a' 'b' is 'ab').
        this.advance();
        let value = t.value;
        for (let next = this.peek(); next.kind === 'string'; next = this.peek()) {
          this.advance();
          value += next.value;
        }
        return { kind: 'literal', value, span: { start: t.start, end: this.lastEnd } };
      }
      case 'dice':
        this.advance();
        return { kind: 'dice', count: t.count, sides: t.sides, span: this.spanOf(t) };
      case 'name':
        if (!t.sigil && (PYTHON_KEYWORDS.has(t.name) || PYTHON_STATEMENT_WORDS.has(t.name))) {
          throw this.unexpected(t, 'expected a value');
        }
        this.advance();
        return { kind: 'name', name: t.name, span: this.spanOf(t) };
      case 'keyword':
        return this.keywordLiteral(t);
      case 'op':
        switch (t.op) {
          case '(':
            return this.parenthesised(t);
          case '[':
            return this.listLiteral(t);
          case '{':
            return this.dictLiteral(t);
        }
        throw this.unexpected(t, 'expected a value');
      case 'eof':
        throw this.unexpected(t, 'expected a value');
    }
  }

  private keywordLiteral(t: Extract<Token, { kind: 'keyword' }>): Expr {
    let value: boolean | null;
    switch (t.keyword) {
      case 'True':
      case 'true':
        value = true;
        break;
      case 'False':
      case 'false':
        value = false;
        break;
      case 'None':
      case 'null':
        value = null;
        break;
      default:
        throw this.unexpected(t, 'expected a value');
    }
    this.advance();
    return { kind: 'literal', value, span: this.spanOf(t) };
  }

  private parenthesised(open: Token): Expr {
    this.advance();
    if (this.isOp(this.peek(), ')')) {
      throw new YareError('YARE_UNSUPPORTED', 'tuples are not supported (empty parentheses)', {
        start: open.start,
        end: this.peek().end,
      });
    }
    const inner = this.nested(open);
    const t = this.peek();
    if (t.kind === 'name' && t.name === 'for') {
      throw new YareError(
        'YARE_UNSUPPORTED',
        'generator expressions are not supported; write a list comprehension, as in sum([x for x in state.items])',
        this.spanOf(t),
      );
    }
    this.expectOp(')', `to close '(' at offset ${open.start}`);
    return inner;
  }

  private listLiteral(open: Token): Expr {
    this.advance();
    const items: Expr[] = [];
    while (!this.isOp(this.peek(), ']')) {
      this.refuseUnpacking();
      items.push(this.nested(open));
      const next = this.peek();
      if (items.length === 1 && next.kind === 'name' && !next.sigil && next.name === 'for') {
        return this.comprehension(open, items[0]!, undefined, ']');
      }
      if (items.length > MAX_CONTAINER_SIZE) {
        throw new YareError(
          'YARE_CONTAINER_LIMIT',
          `a list literal has more than ${MAX_CONTAINER_SIZE} items (MAX_CONTAINER_SIZE)`,
          items[items.length - 1]!.span,
        );
      }
      const sep = this.peek();
      if (this.isOp(sep, ',')) this.advance();
      else if (!this.isOp(sep, ']')) throw this.unexpected(sep, "expected ',' or ']' in a list");
    }
    this.advance();
    return { kind: 'list', items, span: { start: open.start, end: this.lastEnd } };
  }

  /**
   * The clauses of a comprehension, from its first `for` to the closing bracket: `for NAME in iterable`
   * and `if condition`, in any order after the first `for`, as in Python.
   */
  private comprehension(open: Token, element: Expr, key: Expr | undefined, close: ']' | '}'): Expr {
    const clauses: ComprehensionClause[] = [];
    this.enter(open);
    for (;;) {
      const t = this.peek();
      if (t.kind === 'name' && !t.sigil && t.name === 'for') clauses.push(this.forClause());
      else if (clauses.length > 0 && this.isKeyword(t, 'if')) {
        this.advance();
        clauses.push({ kind: 'if', test: this.disjunction() });
      } else break;
      if (clauses.length > MAX_CONTAINER_SIZE) {
        throw new YareError(
          'YARE_CONTAINER_LIMIT',
          `a comprehension has more than ${MAX_CONTAINER_SIZE} clauses (MAX_CONTAINER_SIZE)`,
          this.spanOf(t),
        );
      }
    }
    this.depth--;
    const what = close === ']' ? "the comprehension's '['" : "the comprehension's '{'";
    this.expectOp(close, `to close ${what}`);
    return { kind: 'comprehension', element, key, clauses, span: { start: open.start, end: this.lastEnd } };
  }

  /** `for NAME in iterable` (the `for` is next). */
  private forClause(): ComprehensionClause {
    this.advance(); // for
    const target = this.peek();
    if (target.kind !== 'name' || target.sigil || PYTHON_KEYWORDS.has(target.name)) {
      throw this.unexpected(target, "expected one name after 'for'");
    }
    if (COMPREHENSION_RESERVED.has(target.name)) {
      throw new YareError(
        'YARE_SYNTAX',
        `'${target.name}' cannot be a comprehension's variable: it names ${target.name === 'macros' ? 'the macros' : `the ${target.name} of the rules`}`,
        this.spanOf(target),
      );
    }
    this.advance();
    if (this.isOp(this.peek(), ',')) {
      throw new YareError(
        'YARE_UNSUPPORTED',
        "a comprehension's for takes one variable (unpacking 'for a, b in' is not supported; use 'for k in d' and d[k])",
        this.spanOf(this.peek()),
      );
    }
    const inToken = this.peek();
    if (!this.isKeyword(inToken, 'in'))
      throw this.unexpected(inToken, "expected 'in' after the variable of 'for'");
    this.advance();
    return {
      kind: 'for',
      variable: target.name,
      variableSpan: this.spanOf(target),
      iterable: this.disjunction(),
    };
  }

  private dictLiteral(open: Token): Expr {
    this.advance();
    const entries: { key: Expr; value: Expr }[] = [];
    while (!this.isOp(this.peek(), '}')) {
      this.refuseUnpacking();
      const key = this.nested(open);
      const colon = this.peek();
      if (this.isOp(colon, ',') || this.isOp(colon, '}')) {
        throw new YareError(
          'YARE_UNSUPPORTED',
          'set literals are not supported; a dict needs key: value',
          key.span,
        );
      }
      this.expectOp(':', 'between a dict key and its value');
      const value = this.nested(open);
      const next = this.peek();
      if (entries.length === 0 && next.kind === 'name' && !next.sigil && next.name === 'for') {
        return this.comprehension(open, value, key, '}');
      }
      entries.push({ key, value });
      if (entries.length > MAX_CONTAINER_SIZE) {
        throw new YareError(
          'YARE_CONTAINER_LIMIT',
          `a dict literal has more than ${MAX_CONTAINER_SIZE} entries (MAX_CONTAINER_SIZE)`,
          key.span,
        );
      }
      const sep = this.peek();
      if (this.isOp(sep, ',')) this.advance();
      else if (!this.isOp(sep, '}')) throw this.unexpected(sep, "expected ',' or '}' in a dict");
    }
    this.advance();
    return { kind: 'dict', entries, span: { start: open.start, end: this.lastEnd } };
  }
}
