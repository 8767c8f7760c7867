// Writes the recorded outcomes that test/core/yare/recorded.test.ts replays: expressions (hand-picked and
// generated), generated events of every step kind, and every event of the project's cartridges. Run it
// only when a semantic change is deliberate, and review the diff of the JSON files case by case:
//
//   npx tsx test/core/yare/recorded/generate.ts
//
// The cases come from fixed fast-check seeds, so regenerating without an engine change gives the same files.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { DiceRoller } from '../../../../src/core/yare/dice.ts';
import { YareError } from '../../../../src/core/yare/errors.ts';
import { evaluate } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseExpression, printExpr } from '../../../../src/core/yare/expr/parser.ts';
import { EventRunner, runEvent } from '../../../../src/core/yare/interpreter.ts';
import { MAX_EXPRESSION_LENGTH } from '../../../../src/core/yare/limits.ts';
import { diffStates } from '../../../../src/core/yare/diff.ts';
import { compileYaml } from '../../../helpers/yare.ts';
import { expr } from '../expr/generators.ts';
import {
  eventOutcome,
  expressionOutcome,
  HAND_PICKED_EXPRESSIONS,
  inputsArb,
  inputSets,
  lanternmereRules,
  plain,
  LOCALS_EVENT,
  rulesYaml,
  SEQUENCE_EVENTS,
  stateArb,
  stepsArb,
} from './fixtures.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Written as the project's formatter writes JSON, so the files pass its check and diffs stay small. */
function write(name: string, cases: readonly unknown[]): void {
  const file = join(HERE, name);
  writeFileSync(file, `${JSON.stringify(cases)}\n`);
  execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
  process.stdout.write(`${name}: ${cases.length} cases\n`);
}

function expressions(): unknown[] {
  const cases: unknown[] = [];
  for (const text of HAND_PICKED_EXPRESSIONS) {
    for (const seed of [0, 1]) {
      const parsed = parseExpression(text);
      cases.push({ text, seed, outcome: expressionOutcome((ctx) => evaluate(parsed, ctx), seed) });
    }
  }
  // Generated trees, printed and re-parsed (real spans); what the parser refuses is left out.
  const trees = fc.sample(fc.tuple(expr, fc.nat(1000)), { seed: 15, numRuns: 1500 });
  let kept = 0;
  for (const [tree, seed] of trees) {
    const text = printExpr(tree);
    if (text.length > MAX_EXPRESSION_LENGTH) continue;
    let parsed: ReturnType<typeof parseExpression>;
    try {
      parsed = parseExpression(text);
    } catch (error) {
      if (error instanceof YareError) continue;
      throw error;
    }
    cases.push({ text, seed, outcome: expressionOutcome((ctx) => evaluate(parsed, ctx), seed) });
    if (++kept === 800) break;
  }
  return cases;
}

function events(): unknown[] {
  const cases: unknown[] = [];
  const probes = fc.sample(fc.tuple(stepsArb(false), stateArb, inputsArb, fc.nat(1000)), {
    seed: 15,
    numRuns: 300,
  });
  for (const [steps, state, inputs, seed] of probes) {
    const { rules } = compileYaml(rulesYaml(steps));
    if (!rules) continue;
    // No `state`: the run starts from the rules' initial state.
    const outcome = eventOutcome(runEvent(rules, state ?? rules.initialState, 'probe', inputs, { seed }));
    cases.push({ kind: 'probe', steps, ...(state ? { state } : {}), inputs, seed, outcome });
  }
  const nested = fc.sample(fc.tuple(stepsArb(true), stepsArb(true), fc.nat(1000)), {
    seed: 16,
    numRuns: 120,
  });
  for (const [inner, after, seed] of nested) {
    const { rules } = compileYaml(rulesYaml(LOCALS_EVENT(inner, after)));
    if (!rules) continue;
    const outcome = eventOutcome(runEvent(rules, rules.initialState, 'probe', {}, { seed }));
    cases.push({ kind: 'locals', inner, after, seed, outcome });
  }
  const sequences = fc.sample(
    fc.tuple(
      stepsArb(false),
      fc.array(fc.tuple(fc.constantFrom(...SEQUENCE_EVENTS), inputsArb), { minLength: 1, maxLength: 5 }),
      fc.nat(1000),
    ),
    { seed: 17, numRuns: 80 },
  );
  for (const [steps, calls, seed] of sequences) {
    const { rules } = compileYaml(rulesYaml(steps));
    if (!rules) continue;
    const dice = DiceRoller.fromSeed(seed);
    const runner = new EventRunner(rules, rules.initialState, dice);
    const outcomes = calls.map(([event, inputs]) => eventOutcome(runner.run(event, inputs)));
    cases.push({
      kind: 'sequence',
      steps,
      calls,
      seed,
      outcomes,
      final: JSON.parse(JSON.stringify(runner.state)),
    });
  }
  return cases;
}

/**
 * Lanternmere's rules as they were when recorded (a copy, so the cartridge can change without moving
 * these outcomes): every event with several inputs and seeds.
 */
function cartridges(): unknown[] {
  const cases: unknown[] = [];
  const rules = lanternmereRules();
  for (const seed of [0, 42]) {
    for (const event of rules.eventNames) {
      for (const inputs of inputSets(rules, event)) {
        const r = runEvent(rules, rules.initialState, event, inputs, { seed });
        const changes = r.ok ? diffStates(rules.initialState, r.state) : [];
        cases.push({ event, inputs, seed, outcome: eventOutcome(r, false), changes: plain(changes) });
      }
    }
  }
  return cases;
}

write('expressions.json', expressions());
write('events.json', events());
write('lanternmere.json', cartridges());
