// Shared fixtures for expression tests: a context over plain state/temp/inputs with scripted dice.
import type { Span } from '../../../../src/core/yare/expr/ast.ts';
import { type EvalContext, evaluate } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseAtExpression, parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { YareError } from '../../../../src/core/yare/errors.ts';
import { MAX_STEPS_PER_RUN } from '../../../../src/core/yare/limits.ts';
import type { Value } from '../../../../src/core/yare/values.ts';

export interface Fixture {
  state?: Value;
  temp?: Value;
  inputs?: Value;
  locals?: Record<string, Value>;
  macros?: Record<string, string>;
  /** Face values handed out in order, one per die. */
  faces?: number[];
}

export interface ScriptedContext extends EvalContext {
  readonly rolls: { count: number; sides: number; text: string }[];
  readonly macroCalls: string[];
}

export function contextOf(f: Fixture = {}): ScriptedContext {
  const faces = [...(f.faces ?? [])];
  const rolls: { count: number; sides: number; text: string }[] = [];
  const macroCalls: string[] = [];
  let steps = 0;
  const roots = new Map<string, Value>([
    ['state', f.state ?? {}],
    ['temp', f.temp ?? {}],
    ['inputs', f.inputs ?? {}],
    ...Object.entries(f.locals ?? {}),
  ]);
  const ctx: ScriptedContext = {
    rolls,
    macroCalls,
    lookup: (name) => roots.get(name),
    step() {
      if (++steps > MAX_STEPS_PER_RUN)
        throw new YareError('YARE_STEP_LIMIT', `more than ${MAX_STEPS_PER_RUN} steps`);
    },
    macro(name: string, span: Span): Value {
      macroCalls.push(name);
      const text = f.macros?.[name];
      if (text === undefined) throw new YareError('YARE_UNKNOWN_MACRO', `no macro ${name}`, span);
      return evaluate(parseAtExpression(text), ctx);
    },
    roll(count, sides, text) {
      rolls.push({ count, sides, text });
      let total = 0;
      for (let i = 0; i < count; i++) {
        const face = faces.shift();
        if (face === undefined) throw new Error('scripted dice exhausted');
        total += face;
      }
      return total;
    },
  };
  return ctx;
}

/** Evaluate `@ …` text (or bare expression text) against a fixture. */
export function run(text: string, f: Fixture = {}): Value {
  const expr = text.startsWith('@') ? parseAtExpression(text) : parseExpression(text);
  return evaluate(expr, contextOf(f));
}

/** The YareError thrown by `fn`; fails the test when nothing (or something else) is thrown. */
export function yareErrorOf(fn: () => unknown): YareError {
  try {
    fn();
  } catch (e) {
    if (e instanceof YareError) return e;
    throw new Error(`expected a YareError, got ${String(e)}`);
  }
  throw new Error('expected a YareError, nothing was thrown');
}
