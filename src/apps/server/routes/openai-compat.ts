// An OpenAI-compatible endpoint, so any chat front end (SillyTavern's "Custom (OpenAI-compatible)" source,
// the `openai` SDK) can play a cartridge: `GET /openai/v1/models` lists the caller's cartridges and sessions
// as model ids, `POST /openai/v1/chat/completions` plays turns (streamed as SillyTavern reads them, or as one
// JSON answer). API keys are bearer tokens, as on /v1.
//
// A front end sends the whole transcript each time; it is mapped onto the turn tree (docs/sillytavern.md):
// - the conversation is the caller's session (of the model's cartridge) whose tree holds the most of the
//   transcript's exchanges, or a new session when none holds any (a `session:<id>` model names one);
// - a new player message plays a turn after the deepest matching turn;
// - a player message that the tree already answered is a swipe/regenerate: a sibling is played; the same
//   request again within RETRY_WINDOW_MS, or again with the same `Idempotency-Key`, is a retry: the stored
//   turn is sent back and nothing is played twice;
// - an edited history branches at the last turn that still matches; the edited part is player context;
// - a transcript ending with the assistant's message is "continue": a turn extends the narration;
// - system messages (the front end's prompts, persona, World Info) are player context, never rules.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { inputText, type PreparedTurn, SessionError } from '../../../engine/session/index.ts';
import type { Session, Turn, TurnMessage } from '../../../adapters/store/index.ts';
import { authenticate } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError, fromSessionError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  CONTINUE_INPUT,
  childWithInput,
  editedHistoryContext,
  walkExchanges,
} from '../openai/conversation.ts';
import { detailsBlock } from '../openai/details.ts';
import {
  type Exchange,
  MAX_PLAYER_CONTEXT_CHARS,
  MAX_TRANSCRIPT_MESSAGES,
  normalized,
  readTranscript,
  type Transcript,
} from '../openai/transcript.ts';
import { rateLimit } from '../rate-limit.ts';

export const OPENAI_PREFIX = '/openai/v1';
/** An identical request within this many milliseconds of the turn it produced is a retry, not a swipe. */
export const RETRY_WINDOW_MS = 5_000;
/** Sessions of one cartridge searched for the transcript (newest first). */
export const MAX_CANDIDATE_SESSIONS = 20;
/** Sessions looked at (newest first) to find those of the model's cartridge. */
export const MAX_SESSIONS_EXAMINED = 200;
/** Model ids listed (cartridges, then sessions). */
export const MAX_LISTED_MODELS = 200;
const SESSION_MODEL = 'session:';

const chatBody = z.looseObject({
  model: z.string().max(300).optional(),
  messages: z
    .array(
      z.looseObject({
        role: z.string().max(32),
        content: z
          .union([
            z.string(),
            z.array(z.looseObject({ type: z.string().max(64), text: z.string().optional() })),
            z.null(),
          ])
          .optional(),
        name: z.string().max(200).optional(),
      }),
    )
    .min(1)
    .max(MAX_TRANSCRIPT_MESSAGES),
  stream: z.boolean().optional(),
  /** Append the turn's dice and public state changes to the prose. */
  mnesos_details: z.boolean().optional(),
});
type ChatBody = z.infer<typeof chatBody>;

const errorSchema = z.object({ error: z.object({ message: z.string(), code: z.string() }).loose() });

function openAiError(
  status: ConstructorParameters<typeof ApiError>[0],
  code: string,
  message: string,
  type = 'invalid_request_error',
): ApiError {
  return new ApiError(status, code, message, { type });
}

interface Conversation {
  readonly session: Session;
  readonly cartridge: Cartridge;
  readonly model: string;
  readonly parent: TurnMessage;
  readonly input: string;
  readonly context: string;
  readonly trigger: 'normal' | 'swipe' | 'continue';
  /** A turn to send back instead of playing (a retried request). */
  readonly replay?: TurnMessage;
}

/**
 * Where the transcript sits in one session: walked from the first message, or — when the front end cut the
 * oldest messages to fit its context (SillyTavern does) — from the turn on the head's branch where the
 * transcript's first exchange was played. The walk that holds more of the transcript wins.
 */
