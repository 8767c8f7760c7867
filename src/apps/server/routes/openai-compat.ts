// An OpenAI-compatible endpoint, so any chat front end (SillyTavern's "Custom (OpenAI-compatible)" source,
// the `openai` SDK) can play a cartridge: `GET /openai/v1/models` lists the caller's cartridges and sessions
// as model ids, `POST /openai/v1/chat/completions` plays turns (streamed as SillyTavern reads them, or as one
// JSON answer). API keys are bearer tokens, as on /v1.
//
// A front end sends the whole transcript each time; src/apps/server/openai/resolve.ts maps it onto the turn tree
// (docs/sillytavern.md). The front end's own generations (Impersonate, summaries, Test Message) are answered
// without touching the tree (openai/front-end.ts); offline, `!command` is the game's `/command`, and a
// cartridge with no rules answers look, talk and wait from its card (openai/baseline.ts). An answer that
// plays no turn ends with NO_TURN_MARK, so the next request knows it spent nothing.

import { z } from 'zod';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { driveTurn, type PreparedTurn, SessionError } from '../../../engine/session/index.ts';
import type { Turn } from '../../../adapters/store/index.ts';
import { authenticate } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError, fromSessionError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { createHash } from 'node:crypto';
import { baselineAnswer, baselineHelp } from '../openai/baseline.ts';
import { CONTINUE_INPUT } from '../openai/conversation.ts';
import { detailsBlock } from '../openai/details.ts';
import { errorTypeOf, openAiError, withErrorType } from '../openai/errors.ts';
import { frontEndHints } from '../openai/commands.ts';
import { type FrontEndRequest, frontEndRequest } from '../openai/front-end.ts';
import { ConversationMemory } from '../openai/memory.ts';
import { sessionModelId } from '../openai/models.ts';
import { rebaseEdits } from '../openai/rebase.ts';
import { NO_TURN_MARK, resolveConversation } from '../openai/resolve.ts';
import { type Exchange, MAX_TRANSCRIPT_MESSAGES, readTranscript } from '../openai/transcript.ts';
import { rateLimit } from '../rate-limit.ts';
import { formatSse } from '../../../core/sse.ts';
import { SSE_HEADERS } from '../sse.ts';

export { RETRY_WINDOW_MS } from '../openai/resolve.ts';
export const OPENAI_PREFIX = '/openai/v1';
/** Model ids listed (cartridges, then sessions). */
export const MAX_LISTED_MODELS = 200;
/** The scope this endpoint's Idempotency-Keys are claimed in (TurnRequest.idempotencyScope). */
const OPENAI_KEY_SCOPE = 'openai';

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

const errorSchema = z.object({ error: z.object({ message: z.string(), code: z.string() }).loose() });

/** The answer to a request that plays no turn: its text, marked so that the next request knows. */
function noTurnText(text: string): string {
  return `${text.trim()}\n\n${NO_TURN_MARK}`;
}

/** Player messages a summary lists (the newest). */
const MAX_SUMMARY_INPUTS = 30;

/** The story so far as the chat shows it (the player's messages), for a front end's summary request. */
function storySummary(exchanges: readonly Exchange[]): string {
  const said = exchanges
    .map((e) => e.user.replace(/\s+/g, ' ').trim())
    .filter((t) => t !== '')
    .slice(-MAX_SUMMARY_INPUTS);
  return said.length === 0 ? 'Nothing has happened yet.' : `So far the player: ${said.join('; ')}`;
}

/** The answer to one of the front end's own generations; nothing is stored. */
function frontEndAnswer(kind: FrontEndRequest['kind'], exchanges: readonly Exchange[]): string {
  switch (kind) {
    case 'connection-test':
      return 'MnesOS is connected. Send a message in a chat to play.';
    case 'impersonate':
      // The player's next message is the player's to write: a neutral suggestion, never a turn.
      return 'I look around.';
    case 'summary':
      return storySummary(exchanges);
    default: {
      const unreachable: never = kind;
      return String(unreachable);
    }
  }
}

