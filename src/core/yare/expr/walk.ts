// Visit every node of an expression tree, parents before children, left to right. The checker uses
// it to find `state.`/`inputs.`/`macros.` paths and calls. Parsed trees are at most
// MAX_EXPRESSION_DEPTH deep, so plain recursion is safe.

import type { Expr } from './ast.ts';

/** Return `false` from `visit` to skip a node's children. */
export type ExprVisitor = (node: Expr, parent: Expr | undefined) => boolean | undefined;

export function walkExpr(node: Expr, visit: ExprVisitor, parent?: Expr): void {
  if (visit(node, parent) === false) return;
  forEachChild(node, (child) => walkExpr(child, visit, node));
}

/**
 * Calls `each` on every direct child of `node`, left to right (a comprehension: its key, its element, then
 * each clause's iterable or test in order).
 */
export function forEachChild(node: Expr, each: (child: Expr) => void): void {
  switch (node.kind) {
    case 'literal':
    case 'dice':
    case 'name':
      return;
    case 'attribute':
      each(node.object);
      return;
    case 'index':
      each(node.object);
      each(node.index);
      return;
    case 'call':
      for (const a of node.args) each(a);
      for (const k of node.kwargs) each(k.value);
      return;
    case 'unary':
      each(node.operand);
      return;
    case 'binary':
    case 'logical':
      each(node.left);
      each(node.right);
      return;
    case 'compare':
      for (const o of node.operands) each(o);
      return;
    case 'conditional':
      each(node.test);
      each(node.then);
      each(node.otherwise);
      return;
    case 'list':
      for (const item of node.items) each(item);
      return;
    case 'comprehension':
      if (node.key !== undefined) each(node.key);
      each(node.element);
      for (const clause of node.clauses) each(clause.kind === 'for' ? clause.iterable : clause.test);
      return;
    case 'slice':
      each(node.object);
      if (node.start !== undefined) each(node.start);
      if (node.stop !== undefined) each(node.stop);
      if (node.step !== undefined) each(node.step);
      return;
    case 'macroCall':
      for (const a of node.args) each(a);
      return;
    case 'dict':
      for (const e of node.entries) {
        each(e.key);
        each(e.value);
      }
      return;
    default: {
      const never: never = node;
      throw new Error(`unknown expression node ${(never as Expr).kind}`);
    }
  }
}
