// The speech and image provider settings, from the environment (docs/voices.md). Both are OpenAI-compatible
// endpoints under a base URL, checked by the one base-URL policy (src/core/base-url-policy.ts). Speech with
// no URL set falls back to espeak-ng when it is installed; pictures with no URL set are off.

import { baseUrlProblem, normaliseBaseUrl } from '../../core/base-url-policy.ts';
import { MediaError } from './bounded-fetch.ts';

export interface HttpProviderConfig {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
}

export interface VoiceSettings {
  /** The narrator's voice; the player's and each NPC's default to it. */
  readonly narrator?: string;
  readonly player?: string;
  /** NPC name to voice. */
  readonly npcs: ReadonlyMap<string, string>;
}

/** At most this many `name=voice` pairs in MNESOS_SPEECH_VOICES, each name and voice at most 80 characters. */
export const MAX_VOICE_PAIRS = 64;
const MAX_VOICE_NAME_CHARS = 80;

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function providerOf(
  env: Env,
  prefix: 'SPEECH' | 'IMAGE',
  defaultModel: string,
): HttpProviderConfig | undefined {
  const url = read(env, `MNESOS_${prefix}_URL`);
  if (url === undefined) return undefined;
  const problem = baseUrlProblem(url, { allowCredentials: false });
  if (problem !== undefined) throw new MediaError('config', `MNESOS_${prefix}_URL ${problem.message}`);
  const apiKey = read(env, `MNESOS_${prefix}_API_KEY`);
  return {
    baseUrl: normaliseBaseUrl(url),
    model: read(env, `MNESOS_${prefix}_MODEL`) ?? defaultModel,
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}

export function speechProviderConfig(env: Env): HttpProviderConfig | undefined {
  return providerOf(env, 'SPEECH', 'tts-1');
}

export function imageProviderConfig(env: Env): HttpProviderConfig | undefined {
  return providerOf(env, 'IMAGE', 'dall-e-3');
}

/**
 * MNESOS_SPEECH_VOICE (the narrator) and MNESOS_SPEECH_VOICES: `player=VOICE; Mother Hesk=VOICE; …`
 * (`narrator=` too), a name being an NPC's name as the cartridge writes it.
 */
export function voiceSettings(env: Env): VoiceSettings {
  const npcs = new Map<string, string>();
  let narrator = read(env, 'MNESOS_SPEECH_VOICE');
  let player: string | undefined;
  const pairs = (read(env, 'MNESOS_SPEECH_VOICES') ?? '').split(';').filter((p) => p.trim() !== '');
  if (pairs.length > MAX_VOICE_PAIRS)
    throw new MediaError(
      'config',
      `MNESOS_SPEECH_VOICES has ${pairs.length} pairs; at most ${MAX_VOICE_PAIRS}`,
    );
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const voice = pair.slice(eq + 1).trim();
    if (
      eq <= 0 ||
      name === '' ||
      voice === '' ||
      name.length > MAX_VOICE_NAME_CHARS ||
      voice.length > MAX_VOICE_NAME_CHARS
    )
      throw new MediaError(
        'config',
        `MNESOS_SPEECH_VOICES: '${pair.trim().slice(0, 100)}' is not NAME=VOICE (each at most ${MAX_VOICE_NAME_CHARS} characters)`,
      );
    if (name === 'narrator') narrator = voice;
    else if (name === 'player') player = voice;
    else npcs.set(name, voice);
  }
  return {
    ...(narrator === undefined ? {} : { narrator }),
    ...(player === undefined ? {} : { player }),
    npcs,
  };
}
