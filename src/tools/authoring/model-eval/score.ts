// Scores eval runs (pure: runs in, report out). What each number means is in docs/models.md, "Choosing a
// model". The Director's choice for a case is its first rule event that passed the input validator (the
// first `director` rule call of the turn, or `offline` when no model is configured); an expected event matches when the names are equal and every
// expected input has the same value by the engine's input rule (turn/normalise-args.ts, `sameInputValue`).

import { MODEL_ROLES, type ModelRole } from '../../../adapters/llm/index.ts';
import { sameInputValue } from '../../../engine/turn/index.ts';
import type { ToolTraceEntry, TurnRecord } from '../../../engine/turn/index.ts';
import { choiceLabel, type EvalCase } from './cases.ts';
import { type CaseRun, caseWhere } from './run.ts';

export type CaseVerdict = 'correct' | 'wrong-event' | 'wrong-inputs' | 'error';

export interface CaseReport {
  readonly id: string;
  readonly where: string;
  readonly input: string;
  readonly expected: { readonly event: string | null; readonly inputs: Readonly<Record<string, unknown>> };
  /** The Director's choice (null: no event ran); absent when the turn failed. */
  readonly actual?: { readonly event: string | null; readonly inputs: Readonly<Record<string, unknown>> };
  readonly verdict: CaseVerdict;
  readonly correct: boolean;
  /** The expected inputs that differed: name, expected, actual. */
  readonly inputMismatches?: readonly {
    readonly input: string;
    readonly expected: unknown;
    readonly actual: unknown;
  }[];
  readonly reply?: string;
  readonly error?: { readonly kind: string; readonly message: string };
  readonly toolCalls: number;
  readonly refusedCalls: number;
  readonly textCalls: number;
  readonly directorRounds: number;
  readonly contradictions: number;
}

interface Distribution {
  readonly count: number;
  readonly median: number | null;
  readonly p90: number | null;
  readonly max: number | null;
}

export interface RoleLatency {
  readonly calls: number;
  readonly firstPartMs: Distribution;
  readonly totalMs: Distribution;
}

export interface EvalReport {
  readonly director: {
    readonly cases: number;
    readonly correct: number;
    /** correct / cases (0 when there are no cases). */
    readonly accuracy: number;
    /** expected label → actual label → count; labels are event names, `(none)` and `(error)`. */
    readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>>;
    readonly results: readonly CaseReport[];
  };
  readonly toolCalls: {
    /** Director tool calls made, in all cases. */
    readonly calls: number;
    /** Calls refused before running (unknown tool, bad arguments) or whose event failed. */
    readonly invalid: number;
    /** Calls refused before running (the argument validator or an unknown tool). */
    readonly refused: number;
    /** Director rounds that followed a round with a failed call (the model repairing its call). */
    readonly repairs: number;
    /** Director rounds per turn, over turns that reached the Director. */
    readonly roundsPerTurn: number;
    /** Turns where a call was read from the message text instead of a tool call, over finished turns. */
    readonly textInsteadOfToolCallRate: number;
  };
  readonly ledger: {
    /** Turns whose Narrator proposed world changes (applied or refused). */
    readonly proposals: number;
    readonly applied: number;
    readonly refused: number;
    /** Why proposals were refused: issue code → count (over every rejected attempt). */
    readonly reasons: Readonly<Record<string, number>>;
    /** applied / proposals (0 when none). */
    readonly appliedShare: number;
  };
  readonly fidelity: {
    readonly checkedTurns: number;
    readonly contradictions: number;
    readonly contradictionsPerTurn: number;
    readonly repaired: number;
    readonly corrected: number;
  };
  readonly latency: Readonly<Record<ModelRole, RoleLatency>>;
  readonly cost: {
    readonly turns: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens: number;
    readonly modelCallsPerTurn: number;
    readonly byRole: Readonly<
      Record<
        ModelRole,
        {
          readonly calls: number;
          readonly inputTokens: number;
          readonly outputTokens: number;
          readonly cachedInputTokens: number;
        }
      >
    >;
  };
  readonly errors: number;
}

