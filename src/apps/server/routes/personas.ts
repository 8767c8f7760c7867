// Personas: the player characters of a principal (name, pronouns, background), used for the persona
// macros and the Narrator's prompt. Another principal's persona is a 404.

import type { Persona } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { type PersonaView, personaResponse, personasResponse } from '../../contract/index.ts';
import { errorSchema, id, personaData, personaPatch } from '../schemas.ts';
import { z } from 'zod';

const params = z.object({ id });
const NOT_FOUND = { description: 'No such persona', schema: errorSchema };

/** The stored fields were checked by `personaData` when written. */
function view(persona: Persona): PersonaView {
  return {
    id: persona.id,
    ...(persona.data as z.infer<typeof personaData>),
    createdAt: persona.createdAt,
    updatedAt: persona.updatedAt,
  };
}

const createPersona: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'post',
      path: '/v1/personas',
      tag: 'personas',
      summary: 'Create a persona.',
      body: personaData,
      responses: { 201: { description: 'The persona', schema: personaResponse } },
    },
    async ({ c, body }) => {
      const result = await store.createPersona({
        principalId: c.get('principal').id,
        name: body.name,
        data: body,
      });
      if (!result.ok) throw new ApiError(404, 'not_found', 'principal not found');
      return c.json({ persona: view(result.persona) }, 201);
    },
  );
};

const listPersonas: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/personas',
      tag: 'personas',
      summary: 'The caller’s personas.',
      responses: { 200: { description: 'Personas', schema: personasResponse } },
    },
    async ({ c }) => c.json({ personas: (await store.listPersonas(c.get('principal').id)).map(view) }),
  );
};

const getPersona: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/personas/:id',
      tag: 'personas',
      summary: 'One persona.',
      params,
      responses: { 200: { description: 'The persona', schema: personaResponse }, 404: NOT_FOUND },
    },
    async ({ c, params }) => {
      const persona = await store.getPersona(params.id, c.get('principal').id);
      if (persona === undefined) throw new ApiError(404, 'not_found', `persona ${params.id} not found`);
      return c.json({ persona: view(persona) });
    },
  );
};

const patchPersona: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'patch',
      path: '/v1/personas/:id',
      tag: 'personas',
      summary: 'Change some of a persona’s fields (a JSON merge patch: `null` removes an optional field).',
      params,
      body: personaPatch,
      responses: { 200: { description: 'The persona', schema: personaResponse }, 404: NOT_FOUND },
    },
    async ({ c, params, body }) => {
      const principalId = c.get('principal').id;
      const existing = await store.getPersona(params.id, principalId);
      if (existing === undefined) throw new ApiError(404, 'not_found', `persona ${params.id} not found`);
      const data: Record<string, unknown> = { ...(existing.data as Record<string, unknown>), ...body };
      for (const [field, value] of Object.entries(body)) if (value === null) delete data[field];
      const updated = await store.updatePersona(params.id, principalId, { name: String(data.name), data });
      if (updated === undefined) throw new ApiError(404, 'not_found', `persona ${params.id} not found`);
      return c.json({ persona: view(updated) });
    },
  );
};

const deletePersona: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/personas/:id',
      tag: 'personas',
      summary: 'Delete a persona (sessions that used it keep playing with the default persona).',
      params,
      responses: { 204: { description: 'Deleted' }, 404: NOT_FOUND },
    },
    async ({ c, params }) => {
      if (!(await store.deletePersona(params.id, c.get('principal').id)))
        throw new ApiError(404, 'not_found', `persona ${params.id} not found`);
      return c.body(null, 204);
    },
  );
};

/** Every route of this file, in the order they are registered. */
export const PERSONA_ROUTES: readonly RouteDefinition[] = [
  createPersona,
  listPersonas,
  getPersona,
  patchPersona,
  deletePersona,
];

export function registerPersonaRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, PERSONA_ROUTES);
}
