// The browser's client for the MnesOS HTTP API (docs/api.md, /openapi.json). Response shapes are the
// server's own view functions' types (`import type`: no server code reaches the bundle). A turn is a POST
// that answers with `text/event-stream`; it is read with fetch and parsed here (EventSource cannot POST).

import type { z } from 'zod';
import type { Persona } from '../cartridge/index.ts';
import type { nodeView, saveView, sessionView, settingsResponse, turnView } from '../server/index.ts';
import { ApiFailure, failureOf } from './lib/errors.ts';
import { jsonData, readSse } from './lib/sse.ts';
import type { SchemaFieldView } from './lib/state-view.ts';

export type SessionView = ReturnType<typeof sessionView>;
export type NodeView = ReturnType<typeof nodeView>;
export type SaveView = ReturnType<typeof saveView>;
/** A turn as the server shows it; author mode adds `record`, `seed`, `ledgerEvents` and the full state. */
export type TurnView = ReturnType<typeof turnView> & {
  readonly record?: unknown;
  readonly seed?: number;
  readonly ledgerEvents?: unknown;
};

export interface CartridgeVersionView {
  readonly id: string;
  readonly name: string;
  readonly contentHash: string;
  readonly createdAt: number;
}
export interface CartridgeView {
  readonly name: string;
  readonly latest: CartridgeVersionView;
  readonly versionCount: number;
}
/** A persona as the server shows it: its fields beside its id. */
export interface PersonaView extends PersonaFields {
  readonly id: string;
}

/** What a player writes of a persona (`background` is shown as its description): the engine's own type. */
export type PersonaFields = Persona;

/** The live events of a turn, as the client handles them. */
export type StreamEvent =
  | { readonly type: 'start'; readonly turnId: string; readonly parentId: string | null }
  | { readonly type: 'phase'; readonly phase: string }
  | { readonly type: 'tool_call'; readonly round: number; readonly name: string; readonly args?: unknown }
  | {
      readonly type: 'tool_result';
      readonly round: number;
      readonly name: string;
      readonly ok: boolean;
      readonly content?: string;
    }
  | { readonly type: 'narration'; readonly text: string }
  | { readonly type: 'committed'; readonly turn: TurnView }
  | { readonly type: 'failed'; readonly failure: ApiFailure };

export type TurnBody =
  | { readonly input: string; readonly parentId?: string }
  | { readonly interaction: InteractionBody; readonly parentId?: string };

export interface InteractionBody {
  readonly minigame_id: string;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly metrics?: Record<string, string | number | boolean | (string | number | boolean)[]>;
  readonly data?: Record<string, unknown>;
}

export interface LedgerRow {
  readonly turnId: string;
  readonly depth: number;
  readonly position: number;
  readonly event: unknown;
}

export interface WorldView {
  readonly [key: string]: unknown;
}

export const MODEL_PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A principal's model settings as the form edits them (a field left undefined uses the server's). */
export interface ModelSettings {
  readonly provider?: ModelProvider | undefined;
  readonly baseUrl?: string | undefined;
  readonly models?: Partial<Record<'director' | 'narrator' | 'npc', string | undefined>> | undefined;
  readonly temperature?: number | undefined;
}

/** `GET`/`PUT /v1/settings`: the stored settings, the server's own models, and why they may not apply. */
export type SettingsView = z.infer<typeof settingsResponse>;

/** A branch read in one request: its newest turns, oldest first; `complete` when it starts at turn 0. */
export interface HistoryView {
  readonly turns: readonly TurnView[];
  readonly complete: boolean;
}

