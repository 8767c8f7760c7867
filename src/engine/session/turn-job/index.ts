// A turn as explicit stages: admission (the request's rules) → prepare (claim, read, resolve) → run (the
// engine, streamed) → commit (one append); TurnJob chains run and commit for the caller that prepared it,
// and driveTurn pumps it. See docs/turn.md, Sessions.
export {
  admission,
  DEFAULT_ADMISSION,
  IDEMPOTENCY_KEY_MESSAGE,
  interactionSchema,
  resolveAdmission,
  storedIdempotencyKey,
  turnOf,
} from './admission.ts';
export { claimIdempotencyKey, type KeyClaim, TurnClaim } from './claim.ts';
export { type CommitDeps, type CommitResult, commitTurn } from './commit.ts';
export { type DrivenTurn, driveTurn, pump, type TurnSink } from './drive.ts';
export { outcomeOf, TurnJob, type TurnJobDeps } from './job.ts';
export { type PrepareDeps, type PrepareResult, prepareTurn } from './prepare.ts';
export { type RunResult, runEngine, runStage } from './run.ts';
export { playStatelessTurn, type StatelessTurn } from './stateless.ts';
export type * from './types.ts';
