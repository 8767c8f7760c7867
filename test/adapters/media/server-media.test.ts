// The server's voices and pictures from the environment (src/apps/server/media.ts): pictures off unless
// MNESOS_IMAGE_URL is set, speech from MNESOS_SPEECH_URL (else espeak-ng when installed), and a bad setting
// refused with the variable named before `serve` starts.

import { describe, expect, it } from 'vitest';
import { espeakInstalled, MediaError } from '../../../src/adapters/media/index.ts';
import { serverMediaFromEnv } from '../../../src/apps/server/index.ts';

describe('serverMediaFromEnv', () => {
  it('has pictures off and speech only from espeak-ng when nothing is set', () => {
    const media = serverMediaFromEnv({});
    expect(media.images).toBeUndefined();
    expect(media.speech).toEqual(espeakInstalled() ? { kind: 'espeak' } : undefined);
  });

  it('reads both providers and the voices', () => {
    const media = serverMediaFromEnv({
      MNESOS_SPEECH_URL: 'http://127.0.0.1:8880/v1/',
      MNESOS_IMAGE_URL: 'http://127.0.0.1:7860/v1',
      MNESOS_IMAGE_MODEL: 'sdxl',
      MNESOS_SPEECH_VOICES: 'player=echo; Mother Hesk=nova',
    });
    expect(media.speech).toEqual({
      kind: 'http',
      config: { baseUrl: 'http://127.0.0.1:8880/v1', model: 'tts-1' },
    });
    expect(media.images).toEqual({ baseUrl: 'http://127.0.0.1:7860/v1', model: 'sdxl' });
    expect(media.voices.player).toBe('echo');
    expect(media.voices.npcs.get('Mother Hesk')).toBe('nova');
  });

  it('refuses an image URL with credentials, naming the variable', () => {
    expect(() => serverMediaFromEnv({ MNESOS_IMAGE_URL: 'http://user:pw@127.0.0.1:7860/v1' })).toThrow(
      MediaError,
    );
    expect(() => serverMediaFromEnv({ MNESOS_IMAGE_URL: 'http://user:pw@127.0.0.1:7860/v1' })).toThrow(
      /MNESOS_IMAGE_URL/,
    );
    expect(() => serverMediaFromEnv({ MNESOS_IMAGE_URL: 'ftp://127.0.0.1/v1' })).toThrow(/MNESOS_IMAGE_URL/);
  });
});
