// A turn as explicit stages: prepare (claim, read, resolve) → run (the engine, streamed) → commit (one
// append); TurnJob chains run and commit for the caller that prepared it. See docs/turn.md, Sessions.
export { claimIdempotencyKey, type KeyClaim, TurnClaim } from './claim.ts';
export { type CommitDeps, type CommitResult, commitTurn } from './commit.ts';
export { outcomeOf, TurnJob, type TurnJobDeps } from './job.ts';
export { type PrepareDeps, type PrepareResult, prepareTurn } from './prepare.ts';
export { type RunResult, runStage } from './run.ts';
export type * from './types.ts';
