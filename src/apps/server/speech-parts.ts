// Which text part k of a turn's reading is (docs/voices.md, "As the narration streams"): while the turn
// streams on this process, its narration so far (live-narration.ts), waited on until part k is settled or
// the turn ends; otherwise the committed turn's narration. Both are cut by the one rule
// (src/core/media/speech-stream.ts), so a part is the same text whether it was asked for before or after the
// commit. The wait never holds the turn: the turn's stream only appends and wakes.

import { type SpeechRequest, streamedSpeech, type VoiceTable } from '../../core/media/index.ts';
import type { SessionService } from '../../engine/session/index.ts';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { MediaError } from '../../adapters/media/index.ts';
import { ApiError } from './errors.ts';
import type { LiveNarration, LiveNarrations } from './live-narration.ts';

/** Milliseconds a request waits for its part of a streaming narration before it is answered `504`. */
export const DEFAULT_SPEECH_PART_WAIT_MS = 120_000;

export type PartAnswer =
  | { readonly kind: 'part'; readonly request: SpeechRequest; readonly last: boolean }
  /** The reading has no part k: the narration ended before it, or the limits did. */
  | { readonly kind: 'end'; readonly unspokenChars: number };

export interface PartQuery {
  readonly principalId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly index: number;
  readonly voices: VoiceTable;
  readonly names: readonly string[];
  readonly limits: { readonly maxCharsPerRequest: number; readonly maxRequestsPerTurn: number };
  readonly signal: AbortSignal;
  readonly waitMs: number;
}

/** The turn's narration streaming on this process for this principal, if it is. */
export function liveNarrationOf(
  narrations: LiveNarrations,
  query: Pick<PartQuery, 'principalId' | 'sessionId' | 'turnId'>,
): LiveNarration | undefined {
  const live = narrations.get(query.sessionId, query.turnId);
  return live !== undefined && live.principalId === query.principalId ? live : undefined;
}

function answerOf(narration: string, final: boolean, query: PartQuery): PartAnswer | undefined {
  const speech = streamedSpeech(narration, final, query.voices, query.limits, query.names);
  const request = speech.parts[query.index];
  if (request !== undefined)
    return { kind: 'part', request, last: speech.complete && query.index === speech.parts.length - 1 };
  return speech.complete ? { kind: 'end', unspokenChars: speech.unspokenChars } : undefined;
}

/**
 * Milliseconds between two looks at a live narration: each look reads the text so far, so a model sending
 * thousands of tiny deltas that may end a sentence costs a reader at most one look per this long.
 */
export const SPEECH_PART_RECHECK_MS = 50;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** Waits on a live narration until part k is settled, the turn ends (undefined), or the wait is over (504). */
async function waitLive(live: LiveNarration, query: PartQuery): Promise<PartAnswer | undefined> {
  const timeout = AbortSignal.timeout(query.waitMs);
  const stop = AbortSignal.any([query.signal, timeout]);
  let lookedAt = Number.NEGATIVE_INFINITY;
  while (!live.ended) {
    const early = lookedAt + SPEECH_PART_RECHECK_MS - performance.now();
    if (early > 0) await pause(early, stop);
    lookedAt = performance.now();
    const answer = answerOf(live.text, false, query);
    if (answer !== undefined) return answer;
    await live.changed(stop);
    if (query.signal.aborted) throw new MediaError('cancelled', 'speech: cancelled');
    if (timeout.aborted)
      throw new ApiError(
        504,
        'not_ready',
        `part ${query.index} of the narration did not come within ${query.waitMs} ms`,
      );
  }
  return undefined;
}

/** Part k of the turn's reading, from its live narration or, once it is committed, from the store. */
export async function speechPartOf(
  narrations: LiveNarrations,
  service: SessionService,
  query: PartQuery,
): Promise<PartAnswer> {
  const live = liveNarrationOf(narrations, query);
  if (live !== undefined) {
    const answer = await waitLive(live, query);
    if (answer !== undefined) return answer;
  }
  // Not streaming here (over, or on another server): the committed turn; a turn that never committed is a 404.
  const turn = await service.getTurn(query.principalId, query.sessionId, query.turnId);
  return answerOf(turn.narration, true, query) ?? { kind: 'end', unspokenChars: 0 };
}
