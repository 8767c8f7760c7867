// The client-facing part of a state's `_pending_interaction` (the mini-game the player must finish first):
// its type, id and config, never its resolver event. Every view of a turn shows it the same way.

import { PENDING_KEY } from '../../core/yare/index.ts';
import { plainJson } from './canonical.ts';

export interface PendingInteraction {
  readonly interaction_type: unknown;
  readonly minigame_id: unknown;
  readonly config: unknown;
}

export function pendingInteraction(state: unknown): PendingInteraction | null {
  if (typeof state !== 'object' || state === null) return null;
  const pending = (state as Record<string, unknown>)[PENDING_KEY];
  if (typeof pending !== 'object' || pending === null || Object.keys(pending).length === 0) return null;
  const { interaction_type, minigame_id, config } = pending as Record<string, unknown>;
  return plainJson({ interaction_type, minigame_id, config }) as PendingInteraction;
}
