// The public part of a session's cartridge state schema: what a client needs to lay out the state (bars for
// bounded numbers) without ever learning the names of private fields.

import type { AppDeps } from '../deps.ts';
import type { RouteRegistry } from '../openapi.ts';
import { publicSchemaFields } from '../schema-view.ts';
import { errorSchema, schemaResponse, sessionParams } from '../schemas.ts';
import { guarded } from './guard.ts';

export function registerSchemaRoutes(api: RouteRegistry, deps: AppDeps): void {
  const { service } = deps;

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/schema',
      tag: 'state',
      summary:
        'The public fields of the session’s cartridge state schema (path, type, min, max, description); private fields are never listed.',
      params: sessionParams,
      responses: {
        200: { description: 'The public fields', schema: schemaResponse },
        404: { description: 'No such session', schema: errorSchema },
      },
    },
    async ({ c, params }) =>
      guarded(async () => {
        const { session } = await deps.table.access(c.get('principal').id, params.id);
        const { cartridge } = await service.cartridgeOf(session);
        return c.json({ fields: publicSchemaFields(cartridge.rules.schema) });
      }),
  );
}
