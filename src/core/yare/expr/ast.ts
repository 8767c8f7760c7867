// Typed AST of YARE expressions. Every node carries its span: offsets into the expression text
// (after the leading `@` and whitespace were removed; `Expression.offset` says how far in that was).

export interface Span {
  readonly start: number;
  readonly end: number;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '**';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'is' | 'is not';
export type UnaryOp = '-' | '+' | 'not';

export type Expr =
  | {
      readonly kind: 'literal';
      readonly value: null | boolean | number | string | { float: number };
      readonly span: Span;
    }
  /** `2d6` written bare: evaluates to the string '2d6' (so `roll(2d6)` works), checked against dice limits at parse time. */
  | { readonly kind: 'dice'; readonly count: number; readonly sides: number; readonly span: Span }
  | { readonly kind: 'name'; readonly name: string; readonly span: Span }
  | { readonly kind: 'attribute'; readonly object: Expr; readonly name: string; readonly span: Span }
  | { readonly kind: 'index'; readonly object: Expr; readonly index: Expr; readonly span: Span }
  | {
      readonly kind: 'call';
      readonly callee: string;
      readonly args: readonly Expr[];
      readonly kwargs: readonly { readonly name: string; readonly value: Expr }[];
      readonly span: Span;
    }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly operand: Expr; readonly span: Span }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly left: Expr;
      readonly right: Expr;
      readonly span: Span;
    }
  /** Chained comparison `a < b <= c`: operands.length === ops.length + 1. */
  | {
      readonly kind: 'compare';
      readonly ops: readonly CompareOp[];
      readonly operands: readonly Expr[];
      readonly span: Span;
    }
  | {
      readonly kind: 'logical';
      readonly op: 'and' | 'or';
      readonly left: Expr;
      readonly right: Expr;
      readonly span: Span;
    }
  | {
      readonly kind: 'conditional';
      readonly test: Expr;
      readonly then: Expr;
      readonly otherwise: Expr;
      readonly span: Span;
    }
  | { readonly kind: 'list'; readonly items: readonly Expr[]; readonly span: Span }
  /**
   * `[element for a in xs if c for b in ys ...]`, or with `key` a dict comprehension
   * `{key: element for ...}`: the clauses in order, the first a `for`; each `for` binds its variable for
   * the clauses after it and the element (as in Python 3, only inside the brackets).
   */
  | {
      readonly kind: 'comprehension';
      readonly element: Expr;
      /** The key of a dict comprehension (`{key: element for ...}`); undefined for a list. */
      readonly key: Expr | undefined;
      readonly clauses: readonly ComprehensionClause[];
      readonly span: Span;
    }
  /** `object[start:stop:step]`, Python's slice of a list or a string; each part may be left out. */
  | {
      readonly kind: 'slice';
      readonly object: Expr;
      readonly start: Expr | undefined;
      readonly stop: Expr | undefined;
      readonly step: Expr | undefined;
      readonly span: Span;
    }
  /** `macros.NAME(args)`: a macro with parameters, called with as many arguments as it declares. */
  | {
      readonly kind: 'macroCall';
      readonly name: string;
      readonly args: readonly Expr[];
      readonly span: Span;
    }
  | {
      readonly kind: 'dict';
      readonly entries: readonly { readonly key: Expr; readonly value: Expr }[];
      readonly span: Span;
    };

/** One clause of a comprehension: `for variable in iterable`, or `if test`. */
export type ComprehensionClause =
  | {
      readonly kind: 'for';
      readonly variable: string;
      readonly variableSpan: Span;
      readonly iterable: Expr;
    }
  | { readonly kind: 'if'; readonly test: Expr };

/** A parsed expression with the text it came from. */
export interface Expression {
  readonly source: string;
  /** Offset of `ast` span 0 within `source` (the text after `@` and leading spaces). */
  readonly offset: number;
  readonly ast: Expr;
}
