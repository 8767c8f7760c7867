// The stateless turn of the MnesOS contract: state in, state and record out. Nothing is stored; the
// cartridge is a stored version (id, content hash or name). Players get the public state and narration;
// the full state and the record (private fields, rolls, tool calls) only with `?view=full`, for the
// cartridge's owner or on a server in author mode.

import type { Context } from 'hono';
import type { z } from 'zod';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { GameState, TurnRecord } from '../../../engine/turn/index.ts';
import { plainJson, type StatelessOutcome, turnOf } from '../../../engine/session/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { AppEnv, RouteRegistry } from '../openapi.ts';
import { statelessTurnResponse } from '../../contract/index.ts';
import { errorSchema, statelessTurnBody, turnQuery } from '../schemas.ts';
import { publicState } from '../../../core/yare/index.ts';
import { guarded } from './guard.ts';
import { accessTo } from './cartridges.ts';
import { resolveCartridgeVersion } from './sessions.ts';

type StatelessBody = z.infer<typeof statelessTurnBody>;

/** The turn the body asks for, admitted first (as a session turn is: the input limit answers before the
 * cartridge is looked up), on the cartridge version it names; a full view only for whom it is for. */
async function playStatelessBody(
  deps: AppDeps,
  c: Context<AppEnv>,
  body: StatelessBody,
  full: boolean,
): Promise<{ outcome: StatelessOutcome; cartridge: Cartridge }> {
  const principal = c.get('principal');
  const request = deps.service.admit({ turn: turnOf(body) });
  const versionId = await resolveCartridgeVersion(deps, principal, body.cartridge);
  if (full && !deps.authorMode && (await accessTo(deps, principal, versionId)) !== 'owner') {
    throw new ApiError(
      403,
      'full_view_refused',
      'the full state and record are for the cartridge’s owner or an author-mode server (serve --author)',
    );
  }
  const loaded = await deps.library.load(versionId, body.persona);
  if (loaded === undefined) throw new ApiError(404, 'not_found', `no cartridge version '${body.cartridge}'`);
  const { cartridge } = loaded;
  const outcome = await deps.service.playStateless(
    principal.id,
    {
      request,
      cartridge,
      state: (body.state ?? plainJson(cartridge.rules.initialState)) as GameState,
      messages: body.messages ?? [],
      ...(body.seed === undefined ? {} : { seed: body.seed }),
      ...(body.persona ? { persona: body.persona } : {}),
    },
    { signal: c.req.raw.signal },
  );
  return { outcome, cartridge };
}

/** The played turn as the caller may see it: the full state and record, or the public state. */
function statelessView(record: TurnRecord, cartridge: Cartridge, full: boolean) {
  return full
    ? { view: 'full' as const, state: plainJson(record.stateAfter), record: plainJson(record) }
    : { view: 'public' as const, state: plainJson(publicState(record.stateAfter, cartridge.rules.schema)) };
}

export function registerStatelessRoutes(api: RouteRegistry, deps: AppDeps): void {
  api.add(
    {
      method: 'post',
      path: '/v1/turn',
      tag: 'turns',
      summary:
        'One stateless turn: the cartridge, the state before (its initial state when absent), recent messages and the input in; the state after, the narration and the full record out. Nothing is stored.',
      body: statelessTurnBody,
      query: turnQuery,
      responses: {
        200: {
          description: 'The turn’s result, or an answer without a turn (`played: false`; docs/api.md)',
          schema: statelessTurnResponse,
        },
        403: {
          description:
            '`view=full` by a caller who neither owns the cartridge nor runs an author-mode server',
          schema: errorSchema,
        },
        404: { description: 'No such cartridge', schema: errorSchema },
        413: { description: 'Input too long', schema: errorSchema },
        422: {
          description: 'The engine refuses the input or state, or the caller’s model settings cannot be used',
          schema: errorSchema,
        },
        502: { description: 'The model failed', schema: errorSchema },
        504: { description: 'Timed out', schema: errorSchema },
      },
    },
    async ({ c, body, query }) =>
      guarded(async () => {
        const full = query.view === 'full';
        const { outcome, cartridge } = await playStatelessBody(deps, c, body, full);
        const headers = { 'x-mnesos-model-mode': outcome.mode };
        if (outcome.kind === 'answered')
          return c.json({ ...outcome.answer, modelMode: outcome.mode }, 200, headers);
        const { record, mode } = outcome;
        return c.json(
          { ...statelessView(record, cartridge, full), narration: record.narration, modelMode: mode },
          200,
          headers,
        );
      }),
  );
}