export interface AuthorEventResult {
  readonly record: {
    readonly event: string;
    readonly notes: readonly string[];
    readonly rolls: readonly unknown[];
    readonly stateAfter: unknown;
    readonly seed: number;
  };
  readonly turn?: TurnView;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one SSE message into a client event (unknown events are skipped: the server may add some). */
export function streamEventOf(event: string, data: unknown): StreamEvent | undefined {
  const d = isRecord(data) ? data : {};
  switch (event) {
    case 'start':
      return {
        type: 'start',
        turnId: String(d.turnId ?? ''),
        parentId: typeof d.parentId === 'string' ? d.parentId : null,
      };
    case 'phase':
      return { type: 'phase', phase: String(d.phase ?? '') };
    case 'tool_call':
      return { type: 'tool_call', round: Number(d.round ?? 0), name: String(d.name ?? ''), args: d.args };
    case 'tool_result':
      return {
        type: 'tool_result',
        round: Number(d.round ?? 0),
        name: String(d.name ?? ''),
        ok: d.ok === true,
        ...(typeof d.content === 'string' ? { content: d.content } : {}),
      };
    case 'narration':
      return typeof d.text === 'string' ? { type: 'narration', text: d.text } : undefined;
    case 'committed':
      return isRecord(d.turn) ? { type: 'committed', turn: d.turn as unknown as TurnView } : undefined;
    case 'error': {
      const status = typeof d.status === 'number' ? d.status : 500;
      return { type: 'failed', failure: failureOf(status, { error: d.error ?? d }) };
    }
    default:
      return undefined;
  }
}

export class Api {
  readonly #base: string;
  readonly #key: () => string | undefined;

