// Turns: play (streamed as Server-Sent Events when the client accepts them, one JSON answer otherwise),
// regenerate, undo, move the head, the tree, and a committed turn (also as a replayed event stream, for a
// client that reconnects after the turn ended).

import type { Context } from 'hono';
import {
  driveTurn,
  noTurnAnswer,
  type PreparedTurn,
  type ReadyTurn,
  SessionError,
  steers,
  type TurnRequest,
  turnOf,
} from '../../../engine/session/index.ts';
import type { MemberRole } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError, errorBody, fromSessionError } from '../errors.ts';
import type { AppEnv, JsonOf, OtherAnswer, RouteRegistry } from '../openapi.ts';
import {
  childrenResponse,
  roundSubmittedResponse,
  sessionResponse,
  type noTurnResponse,
  treeResponse,
  turnOrAnswerResponse,
  turnResponse,
  turnResultResponse,
  type TurnStreamEvent,
} from '../../contract/index.ts';
import {
  errorSchema,
  headBody,
  regenerateBody,
  sessionParams,
  branchEndQuery,
  turnBody,
  turnParams,
  turnQuery,
  undoBody,
} from '../schemas.ts';
import { sseResponse, wantsEventStream } from '../sse.ts';
import { readsTurn, seatReplayEvents, seatTurnView, type Viewer, viewerOf } from '../member-views.ts';
import { guarded } from './guard.ts';
import { HISTORY_MAX_TURNS } from '../limits.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { eventView, nodeView, sessionView, type View } from '../views.ts';

const TURN_ERRORS = {
  400: { description: 'Malformed request', schema: errorSchema },
  404: {
    description: 'No such session or turn (another principal’s is not found either)',
    schema: errorSchema,
  },
  403: {
    description:
      'At a shared table, a member asked for what only the owner or a game master may do (`not_allowed`)',
    schema: errorSchema,
  },
  409: {
    description:
      'A turn is in flight, or the head moved (nothing was committed); at a table, its queue is full (`table_limit`)',
    schema: errorSchema,
  },
  413: { description: 'Body or input too long', schema: errorSchema },
  415: { description: 'Not application/json', schema: errorSchema },
  422: {
    description:
      'The game refuses the input (pending mini-game, bad interaction), or the caller’s model settings cannot be used (`settings_unusable`)',
    schema: errorSchema,
  },
  429: { description: 'Rate limited', schema: errorSchema },
  502: { description: 'The model failed', schema: errorSchema },
  504: { description: 'The turn timed out (nothing was committed)', schema: errorSchema },
} as const;

/** The client's Idempotency-Key as sent; admission checks it (session/turn-job/admission.ts). */
function idempotencyKeyOf(c: Context<AppEnv>): { idempotencyKey?: string } {
  const value = c.req.header('idempotency-key');
  return value === undefined ? {} : { idempotencyKey: value };
}

/** The full view is for the owner in author mode, on request; everyone else gets the player view. */
export function viewFor(deps: AppDeps, requested: View | undefined): View {
  if (requested !== 'full') return 'public';
  if (!deps.authorMode)
    throw new ApiError(
      403,
      'author_mode_off',
      'the full view needs the server in author mode (serve --author)',
    );
  return 'full';
}

/** The view for one seat at a table: the full view only for those who steer it (owner, game master). */
export function viewForSeat(deps: AppDeps, requested: View | undefined, role: MemberRole): View {
  const view = viewFor(deps, requested);
  if (view === 'full' && !steers(role))
    throw new ApiError(403, 'not_allowed', "the full view is for the table's owner and game masters");
  return view;
}

type ModelMode = 'online' | 'offline';

function modeHeaders(mode: ModelMode): Record<string, string> {
  return { 'x-mnesos-model-mode': mode };
}

/**
 * The answer to a prepared turn. A turn about to run carries its cartridge; a replayed one (its
 * Idempotency-Key already answered) reads the session's, so the first request of a turn reads the session
 * once (in prepare) and not again here.
 */
