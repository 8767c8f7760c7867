// A turn read aloud through the real providers' paths: a fake OpenAI-compatible speech server over
// loopback HTTP, and the real espeak-ng (installed in CI by .ci/run). Voices per speaker, one WAV file,
// bounded answers, a provider that hangs cancelled.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseSpeechProvider,
  espeakInstalled,
  MAX_VOICE_PAIRS,
  MediaError,
  readWav,
  type SpeechProvider,
  speakTurn,
  voiceSettings,
} from '../../../src/adapters/media/index.ts';
import { type FakeMedia, startFakeMedia } from '../../helpers/fake-media-server.ts';

const NARRATION = 'Mother Hesk looks up. "Sit down," she says. "Thank you," you say.';

let fake: FakeMedia;
beforeAll(async () => {
  fake = await startFakeMedia();
});
afterAll(() => fake.close());

function httpProvider(): SpeechProvider {
  const provider = chooseSpeechProvider({
    MNESOS_SPEECH_URL: fake.url,
    MNESOS_SPEECH_API_KEY: 'sk-speech-test',
  });
  if (provider === undefined) throw new Error('no provider');
  return provider;
}

/** The text a fake-server WAV carries (one sample per character). */
function spokenText(wav: Buffer): string {
  const { samples } = readWav(wav);
  let text = '';
  for (let i = 0; i + 1 < samples.length; i += 2) text += String.fromCharCode(samples.readUInt16LE(i));
  return text;
}

describe('speech over an OpenAI-compatible /v1/audio/speech', () => {
  it('sends each piece with its speaker’s voice, the key and the model, and joins the answers into one WAV', async () => {
    fake.requests.length = 0;
    const voices = voiceSettings({
      MNESOS_SPEECH_VOICE: 'fable',
      MNESOS_SPEECH_VOICES: 'player=echo; Mother Hesk=nova',
    });
    const spoken = await speakTurn(httpProvider(), NARRATION, ['Mother Hesk'], voices);
    expect(fake.requests.map((r) => [r.path, r.body.voice, r.body.input])).toEqual([
      ['/v1/audio/speech', 'fable', 'Mother Hesk looks up.'],
      ['/v1/audio/speech', 'nova', 'Sit down,'],
      ['/v1/audio/speech', 'fable', 'she says.'],
      ['/v1/audio/speech', 'echo', 'Thank you,'],
      ['/v1/audio/speech', 'fable', 'you say.'],
    ]);
    expect(fake.requests[0]?.authorization).toBe('Bearer sk-speech-test');
    expect(fake.requests[0]?.body).toMatchObject({ model: 'tts-1', response_format: 'wav' });
    expect(spokenText(spoken.wav)).toBe('Mother Hesk looks up.Sit down,she says.Thank you,you say.');
  });

  it('an answer over the byte bound is refused, not held', async () => {
    fake.mode = 'huge';
    try {
      await expect(
        speakTurn(httpProvider(), 'Hello.', [], undefined, { maxBytesPerRequest: 1024 }),
      ).rejects.toMatchObject({ kind: 'too_large' });
    } finally {
      fake.mode = 'ok';
    }
  });

  it('a provider that never answers is cancelled by the caller’s signal, and by the time limit', async () => {
    fake.mode = 'hang';
    try {
      const controller = new AbortController();
      const pending = speakTurn(httpProvider(), 'Hello.', [], undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
      await expect(
        speakTurn(httpProvider(), 'Hello.', [], undefined, { timeoutMsPerRequest: 100 }),
      ).rejects.toMatchObject({ kind: 'timeout' });
    } finally {
      fake.mode = 'ok';
    }
  });

  it('a provider error is a MediaError naming the status', async () => {
    fake.mode = 'error';
    try {
      await expect(speakTurn(httpProvider(), 'Hello.', [])).rejects.toThrow(/HTTP 500/);
    } finally {
      fake.mode = 'ok';
    }
  });
});

describe('speech settings', () => {
  it(`MNESOS_SPEECH_VOICES takes ${MAX_VOICE_PAIRS} pairs; one more is refused naming the limit`, () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, i) => `npc${i}=v${i}`).join(';');
    expect(voiceSettings({ MNESOS_SPEECH_VOICES: pairs(MAX_VOICE_PAIRS) }).npcs.size).toBe(MAX_VOICE_PAIRS);
    expect(() => voiceSettings({ MNESOS_SPEECH_VOICES: pairs(MAX_VOICE_PAIRS + 1) })).toThrow(
      new RegExp(`at most ${MAX_VOICE_PAIRS}`),
    );
    expect(() => voiceSettings({ MNESOS_SPEECH_VOICES: 'narrator' })).toThrow(/not NAME=VOICE/);
  });

  it('a speech URL that is not http(s) is refused; none set falls back to espeak-ng when installed', () => {
    expect(() => chooseSpeechProvider({ MNESOS_SPEECH_URL: 'file:///etc/passwd' })).toThrow(MediaError);
    expect(chooseSpeechProvider({})).toEqual(espeakInstalled() ? { kind: 'espeak' } : undefined);
  });
});

describe('speech with the real espeak-ng', () => {
  const installed = espeakInstalled();
  if (!installed) {
    console.log('espeak-ng is not installed: the espeak-ng tests are skipped (.ci/run installs it)');
    if (process.env.CI === 'true') throw new Error('espeak-ng must be installed under CI=true (.ci/run)');
  }

  it.runIf(installed)('reads narration and dialogue with two voices into one playable WAV', async () => {
    const voices = voiceSettings({ MNESOS_SPEECH_VOICE: 'en', MNESOS_SPEECH_VOICES: 'Mother Hesk=en-us+f3' });
    const spoken = await speakTurn({ kind: 'espeak' }, NARRATION, ['Mother Hesk'], voices);
    expect(spoken.plan.requests.map((r) => r.voice)).toEqual(['en', 'en-us+f3', 'en', 'en', 'en']);
    const { format, samples } = readWav(spoken.wav);
    expect(format.readUInt16LE(0)).toBe(1); // PCM
    // Over a second of 16-bit audio at espeak-ng's rate: every piece was spoken, not just the first.
    expect(samples.length).toBeGreaterThan(format.readUInt32LE(4) * 2);
  });

  it.runIf(installed)(
    'a voice name that is not one is refused before espeak-ng runs; a cancelled reading runs none',
    async () => {
      const bad = voiceSettings({ MNESOS_SPEECH_VOICE: '--help' });
      await expect(speakTurn({ kind: 'espeak' }, 'Hello.', [], bad)).rejects.toThrow(/not a voice name/);
      const controller = new AbortController();
      controller.abort();
      await expect(
        speakTurn({ kind: 'espeak' }, 'Hello there.', [], undefined, { signal: controller.signal }),
      ).rejects.toMatchObject({ kind: 'cancelled' });
    },
  );

  it.runIf(installed)('output past the byte bound stops espeak-ng', async () => {
    await expect(
      speakTurn(
        { kind: 'espeak' },
        'A long sentence that makes more than a few bytes of audio.',
        [],
        undefined,
        {
          maxBytesPerRequest: 2_000,
        },
      ),
    ).rejects.toMatchObject({ kind: 'too_large' });
  });
});
