// The answers every route may give: an error (`{error: {code, message, …details}}`) and `/healthz`. The
// server declares them in /openapi.json and answers with them; the browser parses them with the same schemas.

import * as z from 'zod/mini';

/** An error's code, message and whatever details the route adds (`issues`, `errors`, `updatedAt`, …). */
export const errorDetailSchema = z.catchall(z.object({ code: z.string(), message: z.string() }), z.unknown());

/** Every error answer of the API (4xx, 5xx). */
export const errorResponse = z.object({ error: errorDetailSchema });

/** `GET /healthz`: liveness, the store dialect, whether a model is configured, the auth and author modes. */
export const healthResponse = z.object({
  status: z.literal('ok'),
  store: z.string(),
  modelMode: z.enum(['online', 'offline']),
  auth: z.enum(['local', 'keys']),
  authorMode: z.boolean(),
  /** Whether turns may be read aloud and pictured (docs/voices.md); absent from servers before them. */
  media: z.optional(z.object({ speech: z.boolean(), pictures: z.boolean() })),
});

export type ErrorDetail = z.infer<typeof errorDetailSchema>;
export type HealthView = z.infer<typeof healthResponse>;

/** The details of `409 draft_changed` (a draft saved elsewhere since `baseUpdatedAt`): its `updatedAt` now. */
export const draftChangedDetails = z.looseObject({ updatedAt: z.number() });

/** The details of `409 name_taken` when a draft's bot_name is one of the caller's cartridges: that name. */
export const nameTakenDetails = z.looseObject({ name: z.string() });

/**
 * The details of an offline reply (the engine answered instead of playing: a question, `/help`, a refusal;
 * engine/turn/offline.ts): `reason` says whether the player's words were answered in full.
 */
export const offlineReplyDetails = z.looseObject({
  kind: z.literal('reply'),
  reason: z.optional(z.string()),
});