export async function answer(
  c: Context<AppEnv>,
  deps: AppDeps,
  principalId: string,
  sessionId: string,
  prepared: PreparedTurn,
  view: View,
  viewer: Viewer,
): Promise<JsonOf<typeof turnResultResponse, 200 | 201> | JsonOf<typeof noTurnResponse, 200> | OtherAnswer> {
  if (prepared.kind === 'replayed') {
    const { session } = await deps.table.access(principalId, sessionId);
    const { cartridge } = await deps.service.cartridgeOf(session);
    if (wantsEventStream(c.req.header('accept'))) {
      const events = seatReplayEvents(prepared.turn, cartridge, view, viewer);
      return sseResponse(async (send) => events.forEach(send), { headers: modeHeaders(deps.modelMode) });
    }
    return c.json(
      {
        turn: seatTurnView(prepared.turn, cartridge, view, viewer),
        replayed: true,
        modelMode: deps.modelMode,
      },
      200,
      modeHeaders(deps.modelMode),
    );
  }
  if (!wantsEventStream(c.req.header('accept'))) return answerJson(c, prepared, view, viewer);
  return answerStream(c, deps, prepared, view, viewer, { principalId, sessionId });
}

/** One JSON answer: the played turn (201), or the engine's answer without one (200, `played: false`). */
async function answerJson(
  c: Context<AppEnv>,
  prepared: ReadyTurn,
  view: View,
  viewer: Viewer,
): Promise<JsonOf<typeof turnResultResponse, 201> | JsonOf<typeof noTurnResponse, 200>> {
  // The principal's own models decide the mode (their settings may differ from the server's).
  const mode = prepared.mode;
  try {
    const { turn } = await driveTurn(prepared, { signal: c.req.raw.signal });
    return c.json(
      { turn: seatTurnView(turn, prepared.cartridge, view, viewer), replayed: false, modelMode: mode },
      201,
      modeHeaders(mode),
    );
  } catch (error) {
    // An answer without a turn (a look around, a question back, the rules' refusal) is a success.
    const answered = noTurnAnswer(error);
    if (answered === undefined) throw error;
    return c.json({ ...answered, modelMode: mode }, 200, modeHeaders(mode));
  }
}

/** A turn's failure as the stream's `error` event says it (its status and error body), counted. */
function failureData(error: unknown, deps: AppDeps) {
  const api =
    error instanceof SessionError
      ? fromSessionError(error)
      : new ApiError(500, 'internal', 'the turn failed');
  deps.metrics.errors.inc({ code: api.code });
  return { status: api.status, ...errorBody(api.code, api.message, api.details) };
}

/** The turn as it happens: start, its events, then `committed`, `answered` (no turn played) or `error`. */
function answerStream(
  c: Context<AppEnv>,
  deps: AppDeps,
  prepared: ReadyTurn,
  view: View,
  viewer: Viewer,
  whose: { readonly principalId: string; readonly sessionId: string },
): OtherAnswer {
  const mode = prepared.mode;
  return sseResponse<TurnStreamEvent>(
    async (send, signal) => {
      let seq = 0;
      const id = () => `${prepared.turnId}:${seq++}`;
      // Its narration as the player sees it, for reading aloud as it streams (routes/turn-media.ts).
      const narration = deps.narrations.begin(
        whose.principalId,
        whose.sessionId,
        prepared.turnId,
        prepared.parentId,
      );
      send({
        event: 'start',
        id: id(),
        data: { turnId: prepared.turnId, parentId: prepared.parentId, modelMode: mode },
      });
      try {
        const { turn } = await driveTurn(prepared, {
          signal,
          onEvent: (event) => {
            const shown = eventView(event, view);
            if (shown?.event === 'narration') narration.append(shown.data.text);
            if (shown) send({ ...shown, id: id() });
          },
        }).finally(() => deps.narrations.finish(whose.sessionId, prepared.turnId, narration));
        send({
          event: 'committed',
          id: id(),
          data: { turn: seatTurnView(turn, prepared.cartridge, view, viewer), replayed: false },
        });
      } catch (error) {
        // Offline, the engine may answer instead of playing: no turn, no failure.
        const answered = noTurnAnswer(error);
        if (answered !== undefined)
          send({ event: 'answered', id: id(), data: { ...answered, modelMode: mode } });
        else send({ event: 'error', id: id(), data: failureData(error, deps) });
      }
    },
    { requestSignal: c.req.raw.signal, headers: modeHeaders(mode) },
  );
}

