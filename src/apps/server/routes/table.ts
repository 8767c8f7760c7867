// A shared table (docs/multiplayer.md): invitations, joining, who sits at it, roles, turn order. Thin: each
// route parses, calls the table service (engine/session/table) and answers. A principal who is neither the
// session's owner nor a member gets 404, as for any session that is not theirs.

import { z } from 'zod';
import {
  MAX_INVITE_TTL_MS,
  MAX_INVITE_USES,
  MAX_MEMBER_NAME_CHARS,
  MIN_INVITE_TTL_MS,
  SessionError,
  steers,
  type TableAccess,
  type TableService,
} from '../../../engine/session/index.ts';
import type { Principal, TableSettings } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { createGuest } from '../guests.ts';
import type { RouteRegistry } from '../openapi.ts';
import { errorSchema, id, sessionParams, turnQuery } from '../schemas.ts';
import { answer, REPLAYED_OR_STREAMED, viewForSeat } from './turns.ts';
import { viewerOf } from '../member-views.ts';
import {
  inviteCreatedResponse,
  invitesResponse,
  joinedResponse,
  memberResponse,
  tableResponse,
  tableSettingsResponse,
  type TableResponse,
  turnResultResponse,
} from '../../contract/index.ts';
import { inviteView, memberView, tableView } from '../table-views.ts';
import { sessionView } from '../views.ts';
import { guarded } from './guard.ts';

const character = z.string().min(1).max(64);
const memberParams = z.object({ id, character });
const inviteParams = z.object({ id, inviteId: id });
const codeParams = z.object({ code: z.string().min(1).max(200) });

const inviteBody = z.strictObject({
  ttlMs: z.number().int().min(MIN_INVITE_TTL_MS).max(MAX_INVITE_TTL_MS).optional(),
  maxUses: z.number().int().min(1).max(MAX_INVITE_USES).optional(),
});
const joinBody = z.strictObject({
  personaId: id.optional(),
  name: z.string().trim().min(1).max(MAX_MEMBER_NAME_CHARS).optional(),
  /** Keyless local play: join as a new guest (a principal with a key of their own), not as the local user. */
  guest: z.boolean().optional(),
});
const roleBody = z.strictObject({ role: z.enum(['gm', 'player']) });
const tableBody = z
  .strictObject({ turnOrder: z.enum(['free', 'rounds']).optional(), invitesClosed: z.boolean().optional() })
  .refine((b) => b.turnOrder !== undefined || b.invitesClosed !== undefined, {
    message: 'give turnOrder, invitesClosed or both',
  });

const NOT_FOUND = { description: 'No such session (or not a member of it)', schema: errorSchema };
const NOT_ALLOWED = { description: 'Only the owner or a game master may do this', schema: errorSchema };

export function registerTableRoutes(api: RouteRegistry, deps: AppDeps): void {
  const { table } = deps;
  registerInviteRoutes(api, deps, table);
  registerJoinRoute(api, deps, table);
  registerMemberRoutes(api, table);
  registerRoundRoute(api, deps, table);
  registerLiveRoute(api, deps, table);
  registerTableRoute(api, table);
}

function registerRoundRoute(api: RouteRegistry, deps: AppDeps, table: TableService): void {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/round',
      tag: 'table',
      summary:
        'Close the round: it plays now as one turn with the actions submitted so far (owner or game master). Streamed like a turn with `Accept: text/event-stream`.',
      params: sessionParams,
      query: turnQuery,
      responses: {
        200: REPLAYED_OR_STREAMED,
        201: { description: 'The round’s turn', schema: turnResultResponse },
        403: NOT_ALLOWED,
        404: NOT_FOUND,
        409: { description: 'The round was played meanwhile', schema: errorSchema },
        422: { description: 'Nobody acted, or the table does not play in rounds', schema: errorSchema },
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principal = c.get('principal');
        const access = await table.access(principal.id, params.id);
        const view = viewForSeat(deps, query.view, access.role);
        const prepared = await table.closeRound(principal.id, params.id);
        return answer(c, deps, principal.id, params.id, prepared, view, viewerOf(access));
      }),
  );
}

