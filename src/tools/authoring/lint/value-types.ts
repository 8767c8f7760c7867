// LINT_VALUE_TYPE: a value of another type written to a typed field — `value: true` on an int field,
// `value: "5"` on a number, a number on a bool. It compiles (the rules coerce or refuse it at run time), but
// it is almost always a slip: `validate` warns, `validate --strict` fails. Only values written out in the
// rules (a constant, or an expression that is one literal) are judged; a computed value is the checker's.
// Pure: it reads the compiled rules.

import type { Diagnostic, SourcePlace } from '../../../core/diagnostics.ts';
import type { CompiledRules, FieldSchema, Operand, Step } from '../../../core/yare/index.ts';

/** A literal the rules write: its value, or undefined when the operand is computed. */
function literalOf(operand: Operand): unknown {
  if (operand.kind === 'const') return operand.value;
  const ast = operand.expr.ast;
  if (ast.kind !== 'literal') return undefined;
  return typeof ast.value === 'object' && ast.value !== null ? ast.value.float : ast.value;
}

/** Is `value` float-shaped: a literal written with a decimal point ({ float }) or a fraction. */
function isFloatLiteral(operand: Operand, value: unknown): boolean {
  if (operand.kind === 'expr' && operand.expr.ast.kind === 'literal') {
    const v = operand.expr.ast.value;
    if (typeof v === 'object' && v !== null) return true;
  }
  return typeof value === 'number' && !Number.isInteger(value);
}

function describe(value: unknown, operand: Operand): string {
  if (typeof value === 'boolean') return `the bool ${String(value)}`;
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  if (typeof value === 'number')
    return isFloatLiteral(operand, value) ? `the float ${value}` : `the number ${value}`;
  if (Array.isArray(value)) return 'a list';
  return 'a dict';
}

/** Why `value` does not fit the field's type, or undefined when it fits (null is left to the checker). */
function misfit(field: FieldSchema, operand: Operand): string | undefined {
  const value = literalOf(operand);
  if (value === undefined || value === null || field.type === undefined) return undefined;
  const fits = (() => {
    switch (field.type) {
      case 'int':
        return typeof value === 'number' && !isFloatLiteral(operand, value);
      case 'float':
        return typeof value === 'number';
      case 'bool':
        return typeof value === 'boolean';
      case 'string':
        return typeof value === 'string';
      case 'list':
        return Array.isArray(value);
      case 'dict':
        return typeof value === 'object' && !Array.isArray(value);
      default:
        return true;
    }
  })();
  return fits ? undefined : describe(value, operand);
}

function walk(steps: readonly Step[], visit: (step: Step) => void): void {
  for (const step of steps) {
    visit(step);
    if (step.kind === 'branch') for (const arm of step.arms) walk(arm.steps, visit);
    if (step.kind === 'foreach') walk(step.steps, visit);
  }
}

/** One warning per `set` or `mutate` step that writes a literal of another type to a typed state field. */
export function lintValueTypes(rules: CompiledRules): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const event of rules.events.values())
    walk(event.steps, (step) => {
      if (step.kind !== 'set' && step.kind !== 'mutate') return;
      const target = step.target;
      if (target.kind !== 'static' || target.root !== 'state' || target.field === undefined) return;
      const wrong = misfit(target.field, step.value);
      if (wrong === undefined) return;
      const place: SourcePlace = step.value.kind === 'expr' ? step.value.place : step.place;
      out.push({
        severity: 'warning',
        code: 'LINT_VALUE_TYPE',
        message: `${step.kind} writes ${wrong} to state.${target.path.join('.')}, a field of type ${target.field.type} (event '${event.name}').`,
        place,
      });
    });
  return out;
}
