// Every bound of the world ledger, in one place. Each has a test at the limit and just past it
// (test/core/ledger/limits.test.ts). A value past a limit is rejected, never truncated.

/** Events in one batch (one turn's `record_world_changes`). A larger batch is rejected whole. */
export const MAX_BATCH_EVENTS = 32;

/**
 * Entity, item, location, thread and fact keys: a lower-case slug starting with a letter. Starting
 * with a letter also keeps JavaScript's integer-like-key reordering out of every table.
 */
export const KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** Characters in a key; KEY_PATTERN spells the same bound. */
export const MAX_KEY_LENGTH = 64;
/**
 * Keys the slug pattern would allow but that name plain-object members or JSON literals; refused so no
 * table, log viewer or prompt can confuse them with something else.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'constructor',
  'prototype',
  'null',
  'undefined',
  'true',
  'false',
  'nan',
  'infinity',
]);
/**
 * Fact ids of this shape are assigned by the engine (`f_<turn>_<index>`) to facts proposed without an
 * id, so neither a model-chosen fact id nor an entity key may take one.
 */
export const ENGINE_FACT_ID_PATTERN = /^f_[0-9]+_[0-9]+$/;

/** Characters (UTF-16 code units) in a one-line text field: names, titles, statuses, predicates. */
export const MAX_LINE_TEXT_LENGTH = 120;
/** Characters in a prose text field: description, summary, reason, resolution. Newlines allowed. */
export const MAX_PROSE_TEXT_LENGTH = 2_000;
/** Characters in a string `value` of `set_entity_attribute` / `add_fact`. */
export const MAX_VALUE_TEXT_LENGTH = 200;
/** Items in a `labels` field (aliases, conditions, present). */
export const MAX_LABELS = 16;
/** Characters in one label. */
export const MAX_LABEL_LENGTH = 40;

/** Nesting depth of a tool-call argument value (`{events:[{aliases:[…]}]}` is 4). Checked iteratively. */
export const MAX_JSON_DEPTH = 8;
/** Objects, arrays and scalars in one tool-call argument value. */
export const MAX_JSON_NODES = 4_096;
/** UTF-8 bytes of raw tool-call argument text, checked before parsing. */
export const MAX_JSON_BYTES = 64 * 1024;

/** Errors reported for one batch: enough to repair it, bounded so a junk batch cannot flood the prompt. */
export const MAX_REPORTED_ERRORS = 64;
/** Characters of model text quoted back inside an error message. */
export const MAX_QUOTED_TEXT = 40;

/** Characters of a `time.advance` / `time.set` string in the tool input. */
export const MAX_TIME_TEXT_LENGTH = 40;

/** Default token budget of the world summary in a prompt. */
export const DEFAULT_SUMMARY_TOKEN_BUDGET = 800;

/** Turns between two snapshots kept by a LedgerIndex: stateAt folds at most this many batches. */
export const DEFAULT_SNAPSHOT_INTERVAL = 16;

/** Declared narrator-owned attributes in a cartridge's `ledger:` section. */
export const MAX_DECLARED_ATTRIBUTES = 64;
/** Starting-world events a cartridge may declare in `ledger.world` (not a model batch: a larger bound). */
export const MAX_WORLD_EVENTS = 2_000;
/** Conditions on one cartridge-declared thread. */
export const MAX_THREAD_REQUIREMENTS = 8;

/** The limits a caller may tighten or widen for one validation. */
export interface LedgerLimits {
  readonly maxBatchEvents: number;
  readonly maxJsonDepth: number;
  readonly maxJsonNodes: number;
  readonly maxJsonBytes: number;
}

export const DEFAULT_LIMITS: LedgerLimits = Object.freeze({
  maxBatchEvents: MAX_BATCH_EVENTS,
  maxJsonDepth: MAX_JSON_DEPTH,
  maxJsonNodes: MAX_JSON_NODES,
  maxJsonBytes: MAX_JSON_BYTES,
});
