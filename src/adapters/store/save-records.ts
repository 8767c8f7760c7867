// Saves: named bookmarks on a session's turn tree (saves.ts stores them). Types only.

import type { Failure } from './results.ts';

export interface Save {
  id: string;
  sessionId: string;
  turnId: string;
  name: string;
  createdAt: number;
}

export type SaveResult =
  | { ok: true; save: Save }
  | Failure<'session-not-found' | 'turn-not-found' | 'save-not-found' | 'name-taken'>;

/** Named bookmarks on turns of a session. */
export interface Saves {
  /** `name` is unique per session. */
  createSave(input: {
    sessionId: string;
    turnId: string;
    name: string;
    createdAt?: number;
  }): Promise<SaveResult>;
  getSave(sessionId: string, saveId: string): Promise<Save | undefined>;
  listSaves(sessionId: string): Promise<Save[]>;
  renameSave(sessionId: string, saveId: string, name: string): Promise<SaveResult>;
  deleteSave(sessionId: string, saveId: string): Promise<boolean>;
}
