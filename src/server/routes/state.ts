// The game at a turn: its state (player view, or the full state for the owner in author mode), its world
// ledger (the replayed world and the log), and author-mode event runs.

import { summarizeWorld } from '../../ledger/index.ts';
import { plainJson } from '../../session/canonical.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  anyObject,
  atTurnQuery,
  authorEventBody,
  errorSchema,
  sessionParams,
  stateQuery,
} from '../schemas.ts';
import { turnView } from '../views.ts';
import { guarded } from './guard.ts';
import { viewFor } from './turns.ts';

const NOT_FOUND = { description: 'No such session or turn', schema: errorSchema };

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
        200: { description: 'The state', schema: anyObject },
        403: { description: 'view=full without author mode', schema: errorSchema },
        404: NOT_FOUND,
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const view = viewFor(deps, query.view);
        const session = await service.getSession(principalId, params.id);
        const turn = await service.getTurn(principalId, params.id, query.turnId ?? session.headTurnId);
        const { cartridge } = await service.cartridgeOf(session);
        const shown = turnView(turn, cartridge, view);
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
        'The world ledger at a turn (the head by default): the replay of its branch’s batches, and a summary.',
      params: sessionParams,
      query: atTurnQuery,
      responses: {
        200: { description: 'The world', schema: anyObject },
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
        return c.json({
          turnId,
          world: plainJson(result.world),
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
        'The ledger log of the branch ending at a turn (the head by default): every event with its turn.',
      params: sessionParams,
      query: atTurnQuery,
      responses: { 200: { description: 'The log', schema: anyObject }, 404: NOT_FOUND },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const session = await service.getSession(principalId, params.id);
        const turnId = query.turnId ?? session.headTurnId;
        const rows = await store.getLedgerLog(params.id, turnId);
        if (rows === undefined) throw new ApiError(404, 'not_found', `turn ${turnId} not found`);
        return c.json({ turnId, entries: rows });
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
        200: { description: 'The dry run', schema: anyObject },
        201: { description: 'The committed turn', schema: anyObject },
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