function directorChoice(record: TurnRecord): { event: string | null; inputs: Record<string, unknown> } {
  const call = record.ruleCalls.find((c) => c.source === 'director' || c.source === 'offline');
  return call === undefined ? { event: null, inputs: {} } : { event: call.event, inputs: { ...call.inputs } };
}

function expectedOf(evalCase: EvalCase): CaseReport['expected'] {
  return evalCase.expect.kind === 'event'
    ? { event: evalCase.expect.event, inputs: evalCase.expect.inputs }
    : { event: null, inputs: {} };
}

function directorTools(record: TurnRecord | undefined): readonly ToolTraceEntry[] {
  return record === undefined || record.mode !== 'online' ? [] : record.tools;
}

/** Rounds after a round with a failed call. */
function repairRounds(tools: readonly ToolTraceEntry[]): number {
  const failedRounds = new Set(tools.filter((t) => !t.ok).map((t) => t.round));
  const rounds = new Set(tools.map((t) => t.round));
  let repairs = 0;
  for (const round of rounds) if (failedRounds.has(round - 1)) repairs += 1;
  return repairs;
}

export function scoreCase(run: CaseRun): CaseReport {
  const expected = expectedOf(run.case);
  const tools = directorTools(run.record);
  const common = {
    id: run.case.id,
    where: caseWhere(run.case),
    input: run.case.input,
    expected,
    toolCalls: tools.length,
    refusedCalls: tools.filter((t) => t.refused !== undefined).length,
    textCalls: tools.filter((t) => t.fromText === true).length,
    directorRounds: run.record?.prompts.filter((p) => p.role === 'director').length ?? 0,
    contradictions: run.record?.fidelity?.found.length ?? 0,
  };
  if (run.error !== undefined) return { ...common, verdict: 'error', correct: false, error: run.error };
  const actual = run.record === undefined ? { event: null, inputs: {} } : directorChoice(run.record);
  const reply = run.reply === undefined ? {} : { reply: run.reply };
  if (actual.event !== expected.event)
    return { ...common, ...reply, actual, verdict: 'wrong-event', correct: false };
  const mismatches = Object.keys(expected.inputs)
    .filter((name) => !sameInputValue(expected.inputs[name], actual.inputs[name]))
    .map((name) => ({ input: name, expected: expected.inputs[name], actual: actual.inputs[name] ?? null }));
  if (mismatches.length > 0)
    return {
      ...common,
      ...reply,
      actual,
      verdict: 'wrong-inputs',
      correct: false,
      inputMismatches: mismatches,
    };
  return { ...common, ...reply, actual, verdict: 'correct', correct: true };
}

