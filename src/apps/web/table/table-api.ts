// The browser's client for a shared table (docs/multiplayer.md): the table, invitations, joining, the turn
// order, actions that are not streamed (a round's action, a whisper) and the member's live stream, read with
// fetch (EventSource cannot send the key) and the one SSE parser. Every answer the table view reads is parsed
// with the contract's schemas (contract/table.ts).

import {
  inviteCreatedResponse,
  type InviteView,
  joinedResponse,
  liveStreamEvents,
  type LiveStreamEvent,
  type TableResponse,
  tableResponse,
  tableSettingsResponse,
} from '../../contract/index.ts';
import { type ApiFailure, readAnswer } from '../lib/errors.ts';
import type { ApiHttp } from '../lib/http.ts';
import { eventOf, jsonData, readSse } from '../lib/sse.ts';

export type { InviteView, TableResponse };

/**
 * One message of the live stream: its id ('' for an unnumbered event) and its event parsed with the
 * contract's schema: a `bad_response` failure when it does not match, undefined for an event this client
 * does not know (a newer server's), whose id still counts.
 */
export interface LiveMessage {
  readonly id: string;
  readonly event: LiveStreamEvent | ApiFailure | undefined;
}

const LIVE_STREAM = 'the table’s live stream';

export class TableApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  table(sessionId: string): Promise<TableResponse> {
    return this.#http.answer(tableResponse, 'GET', `/v1/sessions/${encodeURIComponent(sessionId)}/table`);
  }

  async invite(sessionId: string): Promise<InviteView> {
    const made = await this.#http.answer(
      inviteCreatedResponse,
      'POST',
      `/v1/sessions/${encodeURIComponent(sessionId)}/invites`,
      { json: {} },
    );
    return made.invite;
  }

  join(code: string, body: { name?: string; guest?: boolean }) {
    return this.#http.answer(joinedResponse, 'POST', `/v1/invites/${encodeURIComponent(code)}/join`, {
      json: body,
    });
  }

  async setTurnOrder(sessionId: string, turnOrder: 'free' | 'rounds'): Promise<void> {
    await this.#http.answer(
      tableSettingsResponse,
      'PATCH',
      `/v1/sessions/${encodeURIComponent(sessionId)}/table`,
      { json: { turnOrder } },
    );
  }

  /** An action answered without a stream: a round's action (kept until the round plays) or a whisper. */
  async act(sessionId: string, input: string, whisper: boolean): Promise<void> {
    await this.#http.done('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/turns`, {
      json: { input, ...(whisper ? { whisper: true } : {}) },
    });
  }

  async closeRound(sessionId: string): Promise<void> {
    await this.#http.done('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/round`, { json: {} });
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
    // An error status is thrown as the ApiFailure it describes; a success without a body ends at once.
    if (!response.ok || response.body === null) {
      await readAnswer(response);
      return;
    }
    for await (const message of readSse(response.body, signal)) {
      const event = eventOf(liveStreamEvents, { event: message.event, data: jsonData(message) }, LIVE_STREAM);
      yield { id: message.id, event };
    }
  }
}
