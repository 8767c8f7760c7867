// Saves: named bookmarks of turns. Loading a save moves the head to its turn; playing on from there
// starts a branch.

import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import { saveResponse, savesResponse, sessionResponse } from '../../contract/index.ts';
import { errorSchema, renameSaveBody, saveBody, saveParams, sessionParams } from '../schemas.ts';
import { saveView, sessionView } from '../views.ts';
import { guarded } from './guard.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';

const ERRORS = {
  404: { description: 'No such session, turn or save', schema: errorSchema },
  409: { description: 'The name is taken in this session', schema: errorSchema },
} as const;

function saveFailure(
  reason: 'session-not-found' | 'turn-not-found' | 'save-not-found' | 'name-taken',
): ApiError {
  switch (reason) {
    case 'name-taken':
      return new ApiError(409, 'name_taken', 'a save of this session already has that name');
    case 'session-not-found':
    case 'turn-not-found':
    case 'save-not-found':
      return new ApiError(404, 'not_found', `${reason.replace('-not-found', '')} not found`);
    default: {
      const unreachable: never = reason;
      return new ApiError(500, 'internal', String(unreachable));
    }
  }
}

/** The caller's session (404 for anyone else's), before anything of its saves is read or changed. */
function owned(deps: AppDeps, principalId: string, sessionId: string) {
  return guarded(() => deps.service.getSession(principalId, sessionId));
}

const createSave: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/saves',
      tag: 'saves',
      summary: 'Bookmark a turn (the head by default) under a name unique in the session.',
      params: sessionParams,
      body: saveBody,
      responses: { 201: { description: 'The save', schema: saveResponse }, ...ERRORS },
    },
    async ({ c, params, body }) => {
      const session = await owned(deps, c.get('principal').id, params.id);
      const result = await store.createSave({
        sessionId: params.id,
        turnId: body.turnId ?? session.headTurnId,
        name: body.name,
      });
      if (!result.ok) throw saveFailure(result.reason);
      return c.json({ save: saveView(result.save) }, 201);
    },
  );
};

const listSaves: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/saves',
      tag: 'saves',
      summary: 'The session’s saves.',
      params: sessionParams,
      responses: { 200: { description: 'Saves', schema: savesResponse }, 404: ERRORS[404] },
    },
    async ({ c, params }) => {
      await owned(deps, c.get('principal').id, params.id);
      return c.json({ saves: (await store.listSaves(params.id)).map(saveView) });
    },
  );
};

const renameSave: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'patch',
      path: '/v1/sessions/:id/saves/:saveId',
      tag: 'saves',
      summary: 'Rename a save.',
      params: saveParams,
      body: renameSaveBody,
      responses: { 200: { description: 'The save', schema: saveResponse }, ...ERRORS },
    },
    async ({ c, params, body }) => {
      await owned(deps, c.get('principal').id, params.id);
      const result = await store.renameSave(params.id, params.saveId, body.name);
      if (!result.ok) throw saveFailure(result.reason);
      return c.json({ save: saveView(result.save) });
    },
  );
};

const deleteSave: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/sessions/:id/saves/:saveId',
      tag: 'saves',
      summary: 'Delete a save (the turn stays).',
      params: saveParams,
      responses: { 204: { description: 'Deleted' }, 404: ERRORS[404] },
    },
    async ({ c, params }) => {
      await owned(deps, c.get('principal').id, params.id);
      if (!(await store.deleteSave(params.id, params.saveId)))
        throw new ApiError(404, 'not_found', 'save not found');
      return c.body(null, 204);
    },
  );
};

const loadSave: RouteDefinition = (api, deps) => {
  const { service, store } = deps;
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/saves/:saveId/load',
      tag: 'saves',
      summary: 'Load a save: move the head to its turn.',
      params: saveParams,
      responses: { 200: { description: 'The session', schema: sessionResponse }, 404: ERRORS[404] },
    },
    async ({ c, params }) => {
      const principalId = c.get('principal').id;
      await owned(deps, principalId, params.id);
      const save = await store.getSave(params.id, params.saveId);
      if (save === undefined) throw new ApiError(404, 'not_found', 'save not found');
      const session = await guarded(() => service.moveHead(principalId, params.id, save.turnId));
      return c.json({ session: sessionView(session) });
    },
  );
};

/** Every route of this file, in the order they are registered. */
export const SAVE_ROUTES: readonly RouteDefinition[] = [
  createSave,
  listSaves,
  renameSave,
  deleteSave,
  loadSave,
];

export function registerSaveRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, SAVE_ROUTES);
}
