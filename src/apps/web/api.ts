// The browser's client for the MnesOS HTTP API (docs/api.md, /openapi.json). Every answer the client reads
// field by field is parsed with the server's own schema (server/responses.ts, through server/browser.ts),
// so an answer that does not match is an ApiFailure (`bad_response`) naming the fields, never a view built
// on a cast. A turn is a POST that answers with `text/event-stream`; it is read with fetch and parsed here
// (EventSource cannot POST).

import { type core, safeParse } from 'zod/mini';
import type { Persona } from '../../core/cartridge/index.ts';
import {
  type AuthorEventResult,
  type AuthorEventsView,
  authorEventResponse,
  authorEventsResponse,
  type CartridgeVersionView,
  type CartridgeView,
  cartridgesResponse,
  createdSessionResponse,
  type HistoryView,
  historyResponse,
  type LedgerRow,
  ledgerResponse,
  MODEL_PROVIDERS,
  type ModelSettings,
  type NodeView,
  noTurnResponse,
  type PersonaView,
  personaResponse,
  personasResponse,
  responseProblems,
  type SaveView,
  type SchemaFieldView,
  type SessionView,
  saveResponse,
  savesResponse,
  schemaResponse,
  sessionResponse,
  sessionsResponse,
  type SettingsView,
  settingsResponse,
  stateResponse,
  type TurnView,
  treeResponse,
  turnResponse,
  turnViewSchema,
  uploadResponse,
  versionsResponse,
  worldResponse,
} from '../server/browser.ts';
import { ApiFailure, failureOf, readAnswer } from './lib/errors.ts';
import { ApiHttp } from './lib/http.ts';
import { jsonData, readSse } from './lib/sse.ts';
import { isRecord } from '../../core/is-record.ts';

/** A turn as the server shows it; author mode adds `record`, `seed`, `ledgerEvents` and the full state. */
export type {
  AuthorEventResult,
  AuthorEventsView,
  CartridgeVersionView,
  CartridgeView,
  LedgerRow,
  NodeView,
  PersonaView,
  SaveView,
  SessionView,
  TurnView,
};
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
  | { readonly input: string; readonly parentId?: string; readonly strict?: boolean }
  | { readonly interaction: InteractionBody; readonly parentId?: string; readonly strict?: boolean };

export interface InteractionBody {
  readonly minigame_id: string;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly metrics?: Record<string, string | number | boolean | (string | number | boolean)[]>;
  readonly data?: Record<string, unknown>;
}

export interface WorldView {
  readonly [key: string]: unknown;
}

export { MODEL_PROVIDERS };
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/**
 * A principal's model settings as the form edits them (a field left undefined uses the server's); the
 * answers of `GET`/`PUT /v1/settings` (SettingsView) and of a branch read in one request (HistoryView).
 */
export type { HistoryView, ModelSettings, SettingsView };

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
      return committedEvent(d.turn);
    case 'answered':
      return answeredEvent(d);
    case 'error': {
      const status = typeof d.status === 'number' ? d.status : 500;
      return { type: 'failed', failure: failureOf(status, { error: d.error ?? d }) };
    }
    default:
      return undefined;
  }
}

/**
 * An answer parsed with the server's schema. One that does not match is an ApiFailure `bad_response` whose
 * message names the request and the first fields that are wrong (the UI shows failures' messages).
 */
export function parseAnswer<S extends core.$ZodType>(
  schema: S,
  body: unknown,
  request: string,
  status = 200,
): core.output<S> {
  const result = safeParse(schema, body, { reportInput: true });
  if (result.success) return result.data;
  const problems = responseProblems(result.error);
  const shown = problems.slice(0, MAX_SHOWN_PROBLEMS).join('; ');
  const more =
    problems.length > MAX_SHOWN_PROBLEMS ? ` (and ${problems.length - MAX_SHOWN_PROBLEMS} more)` : '';
  return failWith(
    new ApiFailure(
      status,
      'bad_response',
      `the server's answer to ${request} is not what this client expects: ${shown}${more}`,
      [],
      { problems },
    ),
  );
}

/** Field problems named in a bad_response message; the rest are counted. */
export const MAX_SHOWN_PROBLEMS = 3;

function failWith(failure: ApiFailure): never {
  throw failure;
}

/**
 * An answer without a turn (`answered` stream event, or a 200 `{played: false}`): the play screen shows it
 * as the engine's reply next to the input (play-state.ts reads `details.kind: 'reply'` and the reason), so
 * it travels as the one kind of stream event that ends a turn without one. Nothing failed.
 */