function registerLiveRoute(api: RouteRegistry, deps: AppDeps, table: TableService): void {
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/live',
      tag: 'table',
      summary:
        'The table live, as Server-Sent Events for this member: `hello` (the table now, as GET …/table answers), then numbered events — `turn` (a committed turn as you may see it), `head` (undo, a move), `member_joined`, `member_left`, `member_role`, `table`, `queue`, `round` — and, unnumbered, `turn_started`, `narration` (prose as it streams) and `turn_failed`. Reconnect with `Last-Event-ID` (or `?lastEventId=`) to catch up; `reset` means the events you missed are no longer kept (reload the table).',
      params: sessionParams,
      query: liveQuery,
      responses: {
        200: { description: 'The event stream', contentType: 'text/event-stream' },
        400: { description: 'A Last-Event-ID that is not an event number', schema: errorSchema },
        404: NOT_FOUND,
        429: { description: 'Too many live streams (`too_many_streams`, with `limit`)', schema: errorSchema },
      },
    },
    async ({ c, params, query }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const access = await table.access(principalId, params.id);
        const last = lastEventIdOf(c.req.header('last-event-id') ?? query.lastEventId);
        const stream = await deps.live.connect(access, principalId, last, (seat) =>
          tableSnapshot(table, principalId, seat),
        );
        c.req.raw.signal.addEventListener('abort', () => stream.close(), { once: true });
        // On the Node server, a reader that falls behind loses its connection at once (stream.ts).
        const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
        if (outgoing !== undefined) stream.cutWith(() => outgoing.destroy());
        return new Response(stream.body, {
          status: 200,
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            'x-accel-buffering': 'no',
          },
        });
      }),
  );
}

function registerTableRoute(api: RouteRegistry, table: TableService): void {
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/table',
      tag: 'table',
      summary:
        'The table of a session: its turn order, who sits at it (by character), your seat, the queue of waiting turns and the round’s submitted actions.',
      params: sessionParams,
      responses: { 200: { description: 'The table', schema: tableResponse }, 404: NOT_FOUND },
    },
    async ({ c, params }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        return c.json(await tableSnapshot(table, principalId, await table.access(principalId, params.id)));
      }),
  );

  api.add(
    {
      method: 'patch',
      path: '/v1/sessions/:id/table',
      tag: 'table',
      summary:
        'Change the turn order (`free`: first come, first played, the others queued; `rounds`: everyone submits, the round plays as one turn) or close (reopen) invitations. Owner or game master.',
      params: sessionParams,
      body: tableBody,
      responses: {
        200: { description: 'The table', schema: tableSettingsResponse },
        403: NOT_ALLOWED,
        404: NOT_FOUND,
      },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        let settings: TableSettings | undefined;
        if (body.turnOrder !== undefined)
          settings = await table.setTurnOrder(principalId, params.id, body.turnOrder);
        if (body.invitesClosed !== undefined)
          settings = await table.closeInvites(principalId, params.id, { reopen: !body.invitesClosed });
        if (settings === undefined) throw new ApiError(404, 'not_found', `table ${params.id} not found`);
        return c.json({ table: tableView(settings) });
      }),
  );
}

const liveQuery = z.object({ lastEventId: z.string().max(20).optional() });

/** A Last-Event-ID as sent: a table event's number, or nothing. */
function lastEventIdOf(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (!/^[0-9]{1,15}$/.test(text.trim()) || !Number.isSafeInteger(value))
    throw new ApiError(
      400,
      'invalid_request',
      'Last-Event-ID must be the number of a table event this stream sent',
    );
  return value;
}

/** The table as one member sees it now: what GET …/table answers and a live stream's `hello` says. */
async function tableSnapshot(
  table: TableService,
  principalId: string,
  access: TableAccess,
): Promise<TableResponse> {
  const state = await table.state(principalId, access.session.id);
  const [queue, roundActions] = await Promise.all([
    table.queueView(access.session.id),
    table.roundView(state.access, state.table),
  ]);
  return {
    session: sessionView(state.access.session),
    table: state.table === undefined ? null : tableView(state.table),
    members: state.members.map((m) => memberView(m, principalId)),
    you: {
      role: state.access.role,
      character: state.access.member?.character ?? null,
      steers: steers(state.access.role),
    },
    // Copies: the contract's objects are open to fields a newer server adds, the session layer's are not.
    queue: queue.map((waiting) => ({ ...waiting })),
    roundActions: roundActions.map((action) => ({ ...action })),
  };
}

function registerInviteRoutes(api: RouteRegistry, deps: AppDeps, table: TableService): void {
  createInvite(api, deps, table);
  listInvites(api, table);
  closeInvite(api, table);
}

/** POST …/invites: a new invitation, its code shown once. */
function createInvite(api: RouteRegistry, deps: AppDeps, table: TableService): void {
  api.add(
    {
      method: 'post',
      path: '/v1/sessions/:id/invites',
      tag: 'table',
      summary: `Invite others to the session (it becomes a table): a code and a link, shown once, that live \`ttlMs\` (default 7 days, at most 30) for at most \`maxUses\` joins. Owner or game master; at most ${deps.limits.maxTableInvites} usable at once.`,
      params: sessionParams,
      body: inviteBody,
      responses: {
        201: { description: 'The invitation with its code', schema: inviteCreatedResponse },
        403: NOT_ALLOWED,
        404: NOT_FOUND,
        409: {
          description: 'The table holds the most invitations it may (`table_limit`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const made = await table.invite(c.get('principal'), params.id, {
          ...(body.ttlMs === undefined ? {} : { ttlMs: body.ttlMs }),
          ...(body.maxUses === undefined ? {} : { maxUses: body.maxUses }),
        });
        return c.json({ invite: inviteView(made.invite, made.code) }, 201);
      }),
  );
}