/** The request of a turn body; the session admits it (input limit, shape, key) before anything is read. */
function turnRequest(
  body: {
    input?: string | undefined;
    interaction?: unknown;
    parentId?: string | undefined;
    strict?: boolean | undefined;
  },
  key: { idempotencyKey?: string },
): TurnRequest {
  return {
    ...(body.parentId === undefined ? {} : { parentId: body.parentId }),
    ...(body.strict === true ? { strict: true } : {}),
    turn: turnOf(body),
    ...key,
  };
}

/** The 202 answer of a round's action: the round, who has acted and who the round still waits for. */
function roundSubmitted(
  prepared: Extract<Awaited<ReturnType<AppDeps['table']['prepareTurnAt']>>, { kind: 'submitted' }>,
) {
  const { round, submitted, waiting } = prepared;
  return { submitted: { round, submitted: [...submitted], waiting: [...waiting] } };
}

/** The 200 answer of a turn route: a replayed Idempotency-Key's first result, or the event stream. */
export const REPLAYED_OR_STREAMED = {
  description:
    'No turn played (`played: false`: offline, the engine answered instead — docs/api.md, "No turn played"); the first result of this Idempotency-Key; the event stream with `Accept: text/event-stream`',
  schema: turnOrAnswerResponse,
  eventStream: true,
} as const;

const playTurn: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/turns',
      tag: 'turns',
      summary:
        'Play a turn (text or a mini-game result) on the head or on `parentId`. `Accept: text/event-stream` streams the typed events (start, phase, tool_call, tool_result, narration, then committed or error); otherwise one JSON result. `Idempotency-Key` makes retries return the first result.',
      params: sessionParams,
      query: turnQuery,
      body: turnBody,
      responses: {
        200: REPLAYED_OR_STREAMED,
        201: { description: 'The committed turn', schema: turnResultResponse },
        202: {
          description: 'At a table playing in rounds: the action is kept until everyone has acted',
          schema: roundSubmittedResponse,
        },
        ...TURN_ERRORS,
      },
    },
    async ({ c, params, query, body }) =>
      guarded(async () => {
        const principal = c.get('principal');
        const access = await deps.table.access(principal.id, params.id);
        const view = viewForSeat(deps, query.view, access.role);
        const request = turnRequest(body, idempotencyKeyOf(c));
        // At a shared table the turn may wait in the queue (free order) or join the round (rounds).
        const prepared = await deps.table.prepareTurnAt(access, request, {
          ...(body.whisper === true ? { whisper: true } : {}),
          signal: c.req.raw.signal,
        });
        if (prepared.kind === 'submitted') return c.json(roundSubmitted(prepared), 202);
        return answer(c, deps, principal.id, params.id, prepared, view, viewerOf(access));
      }),
  );
};

const regenerateTurn: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/regenerate',
      tag: 'turns',
      summary:
        'Play a turn’s input again from its parent with a new seed: a sibling (swipe). The head by default.',
      params: sessionParams,
      query: turnQuery,
      body: regenerateBody,
      responses: {
        200: REPLAYED_OR_STREAMED,
        201: { description: 'The new sibling', schema: turnResultResponse },
        ...TURN_ERRORS,
      },
    },
    async ({ c, params, query, body }) =>
      guarded(async () => {
        const principal = c.get('principal');
        const access = await deps.table.access(principal.id, params.id);
        const view = viewForSeat(deps, query.view, access.role);
        const prepared = await deps.table.prepareRegenerate(principal.id, params.id, {
          ...(body.turnId === undefined ? {} : { turnId: body.turnId }),
          ...idempotencyKeyOf(c),
        });
        return answer(c, deps, principal.id, params.id, prepared, view, viewerOf(access));
      }),
  );
};

const undoTurn: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/undo',
      tag: 'turns',
      summary: 'Move the head to its parent (the undone turn stays in the tree).',
      params: sessionParams,
      body: undoBody,
      responses: { 200: { description: 'The session', schema: sessionResponse }, ...TURN_ERRORS },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const session = await deps.table.undo(c.get('principal').id, params.id, body.expectedHeadId);
        return c.json({ session: sessionView(session) });
      }),
  );
};

