// The play screen's client (docs/api.md, "Sessions" and "Turns"): a session, its tree, turns and branches,
// the streamed turn, state, schema, world, ledger, saves and the author's event console. Every answer is
// parsed with the contract's schema (apps/contract) and every stream event with its event's schema.

import { safeParse } from 'zod/mini';
import {
  authorEventResponse,
  authorEventsResponse,
  childrenResponse,
  historyResponse,
  ledgerResponse,
  noTurnResponse,
  roundSubmittedResponse,
  saveResponse,
  savesResponse,
  schemaResponse,
  sessionResponse,
  stateResponse,
  type StreamEventOf,
  treeResponse,
  turnResponse,
  turnResultResponse,
  turnStreamEvents,
  worldResponse,
} from '../../contract/index.ts';
import { parseAnswer } from '../lib/answer.ts';
import { ApiFailure, failureOf } from '../lib/errors.ts';
import type { ApiHttp } from '../lib/http.ts';
import { eventOf, jsonData, openEventStream, readSse } from '../lib/sse.ts';
import type { InteractionBody } from '../minigames/interaction.ts';
import { roundKeptText } from '../table/round-kept.ts';

/**
 * The live events of a turn as the play screen reads them: the contract's events, an `error` event as
 * `failed` with the ApiFailure it describes, an `answered` one (no turn played) as `failed` with the engine's
 * reply (play-state.ts shows it next to the input: nothing failed, nothing was spent), and a malformed event
 * as `failed` with a `bad_response`.
 */
export type StreamEvent =
  | Exclude<StreamEventOf<typeof turnStreamEvents>, { readonly event: 'error' | 'answered' }>
  | { readonly event: 'failed'; readonly failure: ApiFailure };

/** What a turn request sends: the player's words or a mini-game's result (docs/api.md, "Turns"). */
export type TurnBody =
  | { readonly input: string; readonly parentId?: string; readonly strict?: boolean }
  | { readonly interaction: InteractionBody; readonly parentId?: string; readonly strict?: boolean };

/** What the author's console sends to run an event on a turn's state. */
export interface AuthorEventBody {
  readonly event: string;
  readonly inputs?: Record<string, unknown>;
  readonly parentId?: string;
  readonly commit?: boolean;
  readonly seed?: number;
}

const TURN_STREAM = 'the turn stream';

/** One message of a turn stream as a play event; undefined for an event this client does not know. */
export function streamEventOf(event: string, data: unknown): StreamEvent | undefined {
  const parsed = eventOf(turnStreamEvents, { event, data }, TURN_STREAM);
  if (parsed === undefined) return undefined;
  if (parsed instanceof ApiFailure) return { event: 'failed', failure: parsed };
  if (parsed.event === 'error')
    return { event: 'failed', failure: failureOf(parsed.data.status, { error: parsed.data.error }) };
  if (parsed.event === 'answered') return answeredOf(parsed.data);
  return parsed;
}

/** An answer without a turn as the engine's reply (the contract's offlineReplyDetails). */
function answeredOf(answer: { readonly reason: string; readonly text: string }): StreamEvent {
  const details = { kind: 'reply', reason: answer.reason };
  return { event: 'failed', failure: new ApiFailure(200, 'no_turn', answer.text, [], details) };
}

/**
 * A turn answered in one JSON document (an idempotent replay, or a 200 without a turn) as the stream's
 * `committed` event or the engine's reply; at a table playing in rounds, the action kept for the round
 * (202) as a reply too: nothing played yet, the words were taken.
 */
function committedOf(json: unknown, status: number): StreamEvent {
  try {
    const what = `${TURN_STREAM} (a JSON answer)`;
    if (status === 202) {
      const { submitted } = parseAnswer(roundSubmittedResponse, json, what, status);
      return answeredOf({ reason: 'round', text: roundKeptText(submitted) });
    }
    if (status === 200 && safeParse(noTurnResponse, json).success)
      return answeredOf(parseAnswer(noTurnResponse, json, what, status));
    const data = parseAnswer(turnResultResponse, json, what, status);
    return { event: 'committed', data };
  } catch (error) {
    if (error instanceof ApiFailure) return { event: 'failed', failure: error };
    throw error;
  }
}

const sessionPath = (id: string) => `/v1/sessions/${encodeURIComponent(id)}`;

export class PlayApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  async session(id: string) {
    return (await this.#http.answer(sessionResponse, 'GET', sessionPath(id))).session;
  }