  /** `apiKey` is read for each request (the settings screen may change it). */
  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#base = base;
    this.#key = apiKey;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    const key = this.#key();
    return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra };
  }

  async #request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const init: RequestInit = {
      method,
      headers: this.#headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (signal) init.signal = signal;
    const response = await fetch(this.#base + path, init);
    return (await this.#read(response)) as T;
  }

  async #read(response: Response): Promise<unknown> {
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw failureOf(response.status, parsed);
    return parsed;
  }

  health(): Promise<{
    status: string;
    models?: string;
    mode?: string;
    authorMode?: boolean;
    [k: string]: unknown;
  }> {
    return this.#request('GET', '/healthz');
  }

  async cartridges(): Promise<CartridgeView[]> {
    return listOf<CartridgeView>(await this.#request('GET', '/v1/cartridges'), 'cartridges');
  }

  async versions(name: string): Promise<CartridgeVersionView[]> {
    return listOf<CartridgeVersionView>(
      await this.#request('GET', `/v1/cartridges/${encodeURIComponent(name)}/versions`),
      'versions',
    );
  }

  /** Uploads a `.zip` or `.tar.gz` cartridge archive; validation problems arrive as an ApiFailure with `problems`. */
  async upload(
    file: Blob,
    fileName: string,
    name = cartridgeNameOf(fileName),
  ): Promise<{ version: CartridgeVersionView; warnings: unknown[] }> {
    const gz = /\.(tar\.gz|tgz)$/i.test(fileName);
    // A SillyTavern card or World Info file is imported (docs/sillytavern.md); the cartridge is named after it.
    const card = /\.(png|json|charx)$/i.exec(fileName)?.[1]?.toLowerCase();
    const query = name && card === undefined ? `?name=${encodeURIComponent(name)}` : '';
    const type =
      card === 'png'
        ? 'image/png'
        : card === 'json'
          ? 'application/json'
          : gz
            ? 'application/gzip'
            : 'application/zip';
    const response = await fetch(
      `${this.#base}/v1/cartridges${card === undefined ? '' : '/import'}${query}`,
      {
        method: 'POST',
        headers: this.#headers({ 'content-type': type }),
        body: file,
      },
    );
    const body = (await this.#read(response)) as Record<string, unknown>;
    return {
      version: itemOf<CartridgeVersionView>(body, 'version'),
      warnings: Array.isArray(body.warnings) ? body.warnings : [],
    };
  }

  async personas(): Promise<PersonaView[]> {
    return listOf<PersonaView>(await this.#request('GET', '/v1/personas'), 'personas');
  }

  async sessions(): Promise<SessionView[]> {
    return listOf<SessionView>(await this.#request('GET', '/v1/sessions'), 'sessions');
  }

  async createSession(body: {
    cartridge: string;
    personaId?: string | null;
    seed?: number;
    title?: string | null;
  }): Promise<{
    session: SessionView;
    turn: TurnView;
  }> {
    return this.#request('POST', '/v1/sessions', body);
  }

  async session(id: string): Promise<SessionView> {
    const body = await this.#request<Record<string, unknown>>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}`,
    );
    return itemOf<SessionView>(body, 'session');
  }

  async createPersona(fields: PersonaFields): Promise<PersonaView> {
    const body = await this.#request<Record<string, unknown>>('POST', '/v1/personas', fields);
    return itemOf<PersonaView>(body, 'persona');
  }

  async updatePersona(id: string, fields: Partial<PersonaFields>): Promise<PersonaView> {
    const body = await this.#request<Record<string, unknown>>(
      'PATCH',
      `/v1/personas/${encodeURIComponent(id)}`,
      fields,
    );
    return itemOf<PersonaView>(body, 'persona');
  }

  deletePersona(id: string): Promise<unknown> {
    return this.#request('DELETE', `/v1/personas/${encodeURIComponent(id)}`);
  }

  /** Who the player plays in a session from the next turn on (null: nobody in particular). */
  async setSessionPersona(id: string, personaId: string | null): Promise<SessionView> {
    const body = await this.#request<Record<string, unknown>>(
      'PATCH',
      `/v1/sessions/${encodeURIComponent(id)}`,
      {
        personaId,
      },
    );
    return itemOf<SessionView>(body, 'session');
  }

  deleteSession(id: string): Promise<unknown> {
    return this.#request('DELETE', `/v1/sessions/${encodeURIComponent(id)}`);
  }

  async tree(id: string): Promise<NodeView[]> {
    return listOf<NodeView>(
      await this.#request('GET', `/v1/sessions/${encodeURIComponent(id)}/tree`),
      'turns',
      'nodes',
    );
  }

  async turn(id: string, turnId: string, view: 'public' | 'full' = 'public'): Promise<TurnView> {
    const body = await this.#request<Record<string, unknown>>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/turns/${encodeURIComponent(turnId)}?view=${view}`,
    );
    return itemOf<TurnView>(body, 'turn');
  }

  /**
   * The branch ending at `turnId`, oldest first: its newest turns (the server caps an answer); when
   * `complete` is false, ask again from the oldest turn's parent.
   */
  async history(id: string, turnId: string): Promise<HistoryView> {
    const body = await this.#request(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/history?turnId=${encodeURIComponent(turnId)}`,
    );
    return {
      turns: listOf<TurnView>(body, 'turns'),
      complete: isRecord(body) && body.complete === true,
    };
  }

  async undo(id: string, expectedHeadId?: string): Promise<SessionView> {
    const body = await this.#request<Record<string, unknown>>(
      'POST',
      `/v1/sessions/${encodeURIComponent(id)}/undo`,
      expectedHeadId ? { expectedHeadId } : {},
    );
    return itemOf<SessionView>(body, 'session');
  }

  async moveHead(id: string, turnId: string, expectedHeadId?: string): Promise<SessionView> {
    const body = await this.#request<Record<string, unknown>>(
      'POST',
      `/v1/sessions/${encodeURIComponent(id)}/head`,
      {
        turnId,
        ...(expectedHeadId ? { expectedHeadId } : {}),
      },
    );
    return itemOf<SessionView>(body, 'session');
  }

  /** Streams a new turn. */
  playTurn(id: string, body: TurnBody, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.#stream(`/v1/sessions/${encodeURIComponent(id)}/turns`, body, signal);
  }

  /** Streams a new sibling of `turnId` (the head by default): the same input with a new seed. */
  regenerate(id: string, turnId?: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.#stream(
      `/v1/sessions/${encodeURIComponent(id)}/regenerate`,
      turnId ? { turnId } : {},
      signal,
    );
  }

  async *#stream(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const init: RequestInit = {
      method: 'POST',
      headers: this.#headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
      body: JSON.stringify(body),
    };
    if (signal) init.signal = signal;
    const response = await fetch(this.#base + path, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || response.body === null || !type.includes('text/event-stream')) {
      const parsed = await this.#read(response);
      // A JSON answer (an idempotent replay, or a server that does not stream): the committed turn.
      if (isRecord(parsed) && isRecord(parsed.turn))
        yield { type: 'committed', turn: parsed.turn as unknown as TurnView };
      return;
    }
    for await (const message of readSse(response.body, signal)) {
      // Data that is not JSON is a broken stream: an error, not a frame skipped in silence.
      const event = streamEventOf(message.event, jsonData(message));
      if (event) yield event;
    }
  }

  async state(
    id: string,
    turnId: string,
    view: 'public' | 'full' = 'public',
  ): Promise<Record<string, unknown>> {
    const body = await this.#request<Record<string, unknown>>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/state?turnId=${encodeURIComponent(turnId)}&view=${view}`,
    );
    return itemOf<Record<string, unknown>>(body, 'state');
  }

  /** The public fields of the session's cartridge schema (for bars). */
  async schema(id: string): Promise<SchemaFieldView[]> {
    return listOf<SchemaFieldView>(
      await this.#request('GET', `/v1/sessions/${encodeURIComponent(id)}/schema`),
      'fields',
    );
  }

  async world(id: string, turnId: string): Promise<WorldView> {
    return this.#request(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/world?turnId=${encodeURIComponent(turnId)}`,
    );
  }

  /** The ledger log of the branch ending at `turnId`: every event with the depth of the turn that made it. */
  async ledger(id: string, turnId: string): Promise<LedgerRow[]> {
    const body = await this.#request(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/ledger?turnId=${encodeURIComponent(turnId)}`,
    );
    return listOf<LedgerRow>(body, 'entries');
  }

  async saves(id: string): Promise<SaveView[]> {
    return listOf<SaveView>(
      await this.#request('GET', `/v1/sessions/${encodeURIComponent(id)}/saves`),
      'saves',
    );
  }

  async createSave(id: string, name: string, turnId?: string): Promise<SaveView> {
    const body = await this.#request<Record<string, unknown>>(
      'POST',
      `/v1/sessions/${encodeURIComponent(id)}/saves`,
      {
        name,
        ...(turnId ? { turnId } : {}),
      },
    );
    return itemOf<SaveView>(body, 'save');
  }

  deleteSave(id: string, saveId: string): Promise<unknown> {
    return this.#request(
      'DELETE',
      `/v1/sessions/${encodeURIComponent(id)}/saves/${encodeURIComponent(saveId)}`,
    );
  }

  runEvent(
    id: string,
    body: {
      event: string;
      inputs?: Record<string, unknown>;
      parentId?: string;
      commit?: boolean;
      seed?: number;
    },
  ): Promise<AuthorEventResult> {
    return this.#request('POST', `/v1/sessions/${encodeURIComponent(id)}/events`, body);
  }

  /** The caller's model settings, kept on the server (never in the page URL). */
  settings(): Promise<SettingsView> {
    return this.#request('GET', '/v1/settings');
  }

  /** Replaces the caller's model settings; empty fields are left out (the server's apply). */
  saveSettings(settings: ModelSettings): Promise<SettingsView> {
    return this.#request('PUT', '/v1/settings', settingsBody(settings));
  }
}

