// Visit every node of an expression tree, parents before children, left to right. The checker uses
// it to find `state.`/`inputs.`/`macros.` paths and calls. Parsed trees are at most
// MAX_EXPRESSION_DEPTH deep, so plain recursion is safe.

import type { Expr } from './ast.ts';

/** Return `false` from `visit` to skip a node's children. */
export type ExprVisitor = (node: Expr, parent: Expr | undefined) => boolean | undefined;

export function walkExpr(node: Expr, visit: ExprVisitor, parent?: Expr): void {
  if (visit(node, parent) === false) return;
  switch (node.kind) {
    case 'literal':
    case 'dice':
    case 'name':
      return;
    case 'attribute':
      walkExpr(node.object, visit, node);
      return;
    case 'index':
      walkExpr(node.object, visit, node);
      walkExpr(node.index, visit, node);
      return;
    case 'call':
      for (const a of node.args) walkExpr(a, visit, node);
      for (const k of node.kwargs) walkExpr(k.value, visit, node);
      return;
    case 'unary':
      walkExpr(node.operand, visit, node);
      return;
    case 'binary':
    case 'logical':
      walkExpr(node.left, visit, node);
      walkExpr(node.right, visit, node);
      return;
    case 'compare':
      for (const o of node.operands) walkExpr(o, visit, node);
      return;
    case 'conditional':
      walkExpr(node.test, visit, node);
      walkExpr(node.then, visit, node);
      walkExpr(node.otherwise, visit, node);
      return;
    case 'list':
      for (const item of node.items) walkExpr(item, visit, node);
      return;
    case 'dict':
      for (const e of node.entries) {
        walkExpr(e.key, visit, node);
        walkExpr(e.value, visit, node);
      }
      return;
    default: {
      const never: never = node;
      throw new Error(`unknown expression node ${(never as Expr).kind}`);
    }
  }
}
