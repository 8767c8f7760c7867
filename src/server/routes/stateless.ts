// The stateless turn of the MnesOS contract: state in, state and record out. Nothing is stored; the
// cartridge is a stored version (id, content hash or name).

import { runTurnToRecord } from '../../turn/run-turn.ts';
import { isTurnError } from '../../turn/errors.ts';
import type { GameState, InteractionInput } from '../../turn/types.ts';
import { plainJson } from '../../session/canonical.ts';
import { cryptoSeeds } from '../../session/seeds.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { anyObject, errorSchema, statelessTurnBody } from '../schemas.ts';
import { guarded } from './guard.ts';
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
      responses: {
        200: { description: 'The turn’s result', schema: anyObject },
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
    async ({ c, body }) => {
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
      const versionId = await resolveCartridgeVersion(deps, body.cartridge);
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
        return c.json(
          {
            state: plainJson(record.stateAfter),
            narration: record.narration,
            record: plainJson(record),
            modelMode,
          },
          200,
          { 'x-mnesos-model-mode': modelMode },
        );
      } catch (error) {
        if (!isTurnError(error)) throw error;
        switch (error.kind) {
          case 'input':
          case 'interaction':
            throw new ApiError(422, 'invalid_turn', error.message);
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
