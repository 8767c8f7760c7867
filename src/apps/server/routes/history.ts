// The story of a branch in one request: the turns from the first message to a turn (the head by default),
// read from the store in one query. A deep branch is capped to its newest turns (HISTORY_MAX_TURNS, and
// HISTORY_MAX_CHARS of stored content); `complete: false` says so, and the client asks again from the
// parent of the oldest turn it got.

import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { HISTORY_MAX_CHARS, HISTORY_MAX_TURNS } from '../limits.ts';
import type { RouteRegistry } from '../openapi.ts';
import { branchEndQuery, errorSchema, historyResponse, sessionParams } from '../schemas.ts';
import { memberTurnView, viewerOf } from '../member-views.ts';
import { guarded } from './guard.ts';

export function registerHistoryRoutes(api: RouteRegistry, deps: AppDeps): void {
  const { service, store } = deps;

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/history',
      tag: 'turns',
      summary: `The turns of the branch ending at \`turnId\` (the head by default), oldest first, as players see them: at most the newest ${HISTORY_MAX_TURNS} (fewer when their stored content passes ${HISTORY_MAX_CHARS} characters). \`complete\` is false when older turns were left out; ask again with the oldest turn’s \`parentId\`. \`limit\` asks for fewer (1 to ${HISTORY_MAX_TURNS}).`,
      params: sessionParams,
      query: branchEndQuery,
      responses: {
        200: { description: 'The branch', schema: historyResponse },
        404: { description: 'No such session or turn', schema: errorSchema },
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const access = await deps.table.access(c.get('principal').id, params.id);
        const { session } = access;
        const viewer = viewerOf(access);
        const turnId = query.turnId ?? session.headTurnId;
        const branch = await store.getBranch(params.id, turnId, {
          limit: query.limit ?? HISTORY_MAX_TURNS,
          maxChars: HISTORY_MAX_CHARS,
        });
        if (branch === undefined) throw new ApiError(404, 'not_found', `turn ${turnId} not found`);
        const { cartridge } = await service.cartridgeOf(session);
        return c.json({
          turnId,
          turns: branch.turns.map((turn) => memberTurnView(turn, cartridge, viewer)),
          complete: branch.complete,
        });
      }),
  );
}