async function walkSession(
  deps: AppDeps,
  session: Session,
  exchanges: readonly Exchange[],
): Promise<{ genesis: TurnMessage; matched: number; node: TurnMessage }> {
  const lineage = (await deps.store.getLineage(session.id, session.headTurnId)) ?? [];
  const genesis = lineage.find((t) => t.parentId === null);
  if (genesis === undefined)
    throw openAiError(500, 'internal', `session ${session.id} has no first turn`, 'server_error');
  const fromStart = await walkExchanges(deps.store, session.id, genesis, exchanges);
  const first = exchanges[0];
  if (first === undefined || fromStart.matched > 0) return { genesis, ...fromStart };
  // The newest turn of the branch that played the first exchange: the transcript starts at its parent.
  const wanted = normalized(first.user);
  for (let i = lineage.length - 1; i > 0; i--) {
    const turn = lineage[i]!;
    if (normalized(inputText(turn.input) ?? '') !== wanted) continue;
    const parent = lineage[i - 1]!;
    const fromAnchor = await walkExchanges(deps.store, session.id, parent, exchanges);
    if (fromAnchor.matched > 0) return { genesis, ...fromAnchor };
  }
  return { genesis, ...fromStart };
}

/** The session (existing or new) the transcript belongs to, and how far its tree holds the transcript. */
async function findSession(
  deps: AppDeps,
  principalId: string,
  model: string,
  transcript: Transcript,
): Promise<{ session: Session; genesis: TurnMessage; matched: number; node: TurnMessage }> {
  const { store, service } = deps;
  const exchanges = transcript.exchanges;
  if (model.startsWith(SESSION_MODEL)) {
    const session = await service.getSession(principalId, model.slice(SESSION_MODEL.length));
    return { session, ...(await walkSession(deps, session, exchanges)) };
  }
  let name = model;
  if (name === '') {
    const offered = await store.listOwnedCartridges(principalId);
    if (offered.length !== 1)
      throw openAiError(
        404,
        'model_not_found',
        'choose a model: GET /openai/v1/models lists the cartridges and sessions',
      );
    name = offered[0]!.name;
  }
  const versionId = await store.resolveCartridgeName(principalId, name);
  if (versionId === undefined)
    throw openAiError(
      404,
      'model_not_found',
      `no cartridge or session "${model}" (GET /openai/v1/models lists them)`,
    );
  // Versions are immutable: their names come from the library's memory, not from a read of each row.
  const names = new Map<string, string | undefined>();
  const sessions = (await store.listSessions(principalId))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, MAX_SESSIONS_EXAMINED);
  let best:
    | { session: Session; genesis: TurnMessage; matched: number; node: TurnMessage; score: number }
    | undefined;
  let searched = 0;
  for (const session of sessions) {
    if (searched >= MAX_CANDIDATE_SESSIONS) break;
    if (!names.has(session.cartridgeVersionId))
      names.set(session.cartridgeVersionId, (await deps.library.version(session.cartridgeVersionId))?.name);
    if (names.get(session.cartridgeVersionId) !== name) continue;
    searched++;
    const walk = await walkSession(deps, session, exchanges);
    let score = walk.matched;
    if (transcript.kind === 'reply' && walk.matched === exchanges.length) {
      if ((await childWithInput(store, session.id, walk.node, transcript.user)).length > 0) score += 0.5;
    }
    if (score > 0 && (best === undefined || score > best.score)) best = { session, ...walk, score };
  }
  if (best !== undefined) return best;
  const created = await service.createSession(principalId, {
    cartridgeVersion: versionId,
    title: `Chat (${name})`,
  });
  const genesis = created.turn;
  const walk = await walkExchanges(store, created.session.id, genesis, exchanges);
  return { session: created.session, genesis, ...walk };
}

async function resolveConversation(
  deps: AppDeps,
  principalId: string,
  body: ChatBody,
  transcript: Transcript,
  hasIdempotencyKey: boolean,
  now: number,
): Promise<Conversation> {
  const model = body.model ?? '';
  const found = await findSession(deps, principalId, model, transcript);
  const { cartridge } = await deps.service.cartridgeOf(found.session);
  const unmatched = transcript.exchanges.slice(found.matched);
  // A front end may open with another greeting (SillyTavern offers a card's alternate greetings as swipes
  // of the first message): the Narrator is told which one the player sees.
  const greeting =
    transcript.greeting.trim() !== '' &&
    normalized(transcript.greeting) !== normalized(found.genesis.narration)
      ? `The player's chat opened with this greeting (instead of the game's own):\n${transcript.greeting.trim()}`
      : '';
  const context = boundedContext([greeting, editedHistoryContext(unmatched), transcript.context]);
  const base = {
    session: found.session,
    cartridge,
    model: model || cartridge.name,
    parent: found.node,
    context,
  };
  if (transcript.kind === 'continue') return { ...base, input: CONTINUE_INPUT, trigger: 'continue' };
  if (unmatched.length > 0) return { ...base, input: transcript.user, trigger: 'normal' };
  const answered = await childWithInput(deps.store, found.session.id, found.node, transcript.user);
  const newest = answered[0];
  if (newest === undefined) return { ...base, input: transcript.user, trigger: 'normal' };
  if (!hasIdempotencyKey && now - newest.createdAt <= RETRY_WINDOW_MS)
    return { ...base, input: transcript.user, trigger: 'swipe', replay: newest };
  return { ...base, input: transcript.user, trigger: 'swipe' };
}

