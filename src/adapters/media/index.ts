// Voices and pictures, the effects (docs/voices.md): speech providers (OpenAI-compatible, espeak-ng),
// image providers, WAV joining. The pure half (plans and prompts) is src/core/media/.

export { MediaError } from './bounded-fetch.ts';
export {
  type HttpProviderConfig,
  imageProviderConfig,
  MAX_VOICE_PAIRS,
  speechProviderConfig,
  type VoiceSettings,
  voiceSettings,
} from './config.ts';
export { ESPEAK_COMMAND, espeakInstalled, espeakWav } from './espeak.ts';
export {
  DEFAULT_MAX_IMAGE_BYTES,
  generatePicture,
  imageMime,
  type Picture,
  type PictureOptions,
} from './images.ts';
export {
  chooseSpeechProvider,
  DEFAULT_MAX_SPEECH_BYTES,
  type SpeechCast,
  type SpeechOptions,
  type SpeechProvider,
  type SpokenTurn,
  speakRequest,
  speakTurn,
  voiceTableOf,
} from './speech.ts';
export { joinWav, readWav, WavError, type WavParts } from './wav.ts';
