// Typed AST of YARE expressions. Every node carries its span: offsets into the expression text
// (after the leading `@` and whitespace were removed; `Expression.offset` says how far in that was).

export interface Span {
  readonly start: number;
  readonly end: number;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';
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
  | {
      readonly kind: 'dict';
      readonly entries: readonly { readonly key: Expr; readonly value: Expr }[];
      readonly span: Span;
    };

/** A parsed expression with the text it came from. */
export interface Expression {
  readonly source: string;
  /** Offset of `ast` span 0 within `source` (the text after `@` and leading spaces). */
  readonly offset: number;
  readonly ast: Expr;
}