/** GET …/invites: the invitations, without their codes. */
function listInvites(api: RouteRegistry, table: TableService): void {
  api.add(
    {
      method: 'get',
      path: '/v1/sessions/:id/invites',
      tag: 'table',
      summary: 'The table’s invitations (without their codes). Owner or game master.',
      params: sessionParams,
      responses: {
        200: { description: 'Invitations', schema: invitesResponse },
        403: NOT_ALLOWED,
        404: NOT_FOUND,
      },
    },
    async ({ c, params }) =>
      guarded(async () => {
        const invites = await table.listInvites(c.get('principal').id, params.id);
        return c.json({ invites: invites.map((invite) => inviteView(invite)) });
      }),
  );
}

/** DELETE …/invites/:inviteId: one invitation closed. */
function closeInvite(api: RouteRegistry, table: TableService): void {
  api.add(
    {
      method: 'delete',
      path: '/v1/sessions/:id/invites/:inviteId',
      tag: 'table',
      summary: 'Close one invitation: its code lets nobody in any more. Owner or game master.',
      params: inviteParams,
      responses: { 204: { description: 'Closed' }, 403: NOT_ALLOWED, 404: NOT_FOUND },
    },
    async ({ c, params }) =>
      guarded(async () => {
        await table.closeInvites(c.get('principal').id, params.id, { inviteId: params.inviteId });
        return c.body(null, 204);
      }),
  );
}

function registerJoinRoute(api: RouteRegistry, deps: AppDeps, table: TableService): void {
  api.add(
    {
      method: 'post',
      path: '/v1/invites/:code/join',
      tag: 'table',
      summary:
        'Join a table with an invitation code, as the character of one of your personas (`personaId`) or by `name`. Joining again gives your seat back. On a server without keys, `guest: true` joins as a new guest and answers the key this browser sends from then on.',
      params: codeParams,
      body: joinBody,
      responses: {
        200: { description: 'Your seat and the session', schema: joinedResponse },
        403: { description: 'Guests exist only on a server without API keys', schema: errorSchema },
        404: { description: 'No usable invitation with this code (or no such persona)', schema: errorSchema },
        409: { description: 'The table is full (`table_limit`)', schema: errorSchema },
      },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const joining = await joiningPrincipal(deps, c.get('principal'), params.code, body);
        const member = await table.join(joining.principal, params.code, {
          ...(body.personaId === undefined ? {} : { personaId: body.personaId }),
          ...(body.name === undefined ? {} : { name: body.name }),
        });
        const access = await table.access(joining.principal.id, member.sessionId);
        return c.json({
          session: sessionView(access.session),
          member: memberView(member, joining.principal.id),
          ...(joining.guestKey === undefined ? {} : { guestKey: joining.guestKey }),
        });
      }),
  );
}

/** Who joins: the caller, or (keyless local play, `guest: true`) a new guest for a usable invitation. */
async function joiningPrincipal(
  deps: AppDeps,
  caller: Principal,
  code: string,
  body: { guest?: boolean | undefined; name?: string | undefined },
): Promise<{ principal: Principal; guestKey?: string }> {
  if (body.guest !== true) return { principal: caller };
  if (deps.auth.kind !== 'local')
    throw new ApiError(
      403,
      'guests_off',
      'guests join only a server without API keys; ask its operator for a key',
    );
  if (!(await deps.table.inviteUsable(code))) throw new SessionError('not-found', 'invitation not found');
  const guest = await createGuest(deps.store, body.name ?? 'guest');
  return { principal: guest.principal, guestKey: guest.key };
}

function registerMemberRoutes(api: RouteRegistry, table: TableService): void {
  api.add(
    {
      method: 'delete',
      path: '/v1/sessions/:id/members/:character',
      tag: 'table',
      summary:
        'Leave the table (your own character) or remove a member (owner or game master; a game master only by the owner). The owner never leaves.',
      params: memberParams,
      responses: { 204: { description: 'Gone' }, 403: NOT_ALLOWED, 404: NOT_FOUND },
    },
    async ({ c, params }) =>
      guarded(async () => {
        await table.leave(c.get('principal').id, params.id, params.character);
        return c.body(null, 204);
      }),
  );

  api.add(
    {
      method: 'patch',
      path: '/v1/sessions/:id/members/:character',
      tag: 'table',
      summary:
        'Give a member the game-master role (author mode on this session: undo, swipe, branch, invite, close a round) or take it back. Owner only.',
      params: memberParams,
      body: roleBody,
      responses: {
        200: { description: 'The member', schema: memberResponse },
        403: NOT_ALLOWED,
        404: NOT_FOUND,
      },
    },
    async ({ c, params, body }) =>
      guarded(async () => {
        const principalId = c.get('principal').id;
        const member = await table.setRole(principalId, params.id, params.character, body.role);
        return c.json({ member: memberView(member, principalId) });
      }),
  );
}