function completionId(turnId: string): string {
  return `chatcmpl-${turnId}`;
}

/** SillyTavern's stream: `data: {json}` events (no `event:` lines), then `data: [DONE]`. */
function dataEvent(value: unknown): string {
  return formatSse({ data: JSON.stringify(value) });
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
        type: errorTypeOf(api.status),
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

/** What the engine's offline answer becomes through a front end: hints with `!`, or the card's baseline. */
function offlineAnswer(cartridge: Cartridge, input: string, reply: string): string {
  if (cartridge.rules.events.size > 0) return frontEndHints(reply);
  return baselineAnswer(cartridge, input) ?? baselineHelp(cartridge);
}

/** A text answered without a turn, as the request asked for it (one JSON answer, or a short stream). */
function textAnswer(model: string, text: string, stream: boolean, headers: Record<string, string>): Response {
  const created = Math.floor(Date.now() / 1000);
  const id = `chatcmpl-reply-${createHash('sha256').update(`${created}\0${text}`).digest('hex').slice(0, 24)}`;
  if (!stream) return Response.json(completion(id, model, created, text), { headers });
  const body = [
    dataEvent(chunk(id, model, created, { role: 'assistant', content: '' }, null)),
    dataEvent(chunk(id, model, created, { content: text }, null)),
    dataEvent(chunk(id, model, created, {}, 'stop')),
    'data: [DONE]\n\n',
  ].join('');
  return new Response(body, { headers: { ...SSE_HEADERS, ...headers } });
}

export function registerOpenAiCompatRoutes(api: RouteRegistry, deps: AppDeps): void {
  const memory = new ConversationMemory();
  api.app.use(`${OPENAI_PREFIX}/*`, withErrorType());
  api.app.use(`${OPENAI_PREFIX}/*`, authenticate(deps.auth));
  api.app.use(`${OPENAI_PREFIX}/*`, rateLimit(deps.limits.rateLimit, deps.limits.rateWindowMs));

  api.add(
    {
      method: 'get',
      path: `${OPENAI_PREFIX}/models`,
      tag: 'openai',
      summary:
        "OpenAI-compatible model list: the caller's cartridges (by name), then their sessions, most recently played first (`<cartridge> · <title> · last played … · session:<id>`).",
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
      const names = new Map<string, string | undefined>();
      for (const s of sessions.slice(0, MAX_LISTED_MODELS)) {
        if (!names.has(s.cartridgeVersionId))
          names.set(s.cartridgeVersionId, (await deps.library.version(s.cartridgeVersionId))?.name);
      }
      const data = [
        ...cartridges.map((cart) => ({
          id: cart.name,
          object: 'model',
          created: Math.floor(cart.latest.createdAt / 1000),
          owned_by: cart.owner === 'operator' ? 'mnesos' : principal.id,
        })),
        ...sessions.map((s) => ({
          id: sessionModelId(s, names.get(s.cartridgeVersionId)),
          object: 'model',
          created: Math.floor(s.createdAt / 1000),
          owned_by: principal.id,
          ...(s.title ? { name: s.title } : {}),
        })),
      ].slice(0, MAX_LISTED_MODELS);
      return c.json({ object: 'list' as const, data });
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
          eventStream: true,
        },
        400: { description: 'Bad request', schema: errorSchema },
        401: { description: 'No or bad API key', schema: errorSchema },
        404: { description: 'No such model (cartridge or session)', schema: errorSchema },
        409: { description: 'A turn is already being played on this conversation', schema: errorSchema },
        413: {
          description: 'The player message is longer than the server’s input limit (`input_too_long`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      const principal = c.get('principal');
      const stream = body.stream === true;
      const asked = body.model ?? '';
      const transcript = readTranscript(body.messages, { names: asked === '' ? [] : [asked] });
      const own = frontEndRequest(body.messages, stream);
      if (own !== undefined)
        return textAnswer(
          asked,
          frontEndAnswer(own.kind, 'error' in transcript ? [] : transcript.exchanges),
          stream,
          {
            'x-mnesos-replayed': 'false',
          },
        );
      if ('error' in transcript) throw openAiError(400, 'invalid_request', transcript.error);
      const header = c.req.header('idempotency-key');
      // Admitted before the conversation is resolved (which may start its session), so a request past a
      // limit stores nothing; prepareTurn admits the placed request again by the same rules.
      await guardedSession(async () =>
        deps.service.admit({
          turn: { input: transcript.kind === 'continue' ? CONTINUE_INPUT : transcript.user },
          ...(header === undefined ? {} : { idempotencyKey: header }),
        }),
      );
      const conversation = await guardedSession(() =>
        resolveConversation(deps, memory, {
          principalId: principal.id,
          model: asked,
          transcript,
          hasIdempotencyKey: header !== undefined,
          now: Date.now(),
          rebase: (session, cartridge, edits, node) =>
            rebaseEdits(deps, principal.id, session, cartridge, edits, node),
        }),
      );
      const { session, cartridge, model } = conversation;
      const note = conversation.note === '' ? '' : `\n\n${conversation.note}`;
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
            // A front end's key, claimed in this endpoint's own scope (admission digests it with the session).
            ...(header === undefined ? {} : { idempotencyKey: header, idempotencyScope: OPENAI_KEY_SCOPE }),
            ...(conversation.context === '' ? {} : { playerContext: conversation.context }),
            trigger: conversation.trigger,
          }),
        );
      }
      const headers = {
        'x-mnesos-session': session.id,
        'x-mnesos-replayed': String(prepared.kind === 'replayed'),
      };
      if (prepared.kind === 'ready' && prepared.mode === 'offline' && conversation.trigger === 'continue') {
        // Offline there is no Narrator to continue with: nothing is played (the instruction is not the player's).
        prepared.release();
        return textAnswer(
          model,
          noTurnText(
            'Offline, the narration cannot be continued: send your next action (!help lists the commands).',
          ),
          stream,
          headers,
        );
      }

      if (!stream) {
        let turn: Turn;
        let content: string;
        if (prepared.kind === 'replayed') {
          turn = prepared.turn;
          content = turn.narration;
        } else {
          try {
            turn = (await driveTurn(prepared, { signal: c.req.raw.signal })).turn;
          } catch (error) {
            const reply = offlineReply(error);
            if (reply === undefined) throw error instanceof SessionError ? fromSessionError(error) : error;
            const text = noTurnText(offlineAnswer(cartridge, conversation.input, reply));
            return c.json(
              completion(`chatcmpl-reply-${prepared.turnId}`, model, created, text),
              200,
              headers,
            );
          }
          content = turn.narration;
          if (c.req.raw.signal.aborted) memory.markUndelivered(turn.id, Date.now());
        }
        return c.json(
          completion(completionId(turn.id), model, created, content + withDetails(turn, content) + note),
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
      const events = new ReadableStream<Uint8Array>({
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
              const driven = await driveTurn(prepared, {
                signal: control.signal,
                onEvent: (event) => {
                  if (event.type === 'narration_delta' && event.text !== '')
                    send(dataEvent(chunk(id, model, created, { content: event.text }, null)));
                },
              });
              turn = driven.turn;
            }
            const extra = withDetails(turn, turn.narration) + note;
            if (extra !== '') send(dataEvent(chunk(id, model, created, { content: extra }, null)));
            send(dataEvent(chunk(id, model, created, {}, 'stop')));
            send('data: [DONE]\n\n');
            // Committed but not received: the same request again is a retry of this turn, not a swipe.
            if (control.signal.aborted) memory.markUndelivered(turn.id, Date.now());
          } catch (error) {
            const reply = offlineReply(error);
            if (reply !== undefined) {
              const text = noTurnText(offlineAnswer(cartridge, conversation.input, reply));
              send(dataEvent(chunk(id, model, created, { content: text }, null)));
              send(dataEvent(chunk(id, model, created, {}, 'stop')));
            } else send(dataEvent(errorPayload(error).body));
            send('data: [DONE]\n\n');
          }
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
      return new Response(events, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
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
        type: errorTypeOf(api.status),
      });
    }
    throw error;
  }
}
