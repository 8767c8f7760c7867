// The game at a turn: its state (player view, or the full state for the owner in author mode), its world
// ledger (the replayed world and the log), and author-mode event runs.

import { z } from 'zod';
import { summarizeWorld, worldPage } from '../../../core/ledger/index.ts';
import { plainJson } from '../../../engine/session/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { MAX_LEDGER_PAGE_TURNS } from '../../../adapters/store/limits.ts';
import { DEFAULT_LEDGER_PAGE_TURNS, DEFAULT_WORLD_PAGE_RECORDS, MAX_WORLD_PAGE_RECORDS } from '../limits.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  authorEventResponse,
  authorEventsResponse,
  ledgerResponse,
  stateResponse,
  worldResponse,
} from '../../contract/index.ts';
import { authorEventBody, errorSchema, id, sessionParams, stateQuery } from '../schemas.ts';
import { turnView } from '../views.ts';
import { seatTurnView, viewerOf } from '../member-views.ts';
import { guarded } from './guard.ts';
import { viewForSeat } from './turns.ts';

const NOT_FOUND = { description: 'No such session or turn', schema: errorSchema };

/** Characters of a world page cursor (a table name and a record key). */
const MAX_WORLD_CURSOR_CHARS = 2_000;

const worldQuery = z.object({
  turnId: id.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_WORLD_PAGE_RECORDS).optional(),
  cursor: z.string().min(1).max(MAX_WORLD_CURSOR_CHARS).optional(),
});

const ledgerQuery = z.object({
  turnId: id.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LEDGER_PAGE_TURNS).optional(),
});

export function registerStateRoutes(api: RouteRegistry, deps: AppDeps): void {
  const { service, store } = deps;

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/state',
      tag: 'state',
      summary:
        'The game state at a turn (the head by default): public fields only, or with `view=full` the whole state (author mode, owner only).',
      params: sessionParams,
      query: stateQuery,
      responses: {
        200: { description: 'The state', schema: stateResponse },
        403: { description: 'view=full without author mode', schema: errorSchema },
        404: NOT_FOUND,
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const access = await deps.table.access(principalId, params.id);
        const { session } = access;
        const view = viewForSeat(deps, query.view, access.role);
        const turn = await service.getTurn(
          session.principalId,
          params.id,
          query.turnId ?? session.headTurnId,
        );
        const { cartridge } = await service.cartridgeOf(session);
        const shown = seatTurnView(turn, cartridge, view, viewerOf(access));
        return c.json({
          turnId: turn.id,
          view,
          state: shown.state,
          pendingInteraction: shown.pendingInteraction,
        });
      }),
  );

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/world',
      tag: 'ledger',
      summary:
        'The world ledger at a turn (the head by default), a page of at most `limit` records (default 1000, at most 5000) with a summary; `page.next` is the `cursor` of the next page (null at the end). The world is the nearest stored snapshot on the branch plus the batches after it, so the cost does not grow with the branch’s depth.',
      params: sessionParams,
      query: worldQuery,
      responses: {
        200: { description: 'The world', schema: worldResponse },
        404: NOT_FOUND,
        500: { description: 'The stored ledger does not replay', schema: errorSchema },
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const session = await service.getSession(principalId, params.id);
        const turnId = query.turnId ?? session.headTurnId;
        const { result } = await service.worldAt(principalId, params.id, turnId);
        if (!result.ok) {
          throw new ApiError(500, 'ledger_replay_failed', 'the stored ledger does not replay', {
            turn: result.turn,
            errors: result.errors,
          });
        }
        const paged = worldPage(
          result.world,
          query.limit ?? DEFAULT_WORLD_PAGE_RECORDS,
          query.cursor ?? null,
        );
        if (!paged.ok) throw new ApiError(400, 'bad_cursor', paged.message);
        return c.json({
          turnId,
          world: plainJson(paged.page.world),
          page: { records: paged.page.records, next: paged.page.next },
          summary: plainJson(summarizeWorld(result.world)),
        });
      }),
  );

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/ledger',
      tag: 'ledger',
      summary:
        'The ledger log of the branch ending at a turn (the head by default), one page at a time: the events of the `limit` turns ending there (default 200, at most 1000), oldest first; `nextTurnId` is the `turnId` of the next (older) page, null once the page reached the first turn.',
      params: sessionParams,
      query: ledgerQuery,
      responses: { 200: { description: 'The log', schema: ledgerResponse }, 404: NOT_FOUND },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const session = await service.getSession(principalId, params.id);
        const turnId = query.turnId ?? session.headTurnId;
        const page = await store.getLedgerPage(params.id, turnId, query.limit ?? DEFAULT_LEDGER_PAGE_TURNS);
        if (page === undefined) throw new ApiError(404, 'not_found', `turn ${turnId} not found`);
        return c.json({ turnId, entries: page.entries, turns: page.turns, nextTurnId: page.nextTurnId });
      }),
  );

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/events',
      tag: 'author',
      summary:
        "Author mode: the session's cartridge's events (internal ones included) with their inputs, for the event console to offer.",
      params: sessionParams,
      responses: {
        200: { description: 'The events', schema: authorEventsResponse },
        403: { description: 'Author mode is off', schema: errorSchema },
        404: NOT_FOUND,
      },
    },
    async ({ c, params }) =>
      guarded(async () => {
        if (!deps.authorMode)
          throw new ApiError(
            403,
            'author_mode_off',
            'the event list needs the server in author mode (serve --author)',
          );
        const session = await service.getSession(c.get('principal').id, params.id);
        const { cartridge } = await service.cartridgeOf(session);
        const events = [...cartridge.rules.events.values()].map((e) => ({
          name: e.name,
          description: e.description,
          internal: e.internal,
          inputs: e.inputList.map((i) => ({
            name: i.name,
            type: i.type ?? null,
            enum: i.enum === undefined ? null : (plainJson(i.enum) as unknown[]),
            default: i.hasDefault ? plainJson(i.default) : null,
            required: i.required,
          })),
        }));
        return c.json({ events }, 200);
      }),
  );

  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/events',
      tag: 'author',
      summary:
        'Author mode: run one rule event by hand on the state at a turn (the head by default). With `commit: true` the result becomes a turn on the tree; otherwise nothing changes.',
      params: sessionParams,
      body: authorEventBody,
      responses: {
        200: { description: 'The dry run', schema: authorEventResponse },
        201: { description: 'The committed turn', schema: authorEventResponse },
        403: { description: 'Author mode is off', schema: errorSchema },
        404: NOT_FOUND,
        409: { description: 'The head moved', schema: errorSchema },
        422: { description: 'Unknown event or the event failed', schema: errorSchema },
      },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        if (!deps.authorMode)
          throw new ApiError(
            403,
            'author_mode_off',
            'direct event runs need the server in author mode (serve --author)',
          );
        const principalId = c.get('principal').id;
        const session = await service.getSession(principalId, params.id);
        const result = await service.runAuthorEvent(principalId, params.id, {
          event: body.event,
          inputs: body.inputs ?? {},
          ...(body.parentId === undefined ? {} : { parentId: body.parentId }),
          ...(body.commit === undefined ? {} : { commit: body.commit }),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
        });
        if (result.turn === undefined) return c.json({ record: result.record }, 200);
        const { cartridge } = await service.cartridgeOf(session);
        return c.json({ record: result.record, turn: turnView(result.turn, cartridge, 'full') }, 201);
      }),
  );
}
