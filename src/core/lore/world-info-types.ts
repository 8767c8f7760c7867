// World Info (SillyTavern lorebooks) as the engine keeps it: one normalised entry type, whatever the file
// used (SillyTavern's own field names, the card spec's `character_book`, or both at once), and the book's
// scan settings. The activation algorithm is in world-info-activation.ts; reading and writing files in
// world-info-format.ts.

/** SillyTavern's `selectiveLogic` 0..3: how the secondary keys filter an entry whose primary key matched. */
export type SelectiveLogic = 'and_any' | 'not_all' | 'not_any' | 'and_all';
export const SELECTIVE_LOGICS: readonly SelectiveLogic[] = ['and_any', 'not_all', 'not_any', 'and_all'];

/** SillyTavern's `position` 0..7. */
export type WorldInfoPosition =
  | 'before_char'
  | 'after_char'
  | 'an_top'
  | 'an_bottom'
  | 'at_depth'
  | 'em_top'
  | 'em_bottom'
  | 'outlet';
export const WORLD_INFO_POSITIONS: readonly WorldInfoPosition[] = [
  'before_char',
  'after_char',
  'an_top',
  'an_bottom',
  'at_depth',
  'em_top',
  'em_bottom',
  'outlet',
];

export type WorldInfoRole = 'system' | 'user' | 'assistant';
export const WORLD_INFO_ROLES: readonly WorldInfoRole[] = ['system', 'user', 'assistant'];

export interface WorldInfoEntry {
  readonly uid: number;
  readonly keys: readonly string[];
  readonly secondaryKeys: readonly string[];
  readonly selective: boolean;
  readonly selectiveLogic: SelectiveLogic;
  readonly comment: string;
  readonly content: string;
  readonly constant: boolean;
  readonly disable: boolean;
  /** Higher = processed first for the budget and placed later (closer to the chat). */
  readonly order: number;
  readonly position: WorldInfoPosition;
  readonly depth: number;
  readonly role: WorldInfoRole;
  readonly outletName: string;
  /** 0..100. */
  readonly probability: number;
  readonly useProbability: boolean;
  /** Inclusion groups (comma-separated in the file). */
  readonly groups: readonly string[];
  readonly groupOverride: boolean;
  readonly groupWeight: number;
  /** Per-entry overrides; null = the book's setting. */
  readonly useGroupScoring: boolean | null;
  readonly scanDepth: number | null;
  readonly caseSensitive: boolean | null;
  readonly matchWholeWords: boolean | null;
  readonly excludeRecursion: boolean;
  readonly preventRecursion: boolean;
  /** 0 = off; N = only activatable in recursion passes of level N or deeper (`true` in the file = 1). */
  readonly delayUntilRecursion: number;
  /** Messages; 0 = none. */
  readonly sticky: number;
  readonly cooldown: number;
  readonly delay: number;
  readonly ignoreBudget: boolean;
  /** Generation types the entry is limited to (empty = all). */
  readonly triggers: readonly string[];
  /** `@@activate` / `@@dont_activate` decorators found at the start of the content (already stripped). */
  readonly forceActivate: boolean;
  readonly forceSkip: boolean;
  /**
   * `extensions.mnesos.when`: a condition on the state and the ledger (`@ entity('mara').location ==
   * 'chapel'`); while it holds the entry is in play without a key, while it is false it never is. Compiled
   * and evaluated by the cartridge layer (src/core/cartridge/lore-conditions.ts).
   */
  readonly when?: string;
}

export interface WorldInfoSettings {
  /** Messages scanned for keys (SillyTavern's default 2). */
  readonly scanDepth: number;
  /** Estimated tokens all activated entries may use. */
  readonly tokenBudget: number;
  readonly recursive: boolean;
  /** Recursion passes at most (0 = up to MAX_WI_RECURSION_STEPS). */
  readonly maxRecursionSteps: number;
  readonly caseSensitive: boolean;
  readonly matchWholeWords: boolean;
  readonly groupScoring: boolean;
}

export interface WorldInfoBook {
  readonly name: string;
  readonly entries: readonly WorldInfoEntry[];
  readonly settings: WorldInfoSettings;
}

/** Where a problem in a World Info file is: the entry (its key in the file) and the field. */
export interface WorldInfoIssue {
  readonly path: string;
  readonly message: string;
}
