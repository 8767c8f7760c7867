// The YARE rules language: compile a cartridge's `yare.yaml`, run its events deterministically.
export { compileRules, type CompileRulesOptions, type RulesSource } from './compile.ts';
export {
  type CheckOp,
  DiceRoller,
  type RngState,
  type RollLabel,
  type RollRecord,
  unlabelled,
} from './dice.ts';
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
export type { PrivateNote } from './run/run-result.ts';
export { pathIsPrivate, readsPrivate, rollDiceArePrivate } from './privacy.ts';
export * as limits from './limits.ts';
export { type CoverageSink, newCoverageSink, type UnrenderedNote, withCoverage } from './coverage.ts';
export { type CheckInvariantsOptions, checkInvariants, type InvariantFailure } from './invariants.ts';
export type {
  BranchArm,
  CompiledRules,
  DomainSchema,
  EventDef,
  FieldSchema,
  FieldType,
  InputSpec,
  ValuesFrom,
  InvariantDef,
  MacroFunction,
  NotePart,
  Operand,
  SchemaNode,
  Step,
  TableKey,
  Target,
} from './program.ts';
export {
  declaredStatePaths,
  ENGINE_FIELDS,
  GAME_TIME_KEY,
  npcVisibleState,
  PENDING_KEY,
  perCharacterDomain,
  PLAYERS_KEY,
  publicState,
  schemaAt,
} from './schema.ts';
export { type EventTool, eventTool, eventTools, isPublicEvent, publicEvents } from './tools.ts';
export { checkEventInputs, enumValue, type EventInputsCheck } from './run/inputs.ts';
export {
  type Dict,
  Duration,
  isDict,
  newDict,
  PyFloat,
  type StateValue,
  toValue,
  type Value,
} from './values.ts';
export {
  BUILTINS,
  type Closure,
  compileClosure,
  type EvalContext,
  type Expr,
  forEachChild,
  type HostFunction,
  walkExpr,
} from './expr/index.ts';
export { type CheckFinding, type CheckScope, checkExpr } from './check.ts';
export { evaluateExpression, type EvaluateResult } from './evaluate-text.ts';
export { formatValue, toStateValue, truthy } from './python.ts';
export { getNode, mapPairs, type NodeSource, placeOfNode, plainOf } from './yaml-nodes.ts';
export { diffStates, type StateChange } from './diff.ts';
export { overlayState, startingState } from './starting-state.ts';
export {
  afterEventHooks,
  HOOK_EVENT_INPUT,
  type HookRun,
  hookInputs,
  isPlayerEvent,
  type PlayerEventRun,
  runPlayerEvent,
} from './player-event.ts';
export { didYouMean } from './diagnostics-sink.ts';
export { MAX_STEPS_PER_RUN } from './limits.ts';
export { parseExpression } from './expr/parser.ts';
export {
  CONDITION_SHAPE,
  DOMAIN_SHAPE,
  ENGINE_SETTINGS_SHAPE,
  EVENT_SHAPE,
  FIELD_SHAPE,
  IDENTIFIER,
  IDENTIFIER_PATTERN,
  INPUT_SHAPE,
  NPC_TEMPLATE_SHAPE,
  STEP_SHAPES,
  TOP_LEVEL_SHAPE,
  YARE_GRAMMAR,
  type YareValue,
} from './grammar.ts';
export {
  any,
  bool,
  type FileShape,
  int,
  keysOf,
  list,
  num,
  type ObjectShape,
  obj,
  type OneRequired,
  oneOf,
  type PlainData,
  ref,
  resolveShape,
  type Shape,
  type ShapeValue,
  str,
  type TaggedShape,
  tagged,
  union,
} from './grammar-shape.ts';
