// The model settings' client (docs/api.md, "Settings"): a principal's models, kept on the server (never in
// page URLs). Every answer is parsed with the contract's schema (apps/contract).

import { type ModelSettings, settingsResponse } from '../../contract/index.ts';
import type { ApiHttp } from '../lib/http.ts';

/** What `PUT /v1/settings` receives: blank fields dropped, model names trimmed. */
export function settingsBody(settings: ModelSettings): ModelSettings {
  const temperature = settings.temperature === undefined ? {} : { temperature: settings.temperature };
  const provider = settings.provider === undefined ? {} : { provider: settings.provider };
  // A model file belongs to provider file only: a path typed and then left behind is not sent.
  if (settings.provider === 'file') {
    // A local file has no base URL and no model names (the form hides them; stale ones are not sent).
    const modelFile = settings.modelFile?.trim();
    return { ...provider, ...(modelFile ? { modelFile } : {}), ...temperature };
  }
  const baseUrl = settings.baseUrl?.trim();
  const models: NonNullable<ModelSettings['models']> = {};
  for (const role of ['director', 'narrator', 'npc'] as const) {
    const name = settings.models?.[role]?.trim();
    if (name) models[role] = name;
  }
  return {
    ...provider,
    ...(baseUrl ? { baseUrl } : {}),
    ...(Object.keys(models).length > 0 ? { models } : {}),
    ...temperature,
  };
}

export class SettingsApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  /** The caller's model settings, kept on the server (never in the page URL). */
  read() {
    return this.#http.answer(settingsResponse, 'GET', '/v1/settings');
  }

  /** Replaces the caller's model settings; empty fields are left out (the server's apply). */
  save(settings: ModelSettings) {
    return this.#http.answer(settingsResponse, 'PUT', '/v1/settings', { json: settingsBody(settings) });
  }
}
