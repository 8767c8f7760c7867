// Model settings per principal: base URL, provider, model per role and temperature, stored on the server
// (never in page URLs) and used for that principal's turns. API keys are not settings: they stay in the
// server's environment. Choosing where requests go (base URL, provider) needs the operator's consent,
// `serve --allow-user-base-url`, because those requests carry the server's key.

import { modelSettingsSchema, type PrincipalModels } from '../../../engine/session/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { settingsResponse } from '../../contract/index.ts';
import { errorSchema } from '../schemas.ts';

async function settingsView(models: PrincipalModels, principalId: string) {
  const state = await models.settingsOf(principalId);
  return {
    settings: state.settings,
    updatedAt: state.updatedAt,
    problem: state.problem,
    server: models.describeServer(),
  };
}

/** Why settings cannot be used, as the API's error: 403 for what the operator forbids, 422 unusable. */
function planRefusal(plan: Extract<ReturnType<PrincipalModels['plan']>, { ok: false }>): ApiError {
  switch (plan.reason) {
    case 'endpoint-not-allowed':
      return new ApiError(403, 'base_url_not_allowed', plan.message);
    case 'model-not-allowed':
      return new ApiError(403, 'model_not_allowed', plan.message);
    case 'unusable':
      return new ApiError(422, 'settings_unusable', plan.message);
    default: {
      const unreachable: never = plan.reason;
      return new ApiError(500, 'internal', String(unreachable));
    }
  }
}

const getSettings: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'get',
      path: '/v1/settings',
      tag: 'settings',
      summary:
        'The caller’s model settings, with the server’s own models and whether a base URL may be chosen.',
      responses: { 200: { description: 'The settings', schema: settingsResponse } },
    },
    async ({ c }) => c.json(await settingsView(deps.models, c.get('principal').id)),
  );

const putSettings: RouteDefinition = (api, deps) =>
  api.add(
    {
      method: 'put',
      path: '/v1/settings',
      tag: 'settings',
      summary:
        'Replace the caller’s model settings. Fields left out use the server’s; `{}` goes back to the server’s models. `baseUrl` and `provider` need a server started with `--allow-user-base-url`. No API key here: keys stay in the server environment.',
      body: modelSettingsSchema,
      responses: {
        200: { description: 'The stored settings', schema: settingsResponse },
        400: {
          description: 'Malformed settings (each problem names the field and the limit)',
          schema: errorSchema,
        },
        403: {
          description:
            '`base_url_not_allowed`: baseUrl or provider on a server without --allow-user-base-url',
          schema: errorSchema,
        },
        422: {
          description: '`settings_unusable`: the settings cannot make working models on this server',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      const principalId = c.get('principal').id;
      const plan = deps.models.plan(body);
      if (!plan.ok) throw planRefusal(plan);
      const stored = await deps.store.putModelSettings({ principalId, settings: body });
      if (!stored.ok) throw new ApiError(404, 'not_found', `principal ${principalId} not found`);
      return c.json(await settingsView(deps.models, principalId));
    },
  );

/** Every route of this file, in the order they are registered. */
export const SETTINGS_ROUTES: readonly RouteDefinition[] = [getSettings, putSettings];

export function registerSettingsRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, SETTINGS_ROUTES);
}
