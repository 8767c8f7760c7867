// The explorer (docs/explore.md): random playthroughs of a cartridge, violations shrunk, coverage.
// Imported by `mnesos explore` (through tools/authoring's index) and the builder's Explore route (builder/explore-draft.ts).
export { explore, ExploreError, type ExploreOptions, resolveExploreOptions, startState } from './explore.ts';
export * as exploreLimits from './limits.ts';
export { EXPLORE_FAILURE_MARK, failureFileName, violationScenario } from './scenario-out.ts';
export type { Coverage, ExploreReport, ExploreStep, Located, Violation, ViolationKind } from './types.ts';
export { renderExploreReport } from './report-text.ts';
