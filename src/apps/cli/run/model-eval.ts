// The work of `mnesos model-eval <cartridge> [--suite f.yaml] [--compare MODEL] [--seed N] [--json]` (see
// ../commands/model-eval.ts). Exit codes: 0 the run finished (whatever the score), 1 a bad cartridge or
// suite, 2 usage, 3 every case failed on the model (the provider is down or misconfigured). `--json` prints
// one document for every outcome, failures included.

import {
  type CaseReport,
  type EvalReport,
  loadEvalSuite,
  runEvalCases,
  scoreRuns,
} from '../../../tools/authoring/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { formatPlace } from '../../../core/diagnostics.ts';
import type { Env } from '../../../adapters/llm/index.ts';
import { loadCartridgeArg, resolveCartridgePath } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { toJsonText } from '../json-output.ts';
import { chooseModels, type ModelChoice } from '../play/models.ts';
import { UserError, userFacing } from '../user-error.ts';

export interface ModelEvalFlags {
  suite?: string;
  compare?: string;
  seed: number;
  json?: boolean;
}

export async function runModelEval(cartridgeArg: string, flags: ModelEvalFlags): Promise<void> {
  try {
    await evaluate(cartridgeArg, flags);
  } catch (error) {
    const user = userFacing(error);
    if (!flags.json || user === undefined) throw error;
    process.stdout.write(`${JSON.stringify({ ok: false, error: { message: user.message } }, null, 2)}\n`);
    process.exitCode = user.exitCode;
  }
}

/** The environment with `model` for every role (what `--compare` runs). */
function withModel(env: Env, model: string): Env {
  return {
    ...env,
    MNESOS_MODEL: model,
    MNESOS_DIRECTOR_MODEL: model,
    MNESOS_NARRATOR_MODEL: model,
    MNESOS_NPC_MODEL: model,
  };
}

interface ModelRun {
  readonly model: string;
  readonly report: EvalReport;
}

type Suite = ReturnType<typeof loadEvalSuite>;
type LoadedSuite = Extract<Suite, { ok: true }>;

/** A suite that does not load: every problem at its place, as JSON or one a line; exit 1. */
function reportSuiteErrors(suite: Extract<Suite, { ok: false }>, json: boolean | undefined): void {
  if (json) {
    const errors = suite.errors.map((d) => ({ ...d.place, code: d.code, message: d.message }));
    process.stdout.write(`${JSON.stringify({ ok: false, errors }, null, 2)}\n`);
  } else {
    for (const d of suite.errors) process.stderr.write(`${formatPlace(d.place)}: ${d.message}\n`);
  }
  process.exitCode = EXIT.user;
}

/** The suite's cases played with one model choice, scored; progress on a terminal's stderr. */
async function runSuite(
  cartridge: Cartridge,
  suite: LoadedSuite,
  flags: ModelEvalFlags,
  choice: ModelChoice,
  label: string,
): Promise<ModelRun> {
  const onCase =
    flags.json || !process.stderr.isTTY
      ? undefined
      : (_run: unknown, index: number) => {
          process.stderr.write(`\r${label}: case ${index + 1}/${suite.cases.length}`);
          if (index + 1 === suite.cases.length) process.stderr.write('\n');
        };
  const runs = await runEvalCases({
    cartridge,
    cases: suite.cases,
    models: choice.models,
    seed: flags.seed,
    ...(onCase === undefined ? {} : { onCase }),
  });
  return { model: choice.description, report: scoreRuns(runs) };
}

/** Whether the provider never answered (exit 3): a model that plays badly is a result, not a failure. */
function providerDown(run: ModelRun): boolean {
  return (
    run.report.director.cases > 0 &&
    run.report.director.results.every((c) => c.verdict === 'error' && c.error?.kind === 'model')
  );
}

/** The report (and the comparison, with --compare), as one JSON document or as text. */
function printRuns(
  cartridge: Cartridge,
  suite: LoadedSuite,
  flags: ModelEvalFlags,
  runs: { first: ModelRun; second: ModelRun | undefined; down: boolean },
): void {
  const { first, second, down } = runs;
  if (flags.json) {
    const out = {
      ok: !down,
      cartridge: cartridge.name,
      seed: flags.seed,
      suite: { source: suite.source, cases: suite.cases.length },
      model: first.model,
      ...first.report,
      ...(second === undefined ? {} : { compare: { model: second.model, ...second.report } }),
    };
    process.stdout.write(`${toJsonText(out, 2)}\n`);
    return;
  }
  process.stdout.write(renderReport(first));
  if (second !== undefined) {
    process.stdout.write(`\n${renderReport(second)}`);
    process.stdout.write(`\n${renderComparison(first, second)}`);
  }
}

