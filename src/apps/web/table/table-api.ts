// The browser's client for a shared table (docs/multiplayer.md): the table, invitations, joining, the turn
// order, actions that are not streamed (a round's action, a whisper) and the member's live stream, read with
// fetch (EventSource cannot send the key) and the one SSE parser. Every answer the table view reads is parsed
// with the server's own schemas (server/table-responses.ts, through server/browser.ts).

import type { core } from 'zod/mini';
import {
  inviteCreatedResponse,
  type InviteView,
  joinedResponse,
  type TableResponse,
  tableResponse,
  tableSettingsResponse,
} from '../../server/browser.ts';
import { parseAnswer } from '../api.ts';
import { failureOf } from '../lib/errors.ts';
import { ApiHttp } from '../lib/http.ts';
import { jsonData, readSse } from '../lib/sse.ts';

export type { InviteView, TableResponse };

/** One message of the live stream: its event, data and (for numbered events) its id. */
export interface LiveMessage {
  readonly event: string;
  readonly id: string;
  readonly data: unknown;
}

export class TableApi {
  readonly #http: ApiHttp;

  constructor(base = '', apiKey: () => string | undefined = () => undefined) {
    this.#http = new ApiHttp(base, apiKey);
  }

  async #answer<S extends core.$ZodType>(
    schema: S,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<core.output<S>> {
    const answer = await this.#http.json(method, path, body === undefined ? undefined : { json: body });
    return parseAnswer(schema, answer, `${method} ${path}`);
  }

  table(sessionId: string): Promise<TableResponse> {
    return this.#answer(tableResponse, 'GET', `/v1/sessions/${encodeURIComponent(sessionId)}/table`);
  }

  async invite(sessionId: string): Promise<InviteView> {
    const made = await this.#answer(
      inviteCreatedResponse,
      'POST',
      `/v1/sessions/${encodeURIComponent(sessionId)}/invites`,
      {},
    );
    return made.invite;
  }

  join(code: string, body: { name?: string; guest?: boolean }) {
    return this.#answer(joinedResponse, 'POST', `/v1/invites/${encodeURIComponent(code)}/join`, body);
  }

  async setTurnOrder(sessionId: string, turnOrder: 'free' | 'rounds'): Promise<void> {
    await this.#answer(
      tableSettingsResponse,
      'PATCH',
      `/v1/sessions/${encodeURIComponent(sessionId)}/table`,
      { turnOrder },
    );
  }

  /** An action answered without a stream: a round's action (kept until the round plays) or a whisper. */
  async act(sessionId: string, input: string, whisper: boolean): Promise<void> {
    await this.#http.json('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/turns`, {
      json: { input, ...(whisper ? { whisper: true } : {}) },
    });
  }

  async closeRound(sessionId: string): Promise<void> {
    await this.#http.json('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/round`, { json: {} });
  }

  /** The member's live stream, from `lastEventId` when resuming; ends when the server or `signal` ends it. */
  async *live(
    sessionId: string,
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<LiveMessage> {
    const response = await this.#http.send(
      'GET',
      `/v1/sessions/${encodeURIComponent(sessionId)}/live`,
      undefined,
      {
        signal,
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      },
    );
    if (!response.ok || response.body === null) {
      const text = await response.text().catch(() => '');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      throw failureOf(response.status, body);
    }
    for await (const message of readSse(response.body, signal))
      yield { event: message.event, id: message.id, data: jsonData(message) };
  }
}
