// One chat completion: the transcript read (transcript.ts), the front end's own generations answered apart
// (front-end.ts), the chat placed in its game (resolve.ts), its changed history planned (rebase.ts), and the
// turn played through the session layer's one way into a turn — streamed as SillyTavern reads it, or as one
// JSON answer. Every reply that plays (or begins) a turn starts with that turn's anchor (anchor.ts), so the next
// request names it exactly.
//
// Nothing is stored for a request that fails: the rebase goes with the turn, in its transaction; a session this
// request opened is removed again. An answer given without a turn (an offline refusal, `!help`, Continue
// offline, a rebase past its limit) stores the rebase alone and moves the head to where the chat is, so the
// game shows what the chat shows; it ends with NO_TURN_MARK so the next request knows it spent nothing.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import { driveTurn, type PreparedTurn, SessionError } from '../../../engine/session/index.ts';
import type { Turn } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import { fromSessionError } from '../errors.ts';
import { anchorFor } from './anchor.ts';
import { baselineAnswer, baselineHelp } from './baseline.ts';
import { frontEndHints } from './commands.ts';
import { CONTINUE_INPUT } from './conversation.ts';
import { detailsBlock } from './details.ts';
import { openAiError } from './errors.ts';
import { frontEndAnswer, frontEndRequest } from './front-end.ts';
import type { ConversationMemory } from './memory.ts';
import { noTurnText } from './notes.ts';
import { type ChatRebase, planChatRebase } from './rebase.ts';
import { nextTurnOfTheLoop } from './slices.ts';
import { type Conversation, resolveConversation } from './resolve.ts';
import { readTranscript, type WireMessage } from './transcript.ts';
import {
  chunk,
  completion,
  completionId,
  DONE_EVENT,
  dataEvent,
  errorPayload,
  guardedSession,
  textAnswer,
} from './wire.ts';
import { SSE_HEADERS } from '../sse.ts';

/** The scope this endpoint's Idempotency-Keys are claimed in (TurnRequest.idempotencyScope). */
const OPENAI_KEY_SCOPE = 'openai';

export interface ChatRequest {
  readonly principalId: string;
  /** The model asked for ('' when none). */
  readonly model: string;
  readonly messages: readonly WireMessage[];
  readonly stream: boolean;
  /** Append the turn's dice and public state changes to the prose. */
  readonly details: boolean;
  readonly idempotencyKey: string | undefined;
  /** The client going away. */
  readonly signal: AbortSignal;
}

/** A conversation on its way to an answer, with what every step of it needs. */
interface Playing {
  readonly deps: AppDeps;
  readonly memory: ConversationMemory;
  readonly request: ChatRequest;
  readonly conversation: Conversation;
  readonly rebase: ChatRebase;
  /** The notes of the answer, each `[MnesOS: …]`, space-separated ('' when none). */
  readonly notes: string;
}

export async function answerChat(
  deps: AppDeps,
  memory: ConversationMemory,
  request: ChatRequest,
): Promise<Response> {
  const transcript = readTranscript(request.messages, { names: request.model === '' ? [] : [request.model] });
  const own = frontEndRequest(request.messages, request.stream);
  if (own !== undefined)
    return textAnswer(
      request.model,
      frontEndAnswer(own.kind, 'error' in transcript ? [] : transcript.exchanges),
      request.stream,
      { 'x-mnesos-replayed': 'false' },
    );
  if ('error' in transcript) throw openAiError(400, 'invalid_request', transcript.error);
  const key = request.idempotencyKey;
  // Reading a long chat and placing it are each milliseconds of CPU: other requests go between them.
  await nextTurnOfTheLoop();
  // Admitted before the conversation is resolved (which may open its session), so a request past a limit
  // stores nothing; prepareTurn admits the placed request again by the same rules.
  await guardedSession(async () =>
    deps.service.admit({
      turn: { input: transcript.kind === 'reply' ? transcript.user : CONTINUE_INPUT },
      ...(key === undefined ? {} : { idempotencyKey: key }),
    }),
  );
  await nextTurnOfTheLoop();
  const conversation = await guardedSession(() =>
    resolveConversation(deps, memory, {
      principalId: request.principalId,
      model: request.model,
      transcript,
      idempotencyKey: key,
      now: Date.now(),
    }),
  );
  try {
    const rebase = await guardedSession(() => planChatRebase(deps, request.principalId, conversation));
    const notes = [rebase.note, conversation.note].filter((n) => n !== '').join(' ');
    return await play({ deps, memory, request, conversation, rebase, notes });
  } catch (error) {
    await discard(deps, request.principalId, conversation);
    throw error;
  }
}

