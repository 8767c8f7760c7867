// `mnesos model-eval`: labelled cases (a suite file, or the cartridge's own suite), run through the turn
// engine with the configured model, scored. The shell here reads the files; the rest is data in, data out.

import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { parseScenarioFile } from '../scenario/parse.ts';
import type { ScenarioFile } from '../scenario/model.ts';
import { MAX_SCENARIO_FILE_BYTES } from '../scenario/limits.ts';
import { scenarioFiles } from '../suite.ts';
import type { EvalCase } from './cases.ts';
import { cartridgeSuite } from './generated.ts';
import { MAX_SUITE_FILE_BYTES } from './limits.ts';
import { parseSuiteFile } from './suite-file.ts';

export { type CaseRun, type EvalRunOptions, runEvalCases } from './run.ts';
export { type CaseReport, type EvalReport, scoreRuns } from './score.ts';
export { generalSuite } from './general-suite.ts';
export type { EvalCase, ExpectedChoice } from './cases.ts';
export { MAX_EVAL_CASES } from './limits.ts';

export type LoadedSuite =
  | { readonly ok: true; readonly source: 'file' | 'cartridge'; readonly cases: readonly EvalCase[] }
  | { readonly ok: false; readonly errors: readonly Diagnostic[] };

/** The cases of `suitePath`, or of the cartridge's own suite when none is given. */
export function loadEvalSuite(cartridgeDir: string, cartridge: Cartridge, suitePath?: string): LoadedSuite {
  const shown = (path: string) => relative(process.cwd(), path) || path;
  if (suitePath !== undefined) {
    const place = { file: shown(suitePath), line: 1, col: 1 };
    let size: number;
    try {
      size = statSync(suitePath).size;
    } catch {
      return {
        ok: false,
        errors: [
          { severity: 'error', code: 'EVAL_BAD_SUITE', message: 'the suite file cannot be read', place },
        ],
      };
    }
    if (size > MAX_SUITE_FILE_BYTES) {
      const message = `the suite file is ${size} bytes; the limit is ${MAX_SUITE_FILE_BYTES} (MAX_SUITE_FILE_BYTES)`;
      return { ok: false, errors: [{ severity: 'error', code: 'EVAL_BAD_SUITE', message, place }] };
    }
    const parsed = parseSuiteFile(readFileSync(suitePath, 'utf8'), shown(suitePath), cartridge.rules);
    return parsed.ok ? { ok: true, source: 'file', cases: parsed.cases } : parsed;
  }
  // Scenario files that do not parse are `mnesos test`'s to report; here they only add no cases.
  const scenarios: ScenarioFile[] = [];
  for (const path of scenarioFiles(cartridgeDir)) {
    if (statSync(path).size > MAX_SCENARIO_FILE_BYTES) continue;
    const parsed = parseScenarioFile(readFileSync(path, 'utf8'), shown(path));
    if (parsed.ok) scenarios.push(parsed.file);
  }
  return { ok: true, source: 'cartridge', cases: cartridgeSuite(cartridge, scenarios) };
}
