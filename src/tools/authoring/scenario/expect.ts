// Checking one expectation against what a step produced. A failure is a plain sentence naming the
// expected and the observed value; the caller adds the expectation's `file:line:col`.

import type { Checked } from '../../../core/result.ts';
import { allFacts, lookup } from '../../../core/ledger/index.ts';
import {
  type CompiledRules,
  evaluateExpression,
  toStateValue,
  toValue,
  truthy,
  type Value,
} from '../../../core/yare/index.ts';
import type { Bound, Expectation } from './model.ts';
import type { StepObservation } from './observation.ts';

const show = (v: unknown): string => JSON.stringify(v);

/** The expectation's failure message, or undefined when it holds. */
export function checkExpectation(
  rules: CompiledRules,
  e: Expectation,
  seen: StepObservation,
): string | undefined {
  switch (e.kind) {
    case 'equals':
      return equalsFailure(rules, e, seen);
    case 'between':
      return betweenFailure(rules, e, seen);
    case 'check':
      return checkFailure(rules, e, seen);
    case 'note':
      return seen.notes.some((n) => n.includes(e.text))
        ? undefined
        : `no note contains ${show(e.text)}; the notes were:${listed(seen.notes)}`;
    case 'no_note': {
      const hit = seen.notes.find((n) => n.includes(e.text));
      return hit === undefined ? undefined : `a note contains ${show(e.text)}: ${show(hit)}`;
    }
    case 'narration':
      if (seen.narration === undefined) return 'narration: only a turn or a minigame step has narration';
      return seen.narration.includes(e.text)
        ? undefined
        : `the narration does not contain ${show(e.text)}; it was ${show(seen.narration)}`;
    case 'refused':
      return refusedFailure(e, seen);
    case 'not_refused': {
      const hit = seen.refusals.find((r) => r.code === e.code);
      return hit === undefined ? undefined : `'${hit.event}' was refused with ${e.code}: ${hit.message}`;
    }
    case 'ran':
      return seen.ran.includes(e.event)
        ? undefined
        : `event '${e.event}' did not run; ran: ${seen.ran.length === 0 ? 'nothing' : seen.ran.join(', ')}`;
    case 'entity':
      return lookup(seen.world.entities, e.key)
        ? undefined
        : `the world ledger has no entity '${e.key}'; it has: ${Object.keys(seen.world.entities).join(', ') || 'none'}`;
    case 'fact':
      return factFailure(e, seen);
    case 'thread':
      return threadFailure(e, seen);
  }
}

type ExpectationOf<K extends Expectation['kind']> = Extract<Expectation, { kind: K }>;

function equalsFailure(
  rules: CompiledRules,
  e: ExpectationOf<'equals'>,
  seen: StepObservation,
): string | undefined {
  const got = read(rules, seen, e.path);
  if (!got.ok) return got.message;
  return sameValue(got.value, e.value)
    ? undefined
    : `${e.path}: expected ${show(e.value)}, got ${show(got.value)}`;
}

function betweenFailure(
  rules: CompiledRules,
  e: ExpectationOf<'between'>,
  seen: StepObservation,
): string | undefined {
  const got = read(rules, seen, e.path);
  if (!got.ok) return got.message;
  const low = bound(rules, seen, e.low);
  const high = bound(rules, seen, e.high);
  if (typeof low === 'string') return low;
  if (typeof high === 'string') return high;
  if (typeof got.value !== 'number')
    return `${e.path}: expected a number in [${low}, ${high}], got ${show(got.value)}`;
  return got.value >= low && got.value <= high
    ? undefined
    : `${e.path}: ${got.value} is outside [${low}, ${high}]`;
}

function checkFailure(
  rules: CompiledRules,
  e: ExpectationOf<'check'>,
  seen: StepObservation,
): string | undefined {
  const result = evaluateExpression(rules, toValue(seen.state), e.expr);
  if (!result.ok) return `check ${show(e.expr)}: ${result.error.message} [${result.error.code}]`;
  return truthy(result.value) ? undefined : `check ${show(e.expr)} is false`;
}

function refusedFailure(e: ExpectationOf<'refused'>, seen: StepObservation): string | undefined {
  if (seen.refusals.some((r) => r.code === e.code)) return undefined;
  if (seen.refusals.length === 0) return `expected a refusal with ${e.code}, but nothing was refused`;
  return `expected a refusal with ${e.code}, got ${seen.refusals.map((r) => `${r.code} (${r.message})`).join(', ')}`;
}

function factFailure(e: ExpectationOf<'fact'>, seen: StepObservation): string | undefined {
  const found = allFacts(seen.world).some(
    (f) =>
      f.invalidated === undefined &&
      f.predicate === e.predicate &&
      (e.subject === undefined || f.subject === e.subject) &&
      (e.object === undefined || f.object === e.object),
  );
  return found
    ? undefined
    : `the world ledger holds no current fact ${show({ predicate: e.predicate, subject: e.subject, object: e.object })}`;
}

function threadFailure(e: ExpectationOf<'thread'>, seen: StepObservation): string | undefined {
  const thread = lookup(seen.world.threads, e.key);
  if (!thread) return `the world ledger has no story thread '${e.key}'`;
  return thread.resolved ? `story thread '${e.key}' is resolved, not open` : undefined;
}

function listed(lines: readonly string[]): string {
  return lines.length === 0 ? ' (none)' : lines.map((l) => `\n      ${l}`).join('');
}

function read(rules: CompiledRules, seen: StepObservation, path: string): Checked<unknown> {
  const result = evaluateExpression(rules, toValue(seen.state), path);
  if (!result.ok) return { ok: false, message: `${path}: ${result.error.message} [${result.error.code}]` };
  return { ok: true, value: toStateValue(result.value as Value) };
}

function bound(rules: CompiledRules, seen: StepObservation, b: Bound): number | string {
  if (typeof b === 'number') return b;
  const got = read(rules, seen, b);
  if (!got.ok) return got.message;
  return typeof got.value === 'number' ? got.value : `bound ${show(b)} is ${show(got.value)}, not a number`;
}

/** Deep equality of plain values; numbers compare by value (an int 3 equals a float 3.0). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
