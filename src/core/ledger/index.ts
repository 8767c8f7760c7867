// The world ledger: typed, allowlisted, absolute world events; validation, application, history, queries.
export { applyBatch, applyEvent, engineFactId, WorldDraft } from './apply.ts';
export { type LedgerError, type LedgerErrorCode, LedgerApplyError } from './errors.ts';
export type * from './events.ts';
export { toWire } from './events.ts';
export { foldEntries, foldLog, LedgerIndex, type LogEntry, type ReplayResult, replayLog } from './history.ts';
export { guardJsonValue, parseToolArguments } from './json.ts';
export { factsKnownBy, factsSplitFor, factsUnknownTo, type KnownFactsOptions } from './knowledge.ts';
export * from './limits.ts';
export {
  type AttributeDecl,
  type AttributeType,
  DEFAULT_POLICY,
  type LedgerPolicy,
  type LedgerSection,
  policyFromStatePaths,
  rulesOwnedNames,
  type SectionIssue,
  type SectionResult,
  schemaHints,
  type ThreadRequirement,
} from './policy.ts';
export {
  activeRelationships,
  canonicalJson,
  currentFacts,
  entityHistory,
  factsValidAt,
  factValidAt,
  type HistoryItem,
  keysNamedBy,
  relationshipTimeline,
  type ThreadStatus,
  threads,
} from './query.ts';
export {
  type EventSpec,
  type FieldSpec,
  type FieldType,
  isLedgerEventType,
  LEDGER_EVENT_TYPES,
  LEDGER_SPECS,
  type LedgerEventType,
  recordWorldChangesJsonSchema,
  restrictSpecs,
  type SpecTable,
  VOCABULARY_EXAMPLE,
  vocabularyExample,
  vocabularyForPrompt,
} from './spec.ts';
export { STARTING_WORLD_TURN, startingBatch, startingWorld } from './starting-world.ts';
export {
  type SummaryCounts,
  type SummaryOptions,
  MAX_SUMMARY_FACTS_SCANNED,
  type SummaryPiece,
  summarizeWorld,
  type WorldSummary,
} from './summary.ts';
export {
  checkRecordWorldChanges,
  isIsoDateTime,
  MAX_TIME_ADVANCE_SECONDS,
  parseDuration,
  RECORD_WORLD_CHANGES_TOOL,
  type TimeChange,
  type ToolInputResult,
} from './tool.ts';
export { checkEndOfNarration, END_OF_NARRATION_TOOL } from './seed-tool.ts';
export type { BatchSource } from './event-checks.ts';
export { parseEvent } from './event-shape.ts';
export {
  type ProposeResult,
  proposeBatch,
  type ValidateOptions,
  type ValidateResult,
  validateBatch,
  validateLedgerSection,
} from './validate.ts';
export * from './world.ts';
export { formatWorld, WORLD_TABLES, type WorldTable, type WorldTextOptions } from './world-text.ts';
export { worldFromJson } from './world-json.ts';
export { worldPage } from './world-page.ts';
