// A turn read aloud and pictured (docs/voices.md): `GET …/turns/:turnId/speech` answers the turn's narration
// as one WAV (dialogue in the speakers' voices, the player's in the persona's), `GET …/speech/:part` one part of
// its reading — while the turn still streams, waiting until the part is settled (speech-parts.ts), or after —
// `POST …/turns/:turnId/picture` has the image provider picture the scene and stores it with the turn (counted
// in the storage quota), `GET …/picture` serves it. None of them holds up a turn: the whole reading and the
// picture come after the commit, and a part only reads the text the turn's stream hands on. Each principal
// makes one at a time (a second is 429, a part's wait included), a client that goes away cancels its reading,
// and the provider's answer is bounded (src/adapters/media/). Off unless the server has a provider: 404
// `speech_off` / `pictures_off`.
import { z } from 'zod';
import {
  generatePicture,
  joinWav,
  MediaError,
  type SpeechProvider,
  speakRequest,
  speakTurn,
  voiceTableOf,
} from '../../../adapters/media/index.ts';
import { MAX_TURN_PICTURE_BYTES } from '../../../adapters/store/index.ts';
import { DEFAULT_SPEECH_LIMITS, type VoiceTable } from '../../../core/media/index.ts';
import { pictureSceneOf, type SpeechCastOfSession, speechCastOf } from '../../../engine/session/index.ts';
import {
  DEFAULT_SPEECH_PART_WAIT_MS,
  liveNarrationOf,
  type PartQuery,
  speechPartOf,
} from '../speech-parts.ts';
import { turnPictureResponse } from '../../contract/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { errorSchema, turnParams } from '../schemas.ts';
import { libraryOwner } from './cartridges.ts';
import { guarded } from './guard.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';

const NOT_FOUND = { description: 'No such session or turn, or the provider is off', schema: errorSchema };
const BUSY = { description: 'This caller is already reading or picturing a turn', schema: errorSchema };
const PROVIDER_FAILED = {
  description: 'The provider failed, timed out or answered badly',
  schema: errorSchema,
};

/** Principals with a reading or a picture under way: one each, so no caller fills the providers. */
function oneAtATime(): <T>(principalId: string, work: () => Promise<T>) => Promise<T> {
  const busy = new Set<string>();
  return async (principalId, work) => {
    if (busy.has(principalId))
      throw new ApiError(
        429,
        'media_busy',
        'a reading or picture of yours is under way; ask again when it ends',
      );
    busy.add(principalId);
    try {
      return await work();
    } finally {
      busy.delete(principalId);
    }
  };
}

function providerFailure(error: unknown, what: string): never {
  // A cancelled reading is answered the same way, to a client that has gone.
  if (error instanceof MediaError)
    throw new ApiError(502, 'media_failed', `${what}: ${error.message}`, { kind: error.kind });
  throw error;
}

const IMAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'private, no-cache',
};

const SPEECH_HEADERS = {
  'content-type': 'audio/wav',
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-cache',
};

function speechProviderOf(deps: AppDeps): SpeechProvider {
  const provider = deps.media?.speech;
  if (provider === undefined)
    throw new ApiError(404, 'speech_off', 'this server reads no turns aloud: it has no speech provider');
  return provider;
}

/** Who speaks in the session and in which voices, with the world at `worldTurnId`. */
function castOf(deps: AppDeps, principalId: string, sessionId: string, worldTurnId: string) {
  const configured = deps.media?.voices.npcs ?? new Map<string, string>();
  return guarded(() => speechCastOf(deps.service, principalId, sessionId, worldTurnId, configured));
}

function voicesOf(deps: AppDeps, provider: SpeechProvider, cast: SpeechCastOfSession): VoiceTable {
  return voiceTableOf(provider, deps.media?.voices ?? { npcs: new Map() }, {
    npcVoices: cast.npcVoices,
    ...(cast.playerVoice === undefined ? {} : { playerVoice: cast.playerVoice }),
  });
}