async function evaluate(cartridgeArg: string, flags: ModelEvalFlags): Promise<void> {
  const dir = resolveCartridgePath(cartridgeArg);
  const cartridge = await loadCartridgeArg(dir);
  const suite = loadEvalSuite(dir, cartridge, flags.suite);
  if (!suite.ok) return reportSuiteErrors(suite, flags.json);
  if (suite.cases.length === 0) throw new UserError('the suite has no cases');
  const primary = await chooseModels({ env: process.env });
  if (flags.compare !== undefined && primary.kind === 'offline') {
    throw new UserError(
      '--compare needs a configured model provider (MNESOS_LLM_BASE_URL or MNESOS_PROVIDER); the engine is offline',
      EXIT.usage,
    );
  }
  const first = await runSuite(cartridge, suite, flags, primary, 'model');
  const second =
    flags.compare === undefined
      ? undefined
      : await runSuite(
          cartridge,
          suite,
          flags,
          await chooseModels({ env: withModel(process.env, flags.compare) }),
          flags.compare,
        );
  const down = providerDown(first) || (second !== undefined && providerDown(second));
  printRuns(cartridge, suite, flags, { first, second, down });
  process.exitCode = down ? EXIT.provider : EXIT.ok;
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);

function caseLine(c: CaseReport): string {
  const expected = c.expected.event ?? '(none)';
  const actual = c.actual === undefined ? '(error)' : (c.actual.event ?? '(none)');
  const mark = c.correct ? 'ok  ' : 'FAIL';
  const detail =
    c.verdict === 'error'
      ? `  ${c.error?.message ?? ''}`
      : c.verdict === 'wrong-inputs'
        ? `  inputs: ${(c.inputMismatches ?? []).map((m) => `${m.input} ${JSON.stringify(m.actual)} (expected ${JSON.stringify(m.expected)})`).join(', ')}`
        : '';
  const line = c.input.length > 50 ? `${c.input.slice(0, 49)}…` : c.input;
  return `${mark} ${c.where.padEnd(12)} ${JSON.stringify(line).padEnd(54)} expected ${expected}, got ${actual}${detail}\n`;
}

export function renderReport(run: ModelRun): string {
  const r = run.report;
  const lines: string[] = [];
  lines.push(`model: ${run.model}`);
  lines.push(
    `Director accuracy: ${r.director.correct}/${r.director.cases} (${percent(r.director.accuracy)})`,
  );
  const wrong = r.director.results.filter((c) => !c.correct);
  let text = `${lines.join('\n')}\n`;
  for (const c of wrong) text += caseLine(c);
  const t = r.toolCalls;
  text += `tool calls: ${t.calls} (invalid ${t.invalid}, refused ${t.refused}), repairs ${t.repairs}, ${t.roundsPerTurn} Director rounds per turn, calls written as text in ${percent(t.textInsteadOfToolCallRate)} of turns\n`;
  const l = r.ledger;
  const reasons = Object.entries(l.reasons)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  text += `ledger proposals: ${l.proposals} (applied ${l.applied}, refused ${l.refused}${reasons === '' ? '' : `: ${reasons}`})\n`;
  const f = r.fidelity;
  text += `narration fidelity: ${f.contradictions} contradiction(s) in ${f.checkedTurns} narrations (${f.contradictionsPerTurn} per turn; repaired ${f.repaired}, corrected by the engine ${f.corrected})\n`;
  for (const role of ['director', 'narrator', 'npc'] as const) {
    const lat = r.latency[role];
    if (lat.calls === 0) continue;
    text += `${role}: ${lat.calls} calls, first token median ${ms(lat.firstPartMs.median)} (p90 ${ms(lat.firstPartMs.p90)}), total median ${ms(lat.totalMs.median)} (p90 ${ms(lat.totalMs.p90)})\n`;
  }
  const c = r.cost;
  text += `tokens: ${c.inputTokens} prompt (${c.cachedInputTokens} cached), ${c.outputTokens} completion; ${c.modelCallsPerTurn} model calls per turn over ${c.turns} turns\n`;
  if (r.errors > 0) text += `${r.errors} case(s) failed to run\n`;
  return text;
}

function renderComparison(a: ModelRun, b: ModelRun): string {
  const diff = a.report.director.results.filter(
    (x, i) => x.correct !== b.report.director.results[i]?.correct,
  );
  let text = `comparison: ${a.report.director.correct}/${a.report.director.cases} against ${b.report.director.correct}/${b.report.director.cases}; ${diff.length} case(s) differ\n`;
  for (const x of diff) {
    const y = b.report.director.results.find((r) => r.id === x.id);
    const got = (r: CaseReport | undefined) =>
      r?.actual === undefined ? '(error)' : (r.actual.event ?? '(none)');
    text += `  ${x.where} ${JSON.stringify(x.input)}: right with the ${x.correct ? 'first' : 'second'} model (first ${got(x)}, second ${got(y)})\n`;
  }
  return text;
}