function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { count: 0, median: null, p90: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { count: sorted.length, median: round(at(0.5)), p90: round(at(0.9)), max: round(sorted.at(-1)!) };
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

/** A turn's record, for the runs that got as far as recording one. */
type RunRecord = NonNullable<CaseRun['record']>;
type CaseResult = ReturnType<typeof scoreCase>;

export function scoreRuns(runs: readonly CaseRun[]): EvalReport {
  const results = runs.map(scoreCase);
  const records = runs.flatMap((r) => (r.record === undefined ? [] : [r.record]));
  const online = records.filter((r) => r.mode === 'online');
  return {
    director: directorScore(runs, results),
    toolCalls: toolCallScore(online),
    ledger: ledgerScore(online),
    fidelity: fidelityScore(online),
    latency: latencyOf(runs),
    cost: costOf(records),
    errors: results.filter((r) => r.verdict === 'error').length,
  };
}

function directorScore(runs: readonly CaseRun[], results: CaseResult[]): EvalReport['director'] {
  const confusion: Record<string, Record<string, number>> = Object.create(null);
  for (const [i, result] of results.entries()) {
    const expectedLabel = choiceLabel(runs[i]!.case.expect);
    const actualLabel =
      result.actual === undefined ? '(error)' : result.actual.event === null ? '(none)' : result.actual.event;
    const row = confusion[expectedLabel] ?? (Object.create(null) as Record<string, number>);
    row[actualLabel] = (row[actualLabel] ?? 0) + 1;
    confusion[expectedLabel] = row;
  }
  const correct = results.filter((r) => r.correct).length;
  return {
    cases: results.length,
    correct,
    accuracy: ratio(correct, results.length),
    confusion,
    results,
  };
}

function toolCallScore(online: readonly RunRecord[]): EvalReport['toolCalls'] {
  const allTools = online.flatMap((r) => r.tools);
  const directorTurns = online.filter((r) => r.prompts.some((p) => p.role === 'director'));
  return {
    calls: allTools.length,
    invalid: allTools.filter((t) => !t.ok).length,
    refused: allTools.filter((t) => t.refused !== undefined).length,
    repairs: online.reduce((n, r) => n + repairRounds(r.tools), 0),
    roundsPerTurn: ratio(
      directorTurns.reduce((n, r) => n + r.prompts.filter((p) => p.role === 'director').length, 0),
      directorTurns.length,
    ),
    textInsteadOfToolCallRate: ratio(
      online.filter((r) => r.tools.some((t) => t.fromText === true)).length,
      online.length,
    ),
  };
}

function ledgerScore(online: readonly RunRecord[]): EvalReport['ledger'] {
  const proposals = online.filter((r) => r.ledger.status === 'applied' || r.ledger.status === 'unledgered');
  const reasons: Record<string, number> = Object.create(null);
  for (const record of online) {
    for (const attempt of record.ledger.attempts) {
      if (attempt.ok) continue;
      for (const issue of attempt.errors) reasons[issue.code] = (reasons[issue.code] ?? 0) + 1;
    }
  }
  return {
    proposals: proposals.length,
    applied: online.filter((r) => r.ledger.status === 'applied').length,
    refused: online.filter((r) => r.ledger.status === 'unledgered').length,
    reasons,
    appliedShare: ratio(online.filter((r) => r.ledger.status === 'applied').length, proposals.length),
  };
}

function fidelityScore(online: readonly RunRecord[]): EvalReport['fidelity'] {
  const checked = online.filter((r) => r.fidelity !== undefined);
  const contradictions = checked.reduce((n, r) => n + (r.fidelity?.found.length ?? 0), 0);
  return {
    checkedTurns: checked.length,
    contradictions,
    contradictionsPerTurn: ratio(contradictions, checked.length),
    repaired: checked.filter((r) => r.fidelity?.outcome === 'repaired').length,
    corrected: checked.filter((r) => r.fidelity?.outcome === 'corrected').length,
  };
}

function latencyOf(runs: readonly CaseRun[]): EvalReport['latency'] {
  const calls = runs.flatMap((r) => r.calls);
  return Object.fromEntries(
    MODEL_ROLES.map((role) => {
      const mine = calls.filter((c) => c.role === role);
      return [
        role,
        {
          calls: mine.length,
          firstPartMs: distribution(
            mine.flatMap((c) => (c.firstPartMs === undefined ? [] : [c.firstPartMs])),
          ),
          totalMs: distribution(mine.map((c) => c.totalMs)),
        },
      ];
    }),
  ) as EvalReport['latency'];
}

function costOf(records: readonly RunRecord[]): EvalReport['cost'] {
  const byRole = Object.fromEntries(
    MODEL_ROLES.map((role) => [
      role,
      records.reduce(
        (sum, r) => ({
          calls: sum.calls + r.usage[role].calls,
          inputTokens: sum.inputTokens + r.usage[role].inputTokens,
          outputTokens: sum.outputTokens + r.usage[role].outputTokens,
          cachedInputTokens: sum.cachedInputTokens + r.usage[role].cachedInputTokens,
        }),
        { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      ),
    ]),
  ) as EvalReport['cost']['byRole'];
  const total = (key: 'calls' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens') =>
    MODEL_ROLES.reduce((n, role) => n + byRole[role][key], 0);
  return {
    turns: records.length,
    inputTokens: total('inputTokens'),
    outputTokens: total('outputTokens'),
    cachedInputTokens: total('cachedInputTokens'),
    modelCallsPerTurn: ratio(total('calls'), records.length),
    byRole,
  };
}
