// Builder drafts: the records and the drafts part of the store (drafts.ts stores them). Types only, importing
// nothing: the interface describes drafts without depending on the code that stores them.

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

/** A principal's builder drafts. */
export interface Drafts {
  /** A builder draft of the principal's (at most MAX_DRAFTS_PER_PRINCIPAL each; `quota` past it). */
  createDraft(input: {
    principalId: string;
    name: string;
    files: unknown;
    transcript?: string | null;
    createdAt?: number;
  }): Promise<CreateDraftResult>;
  /** Another principal's draft is not found. */
  getDraft(id: string, principalId: string): Promise<Draft | undefined>;
  /** Most recently changed first, without files. */
  listDrafts(principalId: string): Promise<DraftSummary[]>;
  /** With `expectedUpdatedAt`, made only if nobody saved since (else undefined, as when not found). */
  updateDraft(id: string, principalId: string, patch: DraftPatch): Promise<Draft | undefined>;
  deleteDraft(id: string, principalId: string): Promise<boolean>;
}
