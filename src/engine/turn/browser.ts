// What the browser client shows of a turn, for the web bundle (a public entry of its own: turn/index.ts
// loads the model layer). Pure: no `node:` module in its imports (test/architecture/boundaries.test.ts).
export { MAX_INPUT_CHARS, MAX_TOOL_ARGS_CHARS } from './limits.ts';
export { describeOutcome, describeRollLabel, type PublicOutcome } from './outcome-text.ts';
export { NO_TURN_REASONS, type NoTurnReason } from './no-turn.ts';
