// Sessions: create from a cartridge version (turn 0 is the first message), list the caller's own, get,
// rename, delete. Another principal's session is a 404.

import type { SessionService } from '../../../engine/session/index.ts';
import type { Principal } from '../../../adapters/store/index.ts';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { DEFAULT_SESSION_PAGE, MAX_SESSION_PAGE_ITEMS } from '../limits.ts';
import type { RouteRegistry } from '../openapi.ts';
import { createdSessionResponse, sessionResponse, sessionsResponse } from '../../contract/index.ts';
import { createSessionBody, errorSchema, renameSessionBody, sessionParams } from '../schemas.ts';
import { decodeSessionCursor, encodeSessionCursor, MAX_SESSION_CURSOR_CHARS } from '../session-cursor.ts';
import { sessionView, turnView } from '../views.ts';
import { libraryOwner } from './cartridges.ts';
import { guarded } from './guard.ts';

const sessionListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_SESSION_PAGE_ITEMS).optional(),
  cursor: z.string().min(1).max(MAX_SESSION_CURSOR_CHARS).optional(),
});

const NOT_FOUND = {
  description: 'No such session (another principal’s is not found either)',
  schema: errorSchema,
};

/**
 * A version id or content hash the principal may start (a listed version of the operator's, their own, or a
 * public cartridge), a cartridge name (the operator's newest version of it, else the principal's own) or a
 * cartridge id (its newest listed version). Another principal's private upload is never found, so nobody's
 * upload changes what a name means for anyone else; an archived version is refused (409), though the
 * sessions that already play it go on.
 */
export async function resolveCartridgeVersion(
  deps: AppDeps,
  principal: Principal,
  ref: string,
): Promise<string> {
  const viewer = libraryOwner(deps, principal);
  const version = await deps.store.getCartridgeVersion(ref);
  if (version !== undefined) {
    if (await deps.store.canStartVersion(viewer, version.id)) return version.id;
    // Seen by the caller (their library's, or played by a session of theirs) but not startable: archived.
    const seen =
      (await deps.store.cartridgeAccess(viewer, version.id)) ??
      (await deps.store.cartridgeAccess(principal.id, version.id));
    if (seen !== undefined)
      throw new ApiError(
        409,
        'archived',
        `cartridge version '${ref}' is archived or no longer in the library: the sessions that play it go on, but no new one can start on it`,
      );
  }
  const named = await deps.store.resolveCartridgeName(viewer, ref);
  if (named !== undefined) return named;
  const cartridge = await deps.store.findLibraryCartridge(viewer, ref);
  const newest =
    cartridge && cartridge.archivedAt === null && (await deps.store.listLibraryVersions(cartridge.id))[0];
  if (newest) return newest.id;
  throw new ApiError(404, 'not_found', `no cartridge or cartridge version '${ref}'`);
}

export function registerSessionRoutes(api: RouteRegistry, deps: AppDeps): void {
  const service: SessionService = deps.service;

  api.add(
    {
      method: 'post',
      path: '/v1/sessions',
      tag: 'sessions',
      summary:
        'Start a session from a cartridge (version id, content hash, or name for its newest version), with an optional persona, seed and greeting (0 = first-message.md, n = alternate greeting n).',
      body: createSessionBody,
      responses: {
        201: {
          description: 'The session and its turn 0 (the first message)',
          schema: createdSessionResponse,
        },
        404: { description: 'No such cartridge or persona', schema: errorSchema },
        409: {
          description:
            'The version is archived (`archived`), or the caller keeps the most sessions allowed (`session_limit`, with `limit`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) =>
      guarded(async () => {
        const principal = c.get('principal');
        const cartridgeVersion = await resolveCartridgeVersion(deps, principal, body.cartridge);
        const { session, turn } = await service.createSession(principal.id, {
          cartridgeVersion,
          ...(body.personaId === undefined ? {} : { personaId: body.personaId }),
          ...(body.seed === undefined ? {} : { seed: body.seed }),
          ...(body.title === undefined ? {} : { title: body.title }),
          ...(body.greeting === undefined ? {} : { greeting: body.greeting }),
        });
        const { cartridge } = await service.cartridgeOf(session);
        return c.json(
          {
            session: sessionView(session),
            turn: turnView(turn, cartridge, 'public'),
            modelMode: deps.modelMode,
          },
          201,
        );
      }),
  );

  api.add(
    {
      method: 'get',
      path: '/v1/sessions',
      tag: 'sessions',
      summary: `The caller’s sessions, most recently played first, in pages (\`limit\` 1–${MAX_SESSION_PAGE_ITEMS}, default ${DEFAULT_SESSION_PAGE}); \`nextCursor\`, sent back as \`cursor\`, gives the next page.`,
      query: sessionListQuery,
      responses: {
        200: { description: 'One page of sessions', schema: sessionsResponse },
        400: {
          description: 'A `limit` out of range, or a `cursor` this server did not give',
          schema: errorSchema,
        },
      },
    },
    async ({ c, query }) =>
      guarded(async () => {
        const limit = query.limit ?? DEFAULT_SESSION_PAGE;
        const after = query.cursor === undefined ? undefined : decodeSessionCursor(query.cursor);
        // One more than asked says whether another page follows.
        const found = await deps.store.listSessions(c.get('principal').id, {
          limit: limit + 1,
          ...(after === undefined ? {} : { after }),
        });
        const page = found.slice(0, limit);
        const last = page.at(-1);
        const nextCursor =
          found.length > limit && last !== undefined
            ? encodeSessionCursor({ updatedAt: last.updatedAt, id: last.id })
            : null;
        return c.json({ sessions: page.map(sessionView), nextCursor });
      }),
  );

  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id',
      tag: 'sessions',
      summary: 'One session.',
      params: sessionParams,
      responses: { 200: { description: 'The session', schema: sessionResponse }, 404: NOT_FOUND },
    },
    async ({ c, params }) =>
      guarded(async () =>
        c.json({ session: sessionView((await deps.table.access(c.get('principal').id, params.id)).session) }),
      ),
  );

  api.add(
    {
      method: 'patch',
      path: '/v1/sessions/:id',
      tag: 'sessions',
      summary: 'Rename a session, or choose who the player plays in it (personaId, from the next turn on).',
      params: sessionParams,
      body: renameSessionBody,
      responses: { 200: { description: 'The session', schema: sessionResponse }, 404: NOT_FOUND },
    },
    async ({ c, params, body }) => {
      const principalId = c.get('principal').id;
      let session = await deps.store.getSession(params.id, principalId);
      if (session !== undefined && body.personaId !== undefined) {
        const chosen = await deps.store.setSessionPersona(params.id, principalId, body.personaId);
        if (chosen === 'persona-not-found')
          throw new ApiError(404, 'not_found', `persona ${body.personaId} not found`);
        session = chosen;
      }
      if (session !== undefined && body.title !== undefined)
        session = await deps.store.renameSession(params.id, principalId, body.title);
      if (session === undefined) throw new ApiError(404, 'not_found', `session ${params.id} not found`);
      return c.json({ session: sessionView(session) });
    },
  );

  api.add(
    {
      method: 'delete',
      path: '/v1/sessions/:id',
      tag: 'sessions',
      summary: 'Delete a session with its turns, ledger and saves.',
      params: sessionParams,
      responses: { 204: { description: 'Deleted' }, 404: NOT_FOUND },
    },
    async ({ c, params }) => {
      const deleted = await deps.store.deleteSession(params.id, c.get('principal').id);
      if (!deleted) throw new ApiError(404, 'not_found', `session ${params.id} not found`);
      return c.body(null, 204);
    },
  );
}
