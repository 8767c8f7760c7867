// The YARE rules language: compile a cartridge's `yare.yaml`, run its events deterministically.
export { compileRules, type CompileRulesOptions, type RulesSource } from './compile.ts';
export { DiceRoller, type RngState, type RollRecord } from './dice.ts';
export { YareError, type YareErrorCode } from './errors.ts';
export {
  CLOCK_CHECK_INTERVAL,
  EventRunner,
  type RunBudget,
  type RunError,
  type RunEventOptions,
  type RunResult,
  runEvent,
} from './interpreter.ts';
export * as limits from './limits.ts';
export type { CompiledRules, EventDef, FieldSchema, DomainSchema, SchemaNode, Step } from './program.ts';
export { GAME_TIME_KEY, npcVisibleState, PENDING_KEY, publicState, schemaAt } from './schema.ts';
export { type EventTool, eventTools, isPublicEvent, publicEvents } from './tools.ts';
export { type Dict, Duration, PyFloat, type StateValue, toValue, type Value } from './values.ts';
