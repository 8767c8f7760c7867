// `GET /v1/schemas/:kind`: the editor JSON Schemas (yare, directives, scenario), the same documents
// `mnesos schema <kind>` prints.

import { z } from 'zod';
import { isSchemaKind, jsonSchemaOf, SCHEMA_KINDS } from '../../../tools/authoring/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { jsonSchemaDocument } from '../../contract/index.ts';
import { errorSchema } from '../schemas.ts';

export function registerAuthoringSchemaRoutes(api: RouteRegistry, _deps: AppDeps): void {
  // The schemas are fixed: each is built on its first request, then served from here.
  const built = new Map<string, Record<string, unknown>>();
  api.add(
    {
      method: 'get',
      path: '/v1/schemas/:kind',
      tag: 'system',
      summary: `The JSON Schema of a cartridge file kind, for editors: ${SCHEMA_KINDS.join(', ')}.`,
      params: z.object({ kind: z.string().max(40) }),
      responses: {
        200: { description: 'A JSON Schema (draft-07)', schema: jsonSchemaDocument },
        404: { description: 'No such kind', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      if (!isSchemaKind(params.kind))
        throw new ApiError(404, 'not_found', `no schema '${params.kind}'; kinds: ${SCHEMA_KINDS.join(', ')}`);
      let schema = built.get(params.kind);
      if (schema === undefined) {
        schema = jsonSchemaOf(params.kind);
        built.set(params.kind, schema);
      }
      return c.json(schema);
    },
  );
}
