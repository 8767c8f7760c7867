// Evaluates one expression against a state, for `mnesos eval` and author tooling: parsed and checked like
// an expression in the rules (state paths, macros, functions), then evaluated with seeded dice.

import { type CheckFinding, checkExpr } from './check.ts';
import { DiceRoller, type RollRecord } from './dice.ts';
import { YareError, type YareErrorCode } from './errors.ts';
import { parseExpression } from './expr/parser.ts';
import { EventRunner } from './interpreter.ts';
import type { CompiledRules } from './program.ts';
import type { Value } from './values.ts';

export type EvaluateResult =
  | { readonly ok: true; readonly value: Value; readonly rolls: readonly RollRecord[] }
  | {
      readonly ok: false;
      readonly error: { readonly code: YareErrorCode; readonly message: string; readonly column?: number };
    };

export function evaluateExpression(
  rules: CompiledRules,
  state: unknown,
  text: string,
  options: { seed?: number } = {},
): EvaluateResult {
  const trimmed = text.trimStart();
  const body = trimmed.startsWith('@') ? trimmed.slice(1).trimStart() : trimmed;
  const skipped = text.length - body.length;
  try {
    const expr = parseExpression(body);
    const findings: CheckFinding[] = [];
    checkExpr(
      expr.ast,
      {
        schema: rules.schema,
        inputs: new Set(),
        macros: new Set(rules.macros.keys()),
        macroParams: new Map([...rules.macroFunctions].map(([name, fn]) => [name, fn.params])),
        locals: new Set(),
      },
      findings,
    );
    const first = findings[0];
    if (first)
      return {
        ok: false,
        error: { code: first.code, message: first.message, column: skipped + first.start + 1 },
      };
    const dice = DiceRoller.fromSeed(options.seed ?? 0);
    const runner = new EventRunner(rules, state, dice);
    const value = runner.evaluate(expr);
    return { ok: true, value, rolls: dice.rolls };
  } catch (error) {
    if (error instanceof YareError) {
      return {
        ok: false,
        error: {
          code: error.code,
          message: error.message,
          ...(error.span ? { column: skipped + error.span.start + 1 } : {}),
        },
      };
    }
    throw error;
  }
}
