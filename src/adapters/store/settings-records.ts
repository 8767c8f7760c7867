// A principal's model settings (model-settings.ts stores them). Types only.

import type { JsonValue } from './json.ts';
import type { Failure } from './results.ts';

/** A principal's model settings: JSON the store does not interpret (the server validates it). */
export interface StoredModelSettings {
  principalId: string;
  settings: JsonValue;
  updatedAt: number;
}

export type PutModelSettingsResult =
  | { ok: true; stored: StoredModelSettings }
  | Failure<'principal-not-found'>;

/** Each principal's model settings, one JSON document. */
export interface SettingsStore {
  getModelSettings(principalId: string): Promise<StoredModelSettings | undefined>;
  /** Replaces the principal's settings (at most MAX_SETTINGS_BYTES of JSON). */
  putModelSettings(input: {
    principalId: string;
    settings: unknown;
    updatedAt?: number;
  }): Promise<PutModelSettingsResult>;
}