  /** Who the player plays in a session from the next turn on (null: nobody in particular). */
  async setSessionPersona(id: string, personaId: string | null) {
    return (await this.#http.answer(sessionResponse, 'PATCH', sessionPath(id), { json: { personaId } }))
      .session;
  }

  /** The whole tree: every turn of the session as a node (read when the Tree panel opens, or a swipe). */
  async tree(id: string) {
    return (await this.#http.answer(treeResponse, 'GET', `${sessionPath(id)}/tree`)).turns;
  }

  /**
   * The tree near the end of a branch: the newest `limit` turns of the branch ending at `turnId` (the head
   * by default) and the siblings of each — what the story and its swipes need, whatever the game's length.
   */
  async treeAround(id: string, limit: number, turnId?: string) {
    const at = turnId ? `&turnId=${encodeURIComponent(turnId)}` : '';
    return (await this.#http.answer(treeResponse, 'GET', `${sessionPath(id)}/tree?limit=${limit}${at}`))
      .turns;
  }

  /** The turns played after `turnId` (its swipes and branches), by sibling index. */
  async children(id: string, turnId: string) {
    const path = `${sessionPath(id)}/turns/${encodeURIComponent(turnId)}/children`;
    return (await this.#http.answer(childrenResponse, 'GET', path)).turns;
  }

  async turn(id: string, turnId: string, view: 'public' | 'full' = 'public') {
    const path = `${sessionPath(id)}/turns/${encodeURIComponent(turnId)}?view=${view}`;
    return (await this.#http.answer(turnResponse, 'GET', path)).turn;
  }

  /**
   * The branch ending at `turnId`, oldest first: its newest turns (the server caps an answer); when
   * `complete` is false, ask again from the oldest turn's parent. `limit`: at most that many.
   */
  history(id: string, turnId: string, limit?: number) {
    const path = `${sessionPath(id)}/history?turnId=${encodeURIComponent(turnId)}${limit ? `&limit=${limit}` : ''}`;
    return this.#http.answer(historyResponse, 'GET', path);
  }

  async undo(id: string, expectedHeadId?: string) {
    const body = { json: expectedHeadId ? { expectedHeadId } : {} };
    return (await this.#http.answer(sessionResponse, 'POST', `${sessionPath(id)}/undo`, body)).session;
  }

  async moveHead(id: string, turnId: string, expectedHeadId?: string) {
    const body = { json: { turnId, ...(expectedHeadId ? { expectedHeadId } : {}) } };
    return (await this.#http.answer(sessionResponse, 'POST', `${sessionPath(id)}/head`, body)).session;
  }

  /** Streams a new turn. */
  playTurn(id: string, body: TurnBody, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.#stream(`${sessionPath(id)}/turns`, body, signal);
  }

  /** Streams a new sibling of `turnId` (the head by default): the same input with a new seed. */
  regenerate(id: string, turnId?: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.#stream(`${sessionPath(id)}/regenerate`, turnId ? { turnId } : {}, signal);
  }

  async *#stream(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const opened = await openEventStream(this.#http, path, body, signal);
    if (opened.kind === 'answer') {
      yield committedOf(opened.json, opened.status);
      return;
    }
    for await (const message of readSse(opened.body, signal)) {
      // Data that is not JSON is a broken stream: an error, not a frame skipped in silence.
      const event = streamEventOf(message.event, jsonData(message));
      if (event) yield event;
    }
  }

  async state(id: string, turnId: string, view: 'public' | 'full' = 'public') {
    const path = `${sessionPath(id)}/state?turnId=${encodeURIComponent(turnId)}&view=${view}`;
    return (await this.#http.answer(stateResponse, 'GET', path)).state;
  }

  /** The public fields of the session's cartridge schema (for bars). */
  async schema(id: string) {
    return (await this.#http.answer(schemaResponse, 'GET', `${sessionPath(id)}/schema`)).fields;
  }

  world(id: string, turnId: string) {
    const path = `${sessionPath(id)}/world?turnId=${encodeURIComponent(turnId)}`;
    return this.#http.answer(worldResponse, 'GET', path);
  }

  /** The ledger log of the branch ending at `turnId`: every event with the depth of the turn that made it. */
  async ledger(id: string, turnId: string) {
    const path = `${sessionPath(id)}/ledger?turnId=${encodeURIComponent(turnId)}`;
    return (await this.#http.answer(ledgerResponse, 'GET', path)).entries;
  }

  async saves(id: string) {
    return (await this.#http.answer(savesResponse, 'GET', `${sessionPath(id)}/saves`)).saves;
  }

  async createSave(id: string, name: string, turnId?: string) {
    const body = { json: { name, ...(turnId ? { turnId } : {}) } };
    return (await this.#http.answer(saveResponse, 'POST', `${sessionPath(id)}/saves`, body)).save;
  }

  deleteSave(id: string, saveId: string): Promise<void> {
    return this.#http.done('DELETE', `${sessionPath(id)}/saves/${encodeURIComponent(saveId)}`);
  }

  /** The session's events with their inputs (author mode), for the event console. */
  async authorEvents(id: string) {
    return (await this.#http.answer(authorEventsResponse, 'GET', `${sessionPath(id)}/events`)).events;
  }

  runEvent(id: string, body: AuthorEventBody) {
    return this.#http.answer(authorEventResponse, 'POST', `${sessionPath(id)}/events`, { json: body });
  }
}
