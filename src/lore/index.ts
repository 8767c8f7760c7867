// Public entry of lore retrieval (pure: no I/O; embeddings come in as a function).

export { chunkLore, type LoreChunk } from './chunk.ts';
export { type EmbeddedLoreIndex, type LoreEmbedFunction, withEmbeddings } from './embedded.ts';
export { LoreError, type LoreErrorCode } from './errors.ts';
export * as loreLimits from './limits.ts';
export { buildLoreIndex, buildLoreIndexFromChunks, type LoreIndex } from './lore-index.ts';
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
  type ActivationInput,
  type ActivationResult,
  activateWorldInfo,
  type EntryDecision,
  type TimedEffect,
} from './world-info.ts';
export {
  parseCharacterBook,
  parseWorldInfoFile,
  toCharacterBook,
  toWorldInfoFile,
} from './world-info-format.ts';
export type { WorldInfoBook, WorldInfoEntry } from './world-info-types.ts';