/** A request that failed: a session it opened is removed (its rebase was never stored). */
async function discard(deps: AppDeps, principalId: string, conversation: Conversation): Promise<void> {
  if (conversation.created) await deps.store.deleteSession(conversation.session.id, principalId);
}

/** The turn the chat is at once its planned rebase is stored (the base when nothing is carried). */
function chatEnd(p: Playing): string {
  return p.rebase.chain.turns.at(-1)?.id ?? p.rebase.chain.baseId;
}

/**
 * A request answered without a turn: the chat's changed history is stored and the head moved to where the
 * chat is; a session the request opened holds nothing of it and is removed. Answers the anchor the reply
 * carries ("answered at" that turn, anchor.ts).
 */
async function settle(p: Playing): Promise<string> {
  if (p.conversation.created) {
    await discard(p.deps, p.request.principalId, p.conversation);
    // Still an answer the game gave without a turn, if the player edits its words: it names a turn now gone.
    return anchorFor(chatEnd(p), 'at');
  }
  const chain = p.rebase.chain;
  await guardedSession(() =>
    p.deps.service.settleChat(p.request.principalId, p.conversation.session.id, chain, chatEnd(p)),
  );
  return anchorFor(chatEnd(p), 'at');
}

/** The answer's headers: the session (while it holds the game) and whether a stored turn was sent back. */
function headersOf(p: Playing, replayed: boolean, kept = true): Record<string, string> {
  return {
    ...(kept ? { 'x-mnesos-session': p.conversation.session.id } : {}),
    'x-mnesos-replayed': String(replayed),
  };
}

/** An answer given without a turn, its notes first. */
async function noTurnAnswer(p: Playing, text: string): Promise<Response> {
  const anchor = await settle(p);
  const body = anchor + noTurnText([p.notes, text].filter((t) => t !== '').join('\n\n'));
  return textAnswer(
    p.conversation.model,
    body,
    p.request.stream,
    headersOf(p, false, !p.conversation.created),
  );
}

async function play(p: Playing): Promise<Response> {
  const { deps, request, conversation, rebase } = p;
  if (!rebase.complete) return noTurnAnswer(p, '');
  const prepared: PreparedTurn =
    conversation.replay !== undefined
      ? {
          kind: 'replayed',
          turn: await guardedSession(() =>
            deps.service.getTurn(request.principalId, conversation.session.id, conversation.replay!.id),
          ),
        }
      : await guardedSession(() =>
          deps.service.prepareTurn(request.principalId, conversation.session.id, {
            turn: { input: conversation.input },
            rebased: rebase.chain,
            // A front end's key, claimed in this endpoint's own scope (admission digests it with the session).
            ...(request.idempotencyKey === undefined
              ? {}
              : { idempotencyKey: request.idempotencyKey, idempotencyScope: OPENAI_KEY_SCOPE }),
            ...(conversation.context === '' ? {} : { playerContext: conversation.context }),
            trigger: conversation.trigger,
          }),
        );
  if (prepared.kind === 'ready' && prepared.mode === 'offline' && conversation.kind !== 'reply') {
    // Offline there is no Narrator to continue with: nothing is played (the instruction is not the player's).
    prepared.release();
    return noTurnAnswer(p, offlineNoNarrator(conversation.kind));
  }
  return request.stream ? streamTurn(p, prepared) : jsonTurn(p, prepared);
}

