// The records of builder drafts, as the Store interface (repository.ts) and drafts.ts both name them. Types
// only, importing nothing: the interface describes drafts without depending on the code that stores them.

export interface DraftSummary {
  readonly id: string;
  readonly principalId: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Draft extends DraftSummary {
  /** File name → text, as the builder wrote it (the store does not interpret it). */
  readonly files: unknown;
  readonly transcript: string | null;
}

/** What `updateDraft` changes; `expectedUpdatedAt` makes it conditional on nobody having saved since. */
export interface DraftPatch {
  name?: string;
  files?: unknown;
  transcript?: string | null;
  updatedAt?: number;
  expectedUpdatedAt?: number;
}

export type CreateDraftResult =
  | { ok: true; draft: Draft }
  | { ok: false; reason: 'principal-not-found' }
  | { ok: false; reason: 'quota'; limit: number };