const getSpeech =
  (exclusive: ReturnType<typeof oneAtATime>): RouteDefinition =>
  (api, deps) => {
    const { service } = deps;
    api.add(
      {
        method: 'get',
        path: '/v1/sessions/:id/turns/:turnId/speech',
        tag: 'turns',
        summary:
          'The turn’s narration read aloud as one WAV file: quoted dialogue in its speaker’s voice (the persona’s for the player), the rest in the narrator’s. Off (404 `speech_off`) when the server has no speech provider.',
        params: turnParams,
        responses: {
          200: { description: 'The audio', contentType: 'audio/wav' },
          404: NOT_FOUND,
          429: BUSY,
          502: PROVIDER_FAILED,
        },
      },
      async ({ c, params }) => {
        const provider = speechProviderOf(deps);
        const principalId = c.get('principal').id;
        const turn = await guarded(() => service.getTurn(principalId, params.id, params.turnId));
        const cast = await castOf(deps, principalId, params.id, params.turnId);
        const spoken = await exclusive(principalId, () =>
          speakTurn(provider, turn.narration, cast.names, deps.media!.voices, {
            cast: {
              npcVoices: cast.npcVoices,
              ...(cast.playerVoice === undefined ? {} : { playerVoice: cast.playerVoice }),
            },
            signal: c.req.raw.signal,
          }).catch((error: unknown) => providerFailure(error, 'reading the turn aloud')),
        );
        return new Response(new Uint8Array(spoken.wav), {
          status: 200,
          headers: {
            ...SPEECH_HEADERS,
            'content-length': String(spoken.wav.byteLength),
            'x-mnesos-unspoken-chars': String(spoken.plan.unspokenChars),
          },
        });
      },
    );
  };

const partParams = turnParams.extend({
  part: z.coerce
    .number()
    .int()
    .min(0)
    .max(DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn - 1),
});

/** Part k of a reading, spoken: 200 with its WAV, or 204 when the reading has no part k. */
async function spokenPart(
  deps: AppDeps,
  provider: SpeechProvider,
  query: PartQuery,
  signal: AbortSignal,
): Promise<Response> {
  const answer = await guarded(() => speechPartOf(deps.narrations, deps.service, query)).catch(
    (error: unknown) => providerFailure(error, 'reading the turn aloud'),
  );
  if (answer.kind === 'end')
    return new Response(null, {
      status: 204,
      headers: { 'x-mnesos-unspoken-chars': String(answer.unspokenChars) },
    });
  const wav = joinWav([
    await speakRequest(provider, answer.request, { signal }).catch((error: unknown) =>
      providerFailure(error, 'reading the turn aloud'),
    ),
  ]);
  return new Response(new Uint8Array(wav), {
    status: 200,
    headers: {
      ...SPEECH_HEADERS,
      'content-length': String(wav.byteLength),
      'x-mnesos-speech-last': String(answer.last),
    },
  });
}

const getSpeechPart =
  (exclusive: ReturnType<typeof oneAtATime>): RouteDefinition =>
  (api, deps) => {
    api.add(
      {
        method: 'get',
        path: '/v1/sessions/:id/turns/:turnId/speech/:part',
        tag: 'turns',
        summary: `Part \`part\` (0 to ${DEFAULT_SPEECH_LIMITS.maxRequestsPerTurn - 1}) of the turn’s reading as a WAV file, **while the turn still streams** (to the player playing it, on the server playing it) or after it is committed: part 0 is the narration’s first sentence, later parts join sentences of one speaker; the request waits until its part is settled. 204 when the reading has no such part (it ended before it). Off (404 \`speech_off\`) without a speech provider.`,
        params: partParams,
        responses: {
          200: { description: 'The part’s audio', contentType: 'audio/wav' },
          204: { description: 'The reading has no such part' },
          404: NOT_FOUND,
          429: BUSY,
          502: PROVIDER_FAILED,
          504: { description: 'The part did not come in time', schema: errorSchema },
        },
      },
      async ({ c, params }) => {
        const provider = speechProviderOf(deps);
        const principalId = c.get('principal').id;
        const signal = c.req.raw.signal;
        return exclusive(principalId, async () => {
          // A turn still streaming names its world by its parent's: the part's speakers are known before it.
          const live = liveNarrationOf(deps.narrations, {
            principalId,
            sessionId: params.id,
            turnId: params.turnId,
          });
          const worldTurnId = live?.parentId ?? params.turnId;
          const cast = await castOf(deps, principalId, params.id, worldTurnId);
          const query: PartQuery = {
            principalId,
            sessionId: params.id,
            turnId: params.turnId,
            index: params.part,
            voices: voicesOf(deps, provider, cast),
            names: cast.names,
            limits: DEFAULT_SPEECH_LIMITS,
            signal,
            waitMs: deps.media?.partWaitMs ?? DEFAULT_SPEECH_PART_WAIT_MS,
          };
          return spokenPart(deps, provider, query, signal);
        });
      },
    );
  };

