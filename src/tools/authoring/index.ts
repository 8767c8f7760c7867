// Tools built on the engine for cartridge authors: scenario tests and their suite, editor schemas, `new`
// (scaffold) and `pack`. The CLI and the server import them from here. Two parts have entries of their own
// (test/architecture/policy.ts): lint/index.ts, so `validate --strict` loads no scenario runner (models),
// and lsp/index.ts, the language server and completion (vscode-languageserver).
export { scaffoldCartridge, TEMPLATES_DIR, templateNames } from './scaffold.ts';
export { packCartridge, writeZip } from './pack.ts';
export { isSchemaKind, jsonSchemaOf, SCHEMA_KINDS } from './schema/index.ts';
export { runSuite, scenarioFiles, type SuiteCase } from './suite.ts';
export {
  type CaseReport,
  type EvalCase,
  type EvalReport,
  loadEvalSuite,
  runEvalCases,
  scoreRuns,
} from './model-eval/index.ts';
export {
  type Coverage,
  explore,
  ExploreError,
  type ExploreOptions,
  type ExploreReport,
  type ExploreStep,
  EXPLORE_FAILURE_MARK,
  exploreLimits,
  failureFileName,
  type Located,
  renderExploreReport,
  resolveExploreOptions,
  startState,
  type Violation,
  type ViolationKind,
  violationScenario,
} from './explore/index.ts';
export {
  explainLore,
  type LoreQuery,
  type LoreReport,
  loreReportJson,
  loreReportLines,
  MAX_LORE_QUERY_CHARS,
} from './lore-report.ts';