const moveHead: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/head',
      tag: 'turns',
      summary: 'Move the head to any turn of the session (redo, jump to a branch).',
      params: sessionParams,
      body: headBody,
      responses: { 200: { description: 'The session', schema: sessionResponse }, ...TURN_ERRORS },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const session = await deps.table.moveHead(
          c.get('principal').id,
          params.id,
          body.turnId,
          body.expectedHeadId,
        );
        return c.json({ session: sessionView(session) });
      }),
  );
};

const getTree: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/tree',
      tag: 'turns',
      summary: `Every turn of the session as a tree node (id, parent, depth, sibling index, seq). With \`limit\` (1 to ${HISTORY_MAX_TURNS}), only the newest \`limit\` turns of the branch ending at \`turnId\` (the head by default) and the siblings of each: what a client needs to open a long game.`,
      params: sessionParams,
      query: branchEndQuery,
      responses: {
        200: { description: 'The tree', schema: treeResponse },
        400: TURN_ERRORS[400],
        404: TURN_ERRORS[404],
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const { session } = await deps.table.access(c.get('principal').id, params.id);
        const turnId = query.turnId ?? session.headTurnId;
        const nodes =
          query.limit === undefined
            ? await deps.store.listTree(params.id)
            : await deps.store.listTreeAround(params.id, turnId, query.limit);
        if (nodes === undefined) throw new ApiError(404, 'not_found', `turn ${turnId} not found`);
        return c.json({ headTurnId: session.headTurnId, turns: nodes.map(nodeView) });
      }),
  );
};

const getTurn: RouteDefinition = (api, deps) => {
  const { service } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/turns/:turnId',
      tag: 'turns',
      summary:
        'A committed turn. With `Accept: text/event-stream`, its events rebuilt from the record (ids after `Last-Event-ID` only): how a client that lost the stream catches up. 404 means the turn never committed.',
      params: turnParams,
      query: turnQuery,
      responses: {
        200: { description: 'The turn', schema: turnResponse, eventStream: true },
        404: TURN_ERRORS[404],
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principal = c.get('principal');
        const access = await deps.table.access(principal.id, params.id);
        const { session } = access;
        const view = viewForSeat(deps, query.view, access.role);
        const viewer = viewerOf(access);
        const turn = await service.getTurn(session.principalId, params.id, params.turnId);
        const { cartridge } = await service.cartridgeOf(session);
        if (wantsEventStream(c.req.header('accept'))) {
          const last = c.req.header('last-event-id');
          const after = last?.startsWith(`${turn.id}:`) ? Number(last.slice(turn.id.length + 1)) : -1;
          const events = seatReplayEvents(turn, cartridge, view, viewer).filter((_, seq) => seq > after);
          return sseResponse(async (send) => events.forEach(send), { headers: modeHeaders(deps.modelMode) });
        }
        return c.json({ turn: seatTurnView(turn, cartridge, view, viewer) });
      }),
  );
};

const getTurnChildren: RouteDefinition = (api, deps) => {
  const { service } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/turns/:turnId/children',
      tag: 'turns',
      summary: 'The turns played after this one (its swipes and branches), by sibling index.',
      params: turnParams,
      responses: { 200: { description: 'The children', schema: childrenResponse }, 404: TURN_ERRORS[404] },
    },
    async ({ c, params }) =>
      guarded(async () => {
        const access = await deps.table.access(c.get('principal').id, params.id);
        await service.getTurn(access.session.principalId, params.id, params.turnId);
        const children = await deps.store.listChildren(params.id, params.turnId);
        const viewer = viewerOf(access);
        return c.json({
          turns: children.map((t) => ({
            ...nodeView(t),
            narration: readsTurn(t.input, viewer) ? t.narration : '',
          })),
        });
      }),
  );
};

/** Every route of this file, in the order they are registered. */
export const TURN_ROUTES: readonly RouteDefinition[] = [
  playTurn,
  regenerateTurn,
  undoTurn,
  moveHead,
  getTree,
  getTurn,
  getTurnChildren,
];

export function registerTurnRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, TURN_ROUTES);
}
