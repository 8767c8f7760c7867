// The server's voices and pictures (docs/voices.md): which speech provider reads turns aloud (an
// OpenAI-compatible server from MNESOS_SPEECH_URL, else espeak-ng when installed, else none), which image
// provider pictures them (MNESOS_IMAGE_URL; none by default, so pictures are off), and the voices. Read once
// at start; both are used only when a client asks, after the turn is committed, never on a turn's path.

import {
  chooseSpeechProvider,
  type HttpProviderConfig,
  imageProviderConfig,
  type SpeechProvider,
  type VoiceSettings,
  voiceSettings,
} from '../../adapters/media/index.ts';

export interface ServerMedia {
  readonly speech?: SpeechProvider;
  readonly images?: HttpProviderConfig;
  readonly voices: VoiceSettings;
  /** Milliseconds a request for a part of a streaming narration waits for it (speech-parts.ts). */
  readonly partWaitMs?: number;
}

/** The media the environment sets; a bad setting throws MediaError naming the variable. */
export function serverMediaFromEnv(env: Readonly<Record<string, string | undefined>>): ServerMedia {
  const speech = chooseSpeechProvider(env);
  const images = imageProviderConfig(env);
  return {
    voices: voiceSettings(env),
    ...(speech === undefined ? {} : { speech }),
    ...(images === undefined ? {} : { images }),
  };
}

/** Media off: no speech, no pictures. */
export const NO_MEDIA: ServerMedia = Object.freeze({ voices: { npcs: new Map() } });