/** What `PUT /v1/settings` receives: blank fields dropped, model names trimmed. */
export function settingsBody(settings: ModelSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.provider !== undefined) body.provider = settings.provider;
  const baseUrl = settings.baseUrl?.trim();
  if (baseUrl) body.baseUrl = baseUrl;
  const models: Record<string, string> = {};
  for (const role of ['director', 'narrator', 'npc'] as const) {
    const name = settings.models?.[role]?.trim();
    if (name) models[role] = name;
  }
  if (Object.keys(models).length > 0) body.models = models;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  return body;
}

/** Characters of a cartridge name taken from an archive's file name (the server's name limit is larger). */
export const MAX_CARTRIDGE_NAME_CHARS = 100;

/** The cartridge name an archive's file name suggests (`lanternmere-v2.tar.gz` → `lanternmere-v2`). */
export function cartridgeNameOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/\.(tar\.gz|tgz|zip|tar)$/i, '')
    .trim()
    .slice(0, 100);
}

/** A list answer, bare or wrapped (`{cartridges: [...]}`). */
/** The object under `key` of an answer, or the answer itself when it is not wrapped. */
function itemOf<T>(body: Record<string, unknown>, key: string): T {
  const value = body[key];
  return (isRecord(value) ? value : body) as unknown as T;
}

function listOf<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (isRecord(body)) {
    for (const key of [...keys, 'items']) {
      const value = body[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  return [];
}

export { ApiFailure };