const postPicture =
  (exclusive: ReturnType<typeof oneAtATime>): RouteDefinition =>
  (api, deps) => {
    const { service, store } = deps;
    api.add(
      {
        method: 'post',
        path: '/v1/sessions/:id/turns/:turnId/picture',
        tag: 'turns',
        summary: `Picture the turn’s scene (its narration, public state, lore in play and the cartridge’s picture_style) with the image provider, and store it with the turn (replacing an earlier one; at most ${MAX_TURN_PICTURE_BYTES} bytes, counted in the storage quota). Off (404 \`pictures_off\`) unless the server has an image provider.`,
        params: turnParams,
        responses: {
          200: { description: 'The stored picture', schema: turnPictureResponse },
          404: NOT_FOUND,
          413: { description: 'Over the storage quota', schema: errorSchema },
          429: BUSY,
          502: PROVIDER_FAILED,
        },
      },
      async ({ c, params }) => {
        const images = deps.media?.images;
        if (images === undefined)
          throw new ApiError(404, 'pictures_off', 'this server makes no pictures: it has no image provider');
        const principalId = c.get('principal').id;
        const { prompt } = await guarded(() =>
          pictureSceneOf(service, principalId, params.id, params.turnId),
        );
        const picture = await exclusive(principalId, () =>
          generatePicture(images, prompt, {
            maxBytes: MAX_TURN_PICTURE_BYTES,
            signal: c.req.raw.signal,
          }).catch((error: unknown) => providerFailure(error, 'picturing the turn')),
        );
        const before = await store.getTurnPicture(principalId, params.id, params.turnId);
        const owner = libraryOwner(deps, c.get('principal'));
        const usage = await store.cartridgeUsage(owner);
        const quota = deps.limits.cartridgeQuotaBytes;
        const after = usage.bytes - (before?.data.byteLength ?? 0) + picture.bytes.byteLength;
        if (after > quota)
          throw new ApiError(
            413,
            'quota_exceeded',
            `storing this picture (${picture.bytes.byteLength} bytes) would pass your storage quota of ${quota} bytes (${usage.bytes} used)`,
            { usedBytes: usage.bytes, bytes: picture.bytes.byteLength, quotaBytes: quota },
          );
        const stored = await store.putTurnPicture(
          principalId,
          params.id,
          params.turnId,
          { mediaType: picture.mime, data: picture.bytes, prompt },
          owner,
        );
        if (!stored) throw new ApiError(404, 'not_found', `turn ${params.turnId} not found`);
        return c.json({
          turnId: params.turnId,
          mediaType: picture.mime,
          bytes: picture.bytes.byteLength,
          prompt,
          url: `/v1/sessions/${encodeURIComponent(params.id)}/turns/${encodeURIComponent(params.turnId)}/picture`,
        });
      },
    );
  };

const getPicture: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/turns/:turnId/picture',
      tag: 'turns',
      summary:
        'The turn’s stored picture, to the session’s owner; served with its type, `nosniff` and a sandboxing Content-Security-Policy.',
      params: turnParams,
      responses: {
        200: { description: 'The image', contentType: 'image/*' },
        404: { description: 'No such session or turn, or no picture', schema: errorSchema },
      },
    },
    async ({ params, c }) => {
      const picture = await deps.store.getTurnPicture(c.get('principal').id, params.id, params.turnId);
      if (picture === undefined) throw new ApiError(404, 'not_found', `turn ${params.turnId} has no picture`);
      return new Response(new Uint8Array(picture.data), {
        status: 200,
        headers: {
          'content-type': picture.mediaType,
          'content-length': String(picture.data.byteLength),
          ...IMAGE_HEADERS,
        },
      });
    },
  );
};

export function registerTurnMediaRoutes(api: RouteRegistry, deps: AppDeps): void {
  const exclusive = oneAtATime();
  registerAll(api, deps, [
    getSpeech(exclusive),
    getSpeechPart(exclusive),
    postPicture(exclusive),
    getPicture,
  ]);
}