function offlineNoNarrator(kind: Conversation['kind']): string {
  return kind === 'next-speaker'
    ? 'Offline, no other character answers on its own: send your next action (!help lists the commands).'
    : 'Offline, the narration cannot be continued: send your next action (!help lists the commands).';
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

/** The anchors a reply that plays a turn starts with: the turn it is, and the one it follows. */
function replyAnchors(turnId: string, parentId: string | null): string {
  return `${anchorFor(turnId)}${parentId === null ? '' : anchorFor(parentId, 'after')}`;
}

/** The prose after the turn's narration: its details block (when asked) and the notes. */
function ending(p: Playing, turn: Turn, text: string): string {
  const block = p.request.details ? detailsBlock(turn, p.conversation.cartridge) : '';
  const parts = [block, p.notes].filter((t) => t !== '');
  return parts.length === 0 ? '' : `${text === '' ? '' : '\n\n'}${parts.join('\n\n')}`;
}

async function jsonTurn(p: Playing, prepared: PreparedTurn): Promise<Response> {
  const { request, conversation, memory } = p;
  const created = Math.floor(Date.now() / 1000);
  let turn: Turn;
  try {
    turn = (await driveTurn(prepared, { signal: request.signal })).turn;
  } catch (error) {
    const reply = offlineReply(error);
    if (reply === undefined) {
      await discard(p.deps, request.principalId, conversation);
      throw error instanceof SessionError ? fromSessionError(error) : error;
    }
    return noTurnAnswer(p, offlineAnswer(conversation.cartridge, conversation.input, reply));
  }
  if (request.signal.aborted && prepared.kind === 'ready') memory.markUndelivered(turn.id, Date.now());
  const content = `${replyAnchors(turn.id, turn.parentId)}${turn.narration}${ending(p, turn, turn.narration)}`;
  return Response.json(completion(completionId(turn.id), conversation.model, created, content), {
    headers: { ...headersOf(p, prepared.kind === 'replayed'), 'x-mnesos-turn': turn.id },
  });
}

/** What a streamed reply writes: raw SSE text, a content delta, the closing chunk; nothing once the client went. */
interface ChunkOut {
  readonly send: (text: string) => void;
  readonly content: (text: string) => void;
  readonly stop: () => void;
}

function chunkOut(
  controller: ReadableStreamDefaultController<Uint8Array>,
  control: AbortController,
  head: { readonly id: string; readonly model: string; readonly created: number },
): ChunkOut {
  const encoder = new TextEncoder();
  const send = (text: string) => {
    if (control.signal.aborted) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      control.abort();
    }
  };
  return {
    send,
    content: (text) => send(dataEvent(chunk(head.id, head.model, head.created, { content: text }, null))),
    stop: () => send(dataEvent(chunk(head.id, head.model, head.created, {}, 'stop'))),
  };
}

/** The turn played into the stream: its narration as it comes (whole when replayed), the ending, stop and
 * [DONE]; after the stream began, a failure is said as streamFailure says it. */
async function driveIntoStream(
  p: Playing,
  prepared: PreparedTurn,
  out: ChunkOut,
  control: AbortController,
): Promise<void> {
  try {
    const driven = await driveTurn(prepared, {
      signal: control.signal,
      onEvent: (event) => {
        if (event.type === 'narration_delta' && event.text !== '') out.content(event.text);
      },
    });
    const turn = driven.turn;
    if (driven.replayed) out.content(turn.narration);
    const extra = ending(p, turn, turn.narration);
    if (extra !== '') out.content(extra);
    out.stop();
    out.send(DONE_EVENT);
    // Committed but not received: the same request again is a retry of this turn, not a swipe.
    if (control.signal.aborted) p.memory.markUndelivered(turn.id, Date.now());
  } catch (error) {
    await streamFailure(
      p,
      error,
      {
        content: out.content,
        error: (failure) => out.send(dataEvent(errorPayload(failure).body)),
        stop: out.stop,
      },
      control.signal,
    );
    out.send(DONE_EVENT);
  }
}

function streamTurn(p: Playing, prepared: PreparedTurn): Response {
  const { request, conversation } = p;
  const model = conversation.model;
  const created = Math.floor(Date.now() / 1000);
  const control = new AbortController();
  const turnId = prepared.kind === 'replayed' ? prepared.turn.id : prepared.turnId;
  const id = completionId(turnId);
  const events = new ReadableStream<Uint8Array>({
    async start(controller) {
      const out = chunkOut(controller, control, { id, model, created });
      // The anchors first: even a reply stopped after its first words names the turn it was about to be, and
      // the one it follows.
      const parentId = prepared.kind === 'replayed' ? prepared.turn.parentId : prepared.parentId;
      out.send(
        dataEvent(
          chunk(id, model, created, { role: 'assistant', content: replyAnchors(turnId, parentId) }, null),
        ),
      );
      await driveIntoStream(p, prepared, out, control);
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
  request.signal.addEventListener('abort', () => control.abort(new Error('client disconnected')), {
    once: true,
  });
  return new Response(events, {
    status: 200,
    headers: { ...SSE_HEADERS, ...headersOf(p, prepared.kind === 'replayed') },
  });
}

/** After the stream began: an offline answer is sent as the reply (no turn); any other error as one event. */
async function streamFailure(
  p: Playing,
  error: unknown,
  out: { content: (text: string) => void; error: (error: unknown) => void; stop: () => void },
  gone: AbortSignal,
): Promise<void> {
  const reply = offlineReply(error);
  try {
    // A reader that went away (Stop) gets nothing, and nothing is stored for it.
    if (reply === undefined || gone.aborted) {
      await discard(p.deps, p.request.principalId, p.conversation);
      out.error(error);
      return;
    }
    const anchor = await settle(p);
    const answer = offlineAnswer(p.conversation.cartridge, p.conversation.input, reply);
    out.content(anchor + noTurnText([p.notes, answer].filter((t) => t !== '').join('\n\n')));
    out.stop();
  } catch (failure) {
    out.error(failure);
  }
}
