// `GET /v1/minigames`: the mini-game directory (the original's `/api/minigames`): each game's manifest
// (difficulty, assets and hook settings, result metrics, how to play it by keyboard and screen reader)
// with its config as JSON Schema. `GET /v1/minigames/:id` is one of them.

import { z } from 'zod';
import { configJsonSchema, MINIGAMES, type MinigameManifest } from '../../../core/minigames/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { type MinigameView, minigameViewSchema, minigamesResponse } from '../../contract/index.ts';
import { errorSchema } from '../schemas.ts';

function view(manifest: MinigameManifest): MinigameView {
  return { ...manifest, config_schema: configJsonSchema(manifest) };
}

export function registerMinigameRoutes(api: RouteRegistry, _deps: AppDeps): void {
  // The manifests are fixed: their views (with the config JSON Schema) are built once, not per request.
  const views = new Map(MINIGAMES.map((manifest) => [manifest.minigame_id, view(manifest)]));
  const all = { minigames: [...views.values()] };
  api.add(
    {
      method: 'get',
      path: '/v1/minigames',
      tag: 'system',
      summary: 'The mini-games a cartridge may start: config settings, result metrics, hooks, accessibility.',
      responses: {
        200: { description: 'The manifests', schema: minigamesResponse },
      },
    },
    async ({ c }) => c.json(all),
  );
  api.add(
    {
      method: 'get',
      path: '/v1/minigames/:id',
      tag: 'system',
      summary: 'One mini-game manifest.',
      params: z.object({ id: z.string().max(200) }),
      responses: {
        200: { description: 'The manifest', schema: minigameViewSchema },
        404: { description: 'No such mini-game', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const shown = views.get(params.id);
      if (!shown)
        throw new ApiError(
          404,
          'not_found',
          `no mini-game '${params.id}'; known: ${MINIGAMES.map((m) => m.minigame_id).join(', ')}`,
        );
      return c.json(shown);
    },
  );
}
