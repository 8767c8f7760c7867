// Public entry of lore retrieval (pure: no I/O; embeddings come in as a function).

export { chunkLore, type LoreChunk } from './chunk.ts';
export {
  type AdmittedLookup,
  fitWithReceipts,
  type LoreAdmission,
  type LoreReceipt,
  type LoreReceiptStatus,
  lookupAdmitted,
} from './admitted.ts';
export {
  chunkConditionalLore,
  chunkConditionalLoreSteps,
  type ConditionalLore,
  type LoreConditionSource,
  splitLoreConditions,
} from './conditions.ts';
export { type EmbeddedLoreIndex, type LoreEmbedFunction, withEmbeddings } from './embedded.ts';
export { LoreError, type LoreErrorCode } from './errors.ts';
export * as loreLimits from './limits.ts';
export { buildLoreIndex, buildLoreIndexFromChunks, type LoreIndex, loreIndexSteps } from './lore-index.ts';
export type { LoreLookupOptions } from './options.ts';
export { LORE_SEPARATOR, type LoreLookupResult } from './select.ts';
export {
  LORE_LOOKUP_DESCRIPTION,
  LORE_LOOKUP_INPUT_SCHEMA,
  LORE_LOOKUP_TOOL_NAME,
  type LoreLookupArgs,
  parseLoreLookupArgs,
} from './tool.ts';
export {
  activateWorldInfo,
  activationSteps,
  type ActivationInput,
  type ActivationResult,
  type EntryDecision,
  type TimedEffect,
  type WorldInfoTrigger,
} from './world-info-activation.ts';
export {
  parseCharacterBook,
  parseWorldInfoFile,
  toCharacterBook,
  toWorldInfoFile,
} from './world-info-format.ts';
export type { WorldInfoBook, WorldInfoEntry } from './world-info-types.ts';
export { tokenize } from './bm25.ts';
export { lineColAt, locateJsonPath, parseJsonText } from './json-place.ts';
export { MAX_WI_ENTRIES, MAX_WI_SCAN_DEPTH, MAX_WORLD_INFO_BYTES } from './world-info-limits.ts';
export { readWorldInfoState, WORLD_INFO_STATE_KEY, worldInfoStateValue } from './world-info-state.ts';
export { WORLD_INFO_ROLES } from './world-info-types.ts';
export { MAX_LORE_K, MAX_LORE_QUERIES, MAX_LORE_QUERY_CHARS, MAX_LORE_TOKEN_BUDGET } from './limits.ts';
