// Where a branch keeps its World Info timed effects: in the game state, under `_world_info` (keys starting
// with `_` are engine plumbing, never shown to players or the Narrator). Every turn stores its state, so a
// swipe (a sibling) starts from its parent's effects and a branch never sees another branch's sticky or
// cooldown. The value is small and flat (a count and short strings), inside the rules' container limits.
//
//   _world_info: { messages: 7, effects: ["sticky:3:5:8", "cooldown:3:8:10:p"] }
//
// The state may come from a client (a stateless turn), so reading it is forgiving: anything malformed is
// dropped, never trusted.

import { MAX_WI_TIMED_EFFECTS } from './world-info-limits.ts';
import type { TimedEffect } from './world-info-activation.ts';

export const WORLD_INFO_STATE_KEY = '_world_info';

export interface WorldInfoState {
  /** Messages in the chat when the last activation ran (this turn's input included). */
  readonly messages: number;
  readonly effects: readonly TimedEffect[];
}

const EFFECT = /^(sticky|cooldown):(\d{1,9}):(\d{1,9}):(\d{1,9})(:p)?$/;

export function readWorldInfoState(state: { readonly [key: string]: unknown }): WorldInfoState | undefined {
  const raw = state[WORLD_INFO_STATE_KEY];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { messages, effects } = raw as { messages?: unknown; effects?: unknown };
  if (typeof messages !== 'number' || !Number.isSafeInteger(messages) || messages < 0) return undefined;
  const out: TimedEffect[] = [];
  if (Array.isArray(effects)) {
    for (const item of effects.slice(0, MAX_WI_TIMED_EFFECTS)) {
      const m = typeof item === 'string' ? EFFECT.exec(item) : null;
      if (m === null) continue;
      out.push({
        kind: m[1] as TimedEffect['kind'],
        uid: Number(m[2]),
        start: Number(m[3]),
        end: Number(m[4]),
        protected: m[5] !== undefined,
      });
    }
  }
  return { messages, effects: out };
}

export function worldInfoStateValue(state: WorldInfoState): { messages: number; effects: string[] } {
  return {
    messages: state.messages,
    effects: state.effects
      .slice(-MAX_WI_TIMED_EFFECTS)
      .map((e) => `${e.kind}:${e.uid}:${e.start}:${e.end}${e.protected ? ':p' : ''}`),
  };
}
