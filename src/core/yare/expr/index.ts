// The YARE expression language: parse once (`parseAtExpression`), check (`walkExpr`, `checkCall`),
// lower to closures once (`compileClosure`) and run them many times (`evaluate` does both, cached).

export type { BinaryOp, CompareOp, Expr, Expression, Span, UnaryOp } from './ast.ts';
export { BUILTINS, type BuiltinName, type BuiltinSignature, checkCall } from './builtins.ts';
export { checkDice, type DiceSpec, parseDiceText } from './dice-notation.ts';
export {
  type EvalContext,
  evaluate,
  formatValue,
  getAttribute,
  getItem,
  pyRepr,
  toNumeric,
  toStateValue,
  truthy,
  valueEquals,
} from './evaluate.ts';
export { exprText, parseAtExpression, parseExpression, type SourceLocation } from './parser.ts';
export {
  type Closure,
  type ClosureOptions,
  compileClosure,
  type HostFunction,
  hostCallError,
} from './closure.ts';
export { printExpr } from './printer.ts';
export { type Keyword, scan, type Token } from './scanner.ts';
export { type ExprVisitor, forEachChild, walkExpr } from './walk.ts';
