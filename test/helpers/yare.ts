// Compiling YARE from an inline YAML string, and scripted dice, for rule tests.
import { LineCounter, parseDocument } from 'yaml';
import { compileRules } from '../../src/core/yare/compile.ts';
import type { Dice } from '../../src/core/yare/interpreter.ts';
import type { RollRecord } from '../../src/core/yare/dice.ts';
import type { CompiledRules } from '../../src/core/yare/program.ts';
import type { Diagnostic } from '../../src/core/diagnostics.ts';

export function compileYaml(
  text: string,
  file = 'yare.yaml',
): { rules?: CompiledRules; diagnostics: Diagnostic[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('\n'));
  return compileRules({ file, doc, lineCounter });
}

export function rulesOf(text: string): CompiledRules {
  const { rules, diagnostics } = compileYaml(text);
  if (!rules)
    throw new Error(
      `does not compile:\n${diagnostics.map((d) => `${d.place?.line}:${d.place?.col} ${d.code} ${d.message}`).join('\n')}`,
    );
  return rules;
}

export function errorsOf(text: string): Diagnostic[] {
  return compileYaml(text).diagnostics.filter((d) => d.severity === 'error');
}

/** Dice that return the given face values in order (each die gets the next value). */
export function scriptedDice(faces: number[]): Dice & { calls: Array<[number, number]> } {
  const queue = [...faces];
  const rolls: RollRecord[] = [];
  const calls: Array<[number, number]> = [];
  return {
    rolls,
    calls,
    roll(count: number, sides: number, expr: string): number {
      calls.push([count, sides]);
      const got: number[] = [];
      for (let i = 0; i < count; i++) {
        const next = queue.shift();
        if (next === undefined) throw new Error('scripted dice exhausted');
        got.push(next);
      }
      const total = got.reduce((a, b) => a + b, 0);
      rolls.push({ expr, dice: `${count}d${sides}`, faces: got, total });
      return total;
    },
  };
}
