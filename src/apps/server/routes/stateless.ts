// The stateless turn of the MnesOS contract: state in, state and record out. Nothing is stored; the
// cartridge is a stored version (id, content hash or name). Players get the public state and narration;
// the full state and the record (private fields, rolls, tool calls) only with `?view=full`, for the
// cartridge's owner or on a server in author mode.

import {
  type GameState,
  type InteractionInput,
  isTurnError,
  runTurnToRecord,
} from '../../../engine/turn/index.ts';
import { cryptoSeeds, plainJson } from '../../../engine/session/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { anyObject, errorSchema, statelessTurnBody, turnQuery } from '../schemas.ts';
import { publicState } from '../../../core/yare/index.ts';
import { guarded } from './guard.ts';
import { accessTo } from './cartridges.ts';
import { resolveCartridgeVersion } from './sessions.ts';

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
        200: { description: 'The turn’s result', schema: anyObject },
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
    async ({ c, body, query }) => {
      if (body.input !== undefined && body.input.length > deps.limits.maxInputChars) {
        throw new ApiError(
          413,
          'input_too_long',
          `the input is ${body.input.length} characters; the limit is ${deps.limits.maxInputChars}`,
          {
            limit: deps.limits.maxInputChars,
          },
        );
      }
      const principal = c.get('principal');
      const versionId = await resolveCartridgeVersion(deps, principal, body.cartridge);
      const full = query.view === 'full';
      if (full && !deps.authorMode && (await accessTo(deps, principal, versionId)) !== 'owner') {
        throw new ApiError(
          403,
          'full_view_refused',
          'the full state and record are for the cartridge’s owner or an author-mode server (serve --author)',
        );
      }
      const loaded = await deps.library.load(versionId, body.persona);
      if (loaded === undefined)
        throw new ApiError(404, 'not_found', `no cartridge version '${body.cartridge}'`);
      const { cartridge } = loaded;
      const seed = body.seed ?? cryptoSeeds();
      const models = await guarded(() => deps.models.modelsFor(c.get('principal').id));
      const modelMode = models === null ? 'offline' : 'online';
      const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(deps.limits.turnTimeoutMs)]);
      try {
        const { record } = await runTurnToRecord({
          cartridge,
          state: (body.state ?? plainJson(cartridge.rules.initialState)) as GameState,
          messages: body.messages ?? [],
          ...(body.input !== undefined
            ? { input: body.input }
            : { interaction: body.interaction as InteractionInput }),
          seed,
          models,
          signal,
          ...(body.persona ? { persona: body.persona } : {}),
        });
        const answer = full
          ? { view: 'full', state: plainJson(record.stateAfter), record: plainJson(record) }
          : { view: 'public', state: plainJson(publicState(record.stateAfter, cartridge.rules.schema)) };
        return c.json({ ...answer, narration: record.narration, modelMode }, 200, {
          'x-mnesos-model-mode': modelMode,
        });
      } catch (error) {
        if (!isTurnError(error)) throw error;
        switch (error.kind) {
          case 'input':
          case 'interaction':
          case 'reply': // offline: a question or what can be done here, for the player; nothing ran
            throw new ApiError(422, 'invalid_turn', error.message, { kind: error.kind });
          case 'model':
            throw new ApiError(502, 'model_failed', error.message);
          case 'aborted':
            if (c.req.raw.signal.aborted) throw new ApiError(400, 'turn_aborted', 'the client went away');
            throw new ApiError(504, 'turn_timeout', 'the turn took too long and was abandoned');
          default: {
            const unreachable: never = error.kind;
            throw new ApiError(500, 'internal', String(unreachable));
          }
        }
      }
    },
  );
}
