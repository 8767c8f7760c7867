// The turn engine: one function runs one turn (see run-turn.ts and docs/turn.md).
export { runTurn, runTurnToRecord } from './run-turn.ts';
export { replayTurnRules, type ReplayOptions, type ReplayResult } from './record.ts';
export { initialWorld, LEDGER_MODES, STARTING_WORLD_TURN } from './ledger/world.ts';
export { openingMessages } from './narrator.ts';
export { TurnError, isTurnError } from './errors.ts';
export { DEFAULT_TURN_LIMITS, MAX_INPUT_CHARS, resolveTurnLimits, type TurnLimits } from './limits.ts';
export * as turnLimits from './limits.ts';
export { parseDuration, clockMode, type ClockMode } from './game-time.ts';
export { assemblePrompt, type AssembledPrompt, type PromptSection, type SectionReport } from './prompts.ts';
export { checkArgs } from './args.ts';
export { inputKey, normaliseArgs, normaliseInputText, sameInputValue } from './normalise-args.ts';
export { ADVANCE_GAME_TIME, directorTools, ENGINE_TOOL_NAMES } from './tools.ts';
export {
  chooseOffline,
  coerceTypedWord,
  jsonOrText,
  matchEvent,
  offlineCommandSyntax,
} from './offline/choose.ts';
export { freeActionHelp } from './offline/free.ts';
export { NO_TURN_REASONS, type NoTurnReason } from './no-turn.ts';
export { narrateOffline, stripNote } from './offline/narration.ts';
export { selectNpcs } from './npc.ts';
export { loreOf, loreVerdicts, lookupInPlay, sectionsInPlay } from './lore.ts';
export { activateForTurn } from './world-info-turn.ts';
export type { ItemReceipt, ItemStatus, SectionItem } from './prompts.ts';
export type {
  Contradiction,
  DirectorStop,
  FidelityRecord,
  GameState,
  InteractionInput,
  InvariantBreach,
  LedgerAttempt,
  LedgerIssue,
  LedgerMode,
  LedgerRecord,
  LedgerStatus,
  PromptRecord,
  RuleCall,
  StoryMessage,
  TimeRecord,
  ToolTraceEntry,
  TurnCartridge,
  TurnErrorKind,
  TurnEvent,
  TurnInputRecord,
  TurnLedgerErrorCode,
  TurnOptions,
  TurnActor,
  TurnPersona,
  TurnPhase,
  TurnTable,
  TurnRecord,
  WireLedgerEvent,
} from './types.ts';
export { hasPendingInteraction, PENDING_KEY } from './interaction.ts';
export { describeOutcome, describeRollLabel } from './outcome-text.ts';
export { publicOutcome } from './public-outcome.ts';
export { ACTOR_INPUT, callActor, characterCopies, Party, stateFor } from './party.ts';