function idempotencyKeyOf(header: string | undefined, sessionId: string): string | undefined {
  if (header === undefined) return undefined;
  if (header.length < 1 || header.length > 200)
    throw openAiError(400, 'invalid_request', 'Idempotency-Key must be 1 to 200 characters');
  // Scoped to the conversation, and of a fixed length whatever the client sent.
  return `openai:${createHash('sha256').update(`${sessionId}\0${header}`).digest('hex').slice(0, 40)}`;
}

/** The player context from its pieces, cut at MAX_PLAYER_CONTEXT_CHARS (the start is kept). */
function boundedContext(pieces: readonly string[]): string {
  const text = pieces.filter((t) => t !== '').join('\n\n');
  return text.length <= MAX_PLAYER_CONTEXT_CHARS ? text : `${text.slice(0, MAX_PLAYER_CONTEXT_CHARS - 1)}…`;
}

function completionId(turnId: string): string {
  return `chatcmpl-${turnId}`;
}

/** SillyTavern's stream: `data: {json}` events (no `event:` lines), then `data: [DONE]`. */
function dataEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function chunk(
  id: string,
  model: string,
  created: number,
  delta: Record<string, unknown>,
  finish: string | null,
) {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function errorPayload(error: unknown): { status: number; body: { error: Record<string, unknown> } } {
  const api =
    error instanceof ApiError
      ? error
      : error instanceof SessionError
        ? fromSessionError(error)
        : openAiError(500, 'internal', 'the turn failed', 'server_error');
  return {
    status: api.status,
    body: {
      error: {
        message: api.message,
        type: api.status >= 500 ? 'server_error' : 'invalid_request_error',
        code: api.code,
        ...api.details,
      },
    },
  };
}

/** An offline "reply" (the engine answered a question instead of playing): shown, never stored. */
function offlineReply(error: unknown): string | undefined {
  return error instanceof SessionError && error.details.kind === 'reply' ? error.message : undefined;
}

export function registerOpenAiCompatRoutes(api: RouteRegistry, deps: AppDeps): void {
  api.app.use(`${OPENAI_PREFIX}/*`, authenticate(deps.auth));
  api.app.use(`${OPENAI_PREFIX}/*`, rateLimit(deps.limits.rateLimit, deps.limits.rateWindowMs));

  api.add(
    {
      method: 'get',
      path: `${OPENAI_PREFIX}/models`,
      tag: 'openai',
      summary:
        "OpenAI-compatible model list: the caller's cartridges (by name) and sessions (`session:<id>`).",
      responses: {
        200: {
          description: 'Models',
          schema: z.object({ object: z.literal('list'), data: z.array(z.unknown()) }),
        },
      },
    },
    async ({ c }) => {
      const principal = c.get('principal');
      const cartridges = await deps.store.listOwnedCartridges(principal.id);
      const sessions = (await deps.store.listSessions(principal.id)).sort(
        (a, b) => b.updatedAt - a.updatedAt,
      );
      const data = [
        ...cartridges.map((cart) => ({
          id: cart.name,
          object: 'model',
          created: Math.floor(cart.latest.createdAt / 1000),
          owned_by: cart.owner === 'operator' ? 'mnesos' : principal.id,
        })),
        ...sessions.map((s) => ({
          id: `${SESSION_MODEL}${s.id}`,
          object: 'model',
          created: Math.floor(s.createdAt / 1000),
          owned_by: principal.id,
          ...(s.title ? { name: s.title } : {}),
        })),
      ].slice(0, MAX_LISTED_MODELS);
      return c.json({ object: 'list', data });
    },
  );

  api.add(
    {
      method: 'post',
      path: `${OPENAI_PREFIX}/chat/completions`,
      tag: 'openai',
      summary:
        'OpenAI-compatible chat completion: plays the turn the transcript asks for (new message, swipe, edit, continue); SSE when `stream` is true.',
      body: chatBody,
      responses: {
        200: {
          description: 'A chat.completion, or chat.completion.chunk events ending with [DONE]',
          schema: z.unknown(),
        },
        400: { description: 'Bad request', schema: errorSchema },
        401: { description: 'No or bad API key', schema: errorSchema },
        404: { description: 'No such model (cartridge or session)', schema: errorSchema },
        409: { description: 'A turn is already being played on this conversation', schema: errorSchema },
      },
    },
    async ({ c, body }) => {
      const principal = c.get('principal');
      const transcript = readTranscript(body.messages);
      if ('error' in transcript) throw openAiError(400, 'invalid_request', transcript.error);
      const header = c.req.header('idempotency-key');
      const conversation = await guardedSession(() =>
        resolveConversation(deps, principal.id, body, transcript, header !== undefined, Date.now()),
      );
      const { session, cartridge, model } = conversation;
      const created = Math.floor(Date.now() / 1000);
      const details = body.mnesos_details === true;
      const withDetails = (turn: Turn, text: string) => {
        const block = details ? detailsBlock(turn, cartridge) : '';
        return block === '' ? '' : `${text === '' ? '' : '\n\n'}${block}`;
      };

      let prepared: PreparedTurn;
      if (conversation.replay !== undefined) {
        const turn = await guardedSession(() =>
          deps.service.getTurn(principal.id, session.id, conversation.replay!.id),
        );
        prepared = { kind: 'replayed', turn };
      } else {
        prepared = await guardedSession(() =>
          deps.service.prepareTurn(principal.id, session.id, {
            parentId: conversation.parent.id,
            turn: { input: conversation.input },
            ...(header === undefined ? {} : { idempotencyKey: idempotencyKeyOf(header, session.id)! }),
            ...(conversation.context === '' ? {} : { playerContext: conversation.context }),
            trigger: conversation.trigger,
          }),
        );
      }
      const headers = {
        'x-mnesos-session': session.id,
        'x-mnesos-replayed': String(prepared.kind === 'replayed'),
      };

      if (body.stream !== true) {
        let turn: Turn;
        let content: string;
        if (prepared.kind === 'replayed') {
          turn = prepared.turn;
          content = turn.narration;
        } else {
          const run = prepared.run({ signal: c.req.raw.signal, timeoutMs: deps.limits.turnTimeoutMs });
          try {
            for (;;) {
              const step = await run.next();
              if (step.done) {
                turn = step.value;
                break;
              }
            }
          } catch (error) {
            const reply = offlineReply(error);
            if (reply === undefined) throw error instanceof SessionError ? fromSessionError(error) : error;
            return c.json(
              completion(`chatcmpl-reply-${prepared.turnId}`, model, created, reply),
              200,
              headers,
            );
          }
          content = turn.narration;
        }
        return c.json(
          completion(completionId(turn.id), model, created, content + withDetails(turn, content)),
          200,
          {
            ...headers,
            'x-mnesos-turn': turn.id,
          },
        );
      }

      const control = new AbortController();
      const encoder = new TextEncoder();
      const id = completionId(prepared.kind === 'replayed' ? prepared.turn.id : prepared.turnId);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (text: string) => {
            if (control.signal.aborted) return;
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              control.abort();
            }
          };
          send(dataEvent(chunk(id, model, created, { role: 'assistant', content: '' }, null)));
          try {
            let turn: Turn;
            if (prepared.kind === 'replayed') {
              turn = prepared.turn;
              send(dataEvent(chunk(id, model, created, { content: turn.narration }, null)));
            } else {
              const run = prepared.run({ signal: control.signal, timeoutMs: deps.limits.turnTimeoutMs });
              for (;;) {
                const step = await run.next();
                if (step.done) {
                  turn = step.value;
                  break;
                }
                if (step.value.type === 'narration_delta' && step.value.text !== '')
                  send(dataEvent(chunk(id, model, created, { content: step.value.text }, null)));
              }
            }
            const extra = withDetails(turn, turn.narration);
            if (extra !== '') send(dataEvent(chunk(id, model, created, { content: extra }, null)));
            send(dataEvent(chunk(id, model, created, {}, 'stop')));
          } catch (error) {
            const reply = offlineReply(error);
            if (reply !== undefined) {
              send(dataEvent(chunk(id, model, created, { content: reply }, null)));
              send(dataEvent(chunk(id, model, created, {}, 'stop')));
            } else send(dataEvent(errorPayload(error).body));
          }
          send('data: [DONE]\n\n');
          try {
            controller.close();
          } catch {
            // the client already went away
          }
        },
        cancel() {
          control.abort(new Error('client disconnected'));
        },
      });
      c.req.raw.signal.addEventListener('abort', () => control.abort(new Error('client disconnected')), {
        once: true,
      });
      return new Response(stream, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
          ...headers,
        },
      });
    },
  );
}

function completion(id: string, model: string, created: number, content: string) {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

async function guardedSession<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) {
      const api = fromSessionError(error);
      throw new ApiError(api.status, api.code, api.message, {
        ...api.details,
        type: api.status >= 500 ? 'server_error' : 'invalid_request_error',
      });
    }
    throw error;
  }
}