function answeredEvent(body: unknown): StreamEvent {
  try {
    const answer = parseAnswer(noTurnResponse, body, 'the turn stream (answered)');
    const details = { kind: 'reply', reason: answer.reason };
    return { type: 'failed', failure: new ApiFailure(200, 'no_turn', answer.text, [], details) };
  } catch (error) {
    if (error instanceof ApiFailure) return { type: 'failed', failure: error };
    throw error;
  }
}

/** A `committed` stream event: the turn parsed, or a failure naming what is wrong with it. */
function committedEvent(turn: unknown): StreamEvent {
  try {
    return { type: 'committed', turn: parseAnswer(turnViewSchema, turn, 'the turn stream (committed)') };
  } catch (error) {
    if (error instanceof ApiFailure) return { type: 'failed', failure: error };
    throw error;
  }
}

export class Api {
  readonly #http: ApiHttp;

  /** `apiKey` is read for each request (the settings screen may change it). */
  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#http = new ApiHttp(base, apiKey);
  }

  async #request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const json = body === undefined ? undefined : { json: body };
    return (await this.#http.json(method, path, json, signal ? { signal } : {})) as T;
  }

  /** A request whose answer is parsed with the server's schema (see parseAnswer). */
  async #answer<S extends core.$ZodType>(
    schema: S,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<core.output<S>> {
    return parseAnswer(schema, await this.#request(method, path, body), `${method} ${path}`);
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
    return (await this.#answer(cartridgesResponse, 'GET', '/v1/cartridges')).cartridges;
  }

  async versions(name: string): Promise<CartridgeVersionView[]> {
    const path = `/v1/cartridges/${encodeURIComponent(name)}/versions`;
    return (await this.#answer(versionsResponse, 'GET', path)).versions;
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
    const path = `/v1/cartridges${card === undefined ? '' : '/import'}${query}`;
    const response = await this.#http.send('POST', path, { raw: file, type });
    const body = parseAnswer(uploadResponse, await readAnswer(response), `POST ${path}`, response.status);
    return { version: body.version, warnings: body.warnings ?? [] };
  }

  async personas(): Promise<PersonaView[]> {
    return (await this.#answer(personasResponse, 'GET', '/v1/personas')).personas;
  }

  /** One page of the player's sessions, most recently played first; `nextCursor` asks for the next one. */
  async sessions(cursor?: string): Promise<{ sessions: SessionView[]; nextCursor: string | null }> {
    const path = cursor === undefined ? '/v1/sessions' : `/v1/sessions?cursor=${encodeURIComponent(cursor)}`;
    const page = await this.#answer(sessionsResponse, 'GET', path);
    return { sessions: page.sessions, nextCursor: page.nextCursor };
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
    return this.#answer(createdSessionResponse, 'POST', '/v1/sessions', body);
  }

  async session(id: string): Promise<SessionView> {
    return (await this.#answer(sessionResponse, 'GET', `/v1/sessions/${encodeURIComponent(id)}`)).session;
  }

  async createPersona(fields: PersonaFields): Promise<PersonaView> {
    return (await this.#answer(personaResponse, 'POST', '/v1/personas', fields)).persona;
  }

  async updatePersona(id: string, fields: Partial<PersonaFields>): Promise<PersonaView> {
    const path = `/v1/personas/${encodeURIComponent(id)}`;
    return (await this.#answer(personaResponse, 'PATCH', path, fields)).persona;
  }

  deletePersona(id: string): Promise<unknown> {
    return this.#request('DELETE', `/v1/personas/${encodeURIComponent(id)}`);
  }

  /** Who the player plays in a session from the next turn on (null: nobody in particular). */
  async setSessionPersona(id: string, personaId: string | null): Promise<SessionView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}`;
    return (await this.#answer(sessionResponse, 'PATCH', path, { personaId })).session;
  }

  deleteSession(id: string): Promise<unknown> {
    return this.#request('DELETE', `/v1/sessions/${encodeURIComponent(id)}`);
  }

  async tree(id: string): Promise<NodeView[]> {
    return (await this.#answer(treeResponse, 'GET', `/v1/sessions/${encodeURIComponent(id)}/tree`)).turns;
  }

  async turn(id: string, turnId: string, view: 'public' | 'full' = 'public'): Promise<TurnView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/turns/${encodeURIComponent(turnId)}?view=${view}`;
    return (await this.#answer(turnResponse, 'GET', path)).turn;
  }

  /**
   * The branch ending at `turnId`, oldest first: its newest turns (the server caps an answer); when
   * `complete` is false, ask again from the oldest turn's parent.
   */
  async history(id: string, turnId: string): Promise<HistoryView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/history?turnId=${encodeURIComponent(turnId)}`;
    return this.#answer(historyResponse, 'GET', path);
  }

  async undo(id: string, expectedHeadId?: string): Promise<SessionView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/undo`;
    return (await this.#answer(sessionResponse, 'POST', path, expectedHeadId ? { expectedHeadId } : {}))
      .session;
  }

  async moveHead(id: string, turnId: string, expectedHeadId?: string): Promise<SessionView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/head`;
    const body = { turnId, ...(expectedHeadId ? { expectedHeadId } : {}) };
    return (await this.#answer(sessionResponse, 'POST', path, body)).session;
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
    const response = await this.#http.send(
      'POST',
      path,
      { json: body },
      { headers: { accept: 'text/event-stream' }, ...(signal ? { signal } : {}) },
    );
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || response.body === null || !type.includes('text/event-stream')) {
      const parsed = await readAnswer(response);
      // A JSON answer (an idempotent replay, or a server that does not stream): the committed turn, or
      // the engine's answer without one.
      if (isRecord(parsed) && parsed.turn !== undefined) yield committedEvent(parsed.turn);
      else if (isRecord(parsed) && parsed.played === false) yield answeredEvent(parsed);
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
    const path = `/v1/sessions/${encodeURIComponent(id)}/state?turnId=${encodeURIComponent(turnId)}&view=${view}`;
    return (await this.#answer(stateResponse, 'GET', path)).state;
  }

  /** The public fields of the session's cartridge schema (for bars). */
  async schema(id: string): Promise<SchemaFieldView[]> {
    return (await this.#answer(schemaResponse, 'GET', `/v1/sessions/${encodeURIComponent(id)}/schema`))
      .fields;
  }

  async world(id: string, turnId: string): Promise<WorldView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/world?turnId=${encodeURIComponent(turnId)}`;
    return this.#answer(worldResponse, 'GET', path);
  }

  /** The ledger log of the branch ending at `turnId`: every event with the depth of the turn that made it. */
  async ledger(id: string, turnId: string): Promise<LedgerRow[]> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/ledger?turnId=${encodeURIComponent(turnId)}`;
    return (await this.#answer(ledgerResponse, 'GET', path)).entries;
  }

  async saves(id: string): Promise<SaveView[]> {
    return (await this.#answer(savesResponse, 'GET', `/v1/sessions/${encodeURIComponent(id)}/saves`)).saves;
  }

  async createSave(id: string, name: string, turnId?: string): Promise<SaveView> {
    const path = `/v1/sessions/${encodeURIComponent(id)}/saves`;
    return (await this.#answer(saveResponse, 'POST', path, { name, ...(turnId ? { turnId } : {}) })).save;
  }

  deleteSave(id: string, saveId: string): Promise<unknown> {
    return this.#request(
      'DELETE',
      `/v1/sessions/${encodeURIComponent(id)}/saves/${encodeURIComponent(saveId)}`,
    );
  }

  /** The session's events with their inputs (author mode), for the event console. */
  async authorEvents(id: string): Promise<AuthorEventsView['events']> {
    return (await this.#answer(authorEventsResponse, 'GET', `/v1/sessions/${encodeURIComponent(id)}/events`))
      .events;
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
    return this.#answer(authorEventResponse, 'POST', `/v1/sessions/${encodeURIComponent(id)}/events`, body);
  }

  /** The caller's model settings, kept on the server (never in the page URL). */
  settings(): Promise<SettingsView> {
    return this.#answer(settingsResponse, 'GET', '/v1/settings');
  }

  /** Replaces the caller's model settings; empty fields are left out (the server's apply). */
  saveSettings(settings: ModelSettings): Promise<SettingsView> {
    return this.#answer(settingsResponse, 'PUT', '/v1/settings', settingsBody(settings));
  }
}

/** What `PUT /v1/settings` receives: blank fields dropped, model names trimmed. */
export function settingsBody(settings: ModelSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.provider !== undefined) body.provider = settings.provider;
  // A model file belongs to provider file only: a path typed and then left behind is not sent.
  const modelFile = settings.modelFile?.trim();
  if (settings.provider === 'file') {
    // A local file has no base URL and no model names (the form hides them; stale ones are not sent).
    if (modelFile) body.modelFile = modelFile;
    if (settings.temperature !== undefined) body.temperature = settings.temperature;
    return body;
  }
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

export { ApiFailure };
