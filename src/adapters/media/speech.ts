// A turn read aloud (docs/voices.md): its speech plan (src/core/media/speech-plan.ts) sent request by
// request to the speech provider — an OpenAI-compatible `POST {base}/audio/speech` when one is set, else
// espeak-ng when installed — and the answers joined into one WAV file. Requests run one at a time, so a
// turn holds at most one provider call; the caller's signal cancels the rest. Nothing here is on a turn's
// path: audio is made after the turn is committed, when asked.

import {
  DEFAULT_SPEECH_LIMITS,
  planSpeech,
  type SpeechLimits,
  type SpeechPlan,
  type SpeechRequest,
  type VoiceTable,
} from '../../core/media/index.ts';
import { MediaError, postForBytes } from './bounded-fetch.ts';
import {
  type HttpProviderConfig,
  speechProviderConfig,
  type VoiceSettings,
  voiceSettings,
} from './config.ts';
import { espeakInstalled, espeakWav } from './espeak.ts';
import { joinWav, readWav, WavError, type WavParts } from './wav.ts';

export type SpeechProvider =
  | { readonly kind: 'http'; readonly config: HttpProviderConfig }
  | { readonly kind: 'espeak' };

/** Voices a session gives beyond the settings: its persona's, and its NPCs' by every name they go by. */
export interface SpeechCast {
  readonly playerVoice?: string;
  readonly npcVoices?: ReadonlyMap<string, string>;
}

export interface SpeechOptions {
  readonly cast?: SpeechCast;
  readonly limits?: SpeechLimits;
  /** Bytes of audio one request may answer with. */
  readonly maxBytesPerRequest?: number;
  readonly timeoutMsPerRequest?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_MAX_SPEECH_BYTES = 8 * 1024 * 1024;
export const DEFAULT_SPEECH_TIMEOUT_MS = 30_000;

/** The speech provider the environment chooses, or undefined when there is none (no URL, no espeak-ng). */
export function chooseSpeechProvider(
  env: Readonly<Record<string, string | undefined>>,
): SpeechProvider | undefined {
  const config = speechProviderConfig(env);
  if (config !== undefined) return { kind: 'http', config };
  return espeakInstalled() ? { kind: 'espeak' } : undefined;
}

/** The narrator's voice when none is set: the provider's usual default. */
function defaultVoice(provider: SpeechProvider): string {
  return provider.kind === 'espeak' ? 'en' : 'alloy';
}

export interface SpokenTurn {
  readonly wav: Buffer;
  readonly plan: SpeechPlan;
}

async function speakOne(
  provider: SpeechProvider,
  text: string,
  voice: string,
  options: SpeechOptions,
): Promise<Buffer> {
  const maxBytes = options.maxBytesPerRequest ?? DEFAULT_MAX_SPEECH_BYTES;
  const timeoutMs = options.timeoutMsPerRequest ?? DEFAULT_SPEECH_TIMEOUT_MS;
  switch (provider.kind) {
    case 'espeak':
      return espeakWav({
        text,
        voice,
        maxBytes,
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    case 'http': {
      const { config } = provider;
      const answer = await postForBytes({
        what: 'speech',
        url: `${config.baseUrl}/audio/speech`,
        ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
        body: { model: config.model, input: text, voice, response_format: 'wav' },
        maxBytes,
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return answer.bytes;
    }
  }
}

/**
 * The voices a reading uses: the narrator's (the provider's usual default when none is set), the player's
 * (the persona's own voice before MNESOS_SPEECH_VOICES' `player=`), and each NPC's by name.
 */
export function voiceTableOf(
  provider: SpeechProvider,
  voices: VoiceSettings,
  cast: SpeechCast = {},
): VoiceTable {
  const player = cast.playerVoice ?? voices.player;
  return {
    narrator: voices.narrator ?? defaultVoice(provider),
    ...(player === undefined ? {} : { player }),
    npcs: cast.npcVoices ?? voices.npcs,
  };
}

/** One request of a plan spoken: its WAV, checked to be one. */
export async function speakRequest(
  provider: SpeechProvider,
  request: SpeechRequest,
  options: SpeechOptions = {},
): Promise<WavParts> {
  if (options.signal?.aborted) throw new MediaError('cancelled', 'speech: cancelled');
  const bytes = await speakOne(provider, request.text, request.voice, options);
  try {
    return readWav(bytes);
  } catch (error) {
    if (error instanceof WavError)
      throw new MediaError('bad_answer', `speech provider's answer: ${error.message}`);
    throw error;
  }
}

/** Reads a turn's narration aloud into one WAV file; NPC names let quoted lines take their speaker's voice. */
export async function speakTurn(
  provider: SpeechProvider,
  narration: string,
  npcNames: readonly string[],
  voices: VoiceSettings = voiceSettings({}),
  options: SpeechOptions = {},
): Promise<SpokenTurn> {
  const table = voiceTableOf(provider, voices, options.cast);
  const plan = planSpeech(narration, table, options.limits ?? DEFAULT_SPEECH_LIMITS, npcNames);
  if (plan.requests.length === 0)
    throw new MediaError('bad_answer', 'the narration has nothing to read aloud');
  const parts = [];
  for (const request of plan.requests) parts.push(await speakRequest(provider, request, options));
  return { wav: joinWav(parts), plan };
}
