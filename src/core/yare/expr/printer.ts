// Canonical printer: AST → expression text with the fewest parentheses Python precedence needs.
// Printing a parsed tree and parsing the result again gives a tree that prints the same, so the
// printer is how tools show an expression back to an author (and how property tests build inputs).

import { formatFloat, pyStrRepr } from '../python.ts';
import type { Expr } from './ast.ts';

// Binding strength, lowest first (Python's table).
const COND = 0;
const OR = 1;
const AND = 2;
const NOT = 3;
const COMPARE = 4;
const SUM = 5;
const TERM = 6;
const UNARY = 7;
const POWER = 8;
const POSTFIX = 9;
const ATOM = 10;

function precedence(node: Expr): number {
  switch (node.kind) {
    case 'conditional':
      return COND;
    case 'logical':
      return node.op === 'or' ? OR : AND;
    case 'unary':
      return node.op === 'not' ? NOT : UNARY;
    case 'compare':
      return COMPARE;
    case 'binary':
      return node.op === '**' ? POWER : node.op === '+' || node.op === '-' ? SUM : TERM;
    case 'attribute':
    case 'index':
    case 'slice':
    case 'call':
    case 'macroCall':
      return POSTFIX;
    case 'literal': {
      // A negative number prints with a leading '-', which reads back as unary minus.
      const v = node.value;
      const n = typeof v === 'number' ? v : v !== null && typeof v === 'object' ? v.float : 0;
      return n < 0 || Object.is(n, -0) ? UNARY : ATOM;
    }
    case 'dice':
    case 'name':
    case 'list':
    case 'comprehension':
    case 'dict':
      return ATOM;
    default: {
      const never: never = node;
      throw new Error(`unknown expression node ${(never as Expr).kind}`);
    }
  }
}

/** Print an expression (without the leading `@`). */
export function printExpr(node: Expr): string {
  return print(node, COND);
}

function print(node: Expr, min: number): string {
  const text = printRaw(node);
  return precedence(node) < min ? `(${text})` : text;
}

function printNumber(n: number, isFloat: boolean): string {
  if (!isFloat && Number.isSafeInteger(n)) return String(n);
  if (n === Infinity) return '1e999';
  if (n === -Infinity) return '-1e999';
  return formatFloat(n);
}

function printRaw(node: Expr): string {
  switch (node.kind) {
    case 'literal': {
      const v = node.value;
      if (v === null) return 'None';
      if (typeof v === 'boolean') return v ? 'True' : 'False';
      if (typeof v === 'number') return printNumber(v, false);
      if (typeof v === 'string') return pyStrRepr(v);
      return printNumber(v.float, true);
    }
    case 'dice':
      return `${node.count}d${node.sides}`;
    case 'name':
      return node.name;
    case 'attribute': {
      const object = node.object;
      // `1.x` would scan as the float `1.` followed by `x`.
      const bareInt =
        object.kind === 'literal' && typeof object.value === 'number' && precedence(object) === ATOM;
      return `${bareInt ? `(${printRaw(object)})` : print(object, POSTFIX)}.${node.name}`;
    }
    case 'index':
      return `${print(node.object, POSTFIX)}[${print(node.index, COND)}]`;
    case 'call': {
      const parts = node.args.map((a) => print(a, COND));
      for (const k of node.kwargs) parts.push(`${k.name}=${print(k.value, COND)}`);
      return `${node.callee}(${parts.join(', ')})`;
    }
    case 'unary':
      return node.op === 'not'
        ? `not ${print(node.operand, NOT)}`
        : `${node.op}${print(node.operand, UNARY)}`;
    case 'binary': {
      // `**` groups to the right, and its exponent may be a signed factor (`2 ** -1`).
      if (node.op === '**') return `${print(node.left, POSTFIX)} ** ${print(node.right, UNARY)}`;
      const level = precedence(node);
      return `${print(node.left, level)} ${node.op} ${print(node.right, level + 1)}`;
    }
    case 'compare': {
      let out = print(node.operands[0]!, SUM);
      for (let i = 0; i < node.ops.length; i++) out += ` ${node.ops[i]} ${print(node.operands[i + 1]!, SUM)}`;
      return out;
    }
    case 'logical': {
      const level = precedence(node);
      return `${print(node.left, level)} ${node.op} ${print(node.right, level + 1)}`;
    }
    case 'conditional':
      return `${print(node.then, OR)} if ${print(node.test, OR)} else ${print(node.otherwise, COND)}`;
    case 'list':
      return `[${node.items.map((i) => print(i, COND)).join(', ')}]`;
    case 'comprehension': {
      const clauses = node.clauses
        .map((c) =>
          c.kind === 'for' ? ` for ${c.variable} in ${print(c.iterable, OR)}` : ` if ${print(c.test, OR)}`,
        )
        .join('');
      if (node.key === undefined) return `[${print(node.element, COND)}${clauses}]`;
      return `{${print(node.key, COND)}: ${print(node.element, COND)}${clauses}}`;
    }
    case 'slice': {
      const part = (e: Expr | undefined) => (e === undefined ? '' : print(e, COND));
      const step = node.step === undefined ? '' : `:${part(node.step)}`;
      return `${print(node.object, POSTFIX)}[${part(node.start)}:${part(node.stop)}${step}]`;
    }
    case 'macroCall':
      return `macros.${node.name}(${node.args.map((a) => print(a, COND)).join(', ')})`;
    case 'dict':
      return `{${node.entries.map((e) => `${print(e.key, COND)}: ${print(e.value, COND)}`).join(', ')}}`;
    default: {
      const never: never = node;
      throw new Error(`unknown expression node ${(never as Expr).kind}`);
    }
  }
}
