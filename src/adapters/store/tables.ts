// A shared table's settings, members and invitations (migration 0009). Counted limits (members, invitations)
// are checked in the transaction that writes, with the table's row locked on PostgreSQL, so two replicas
// cannot both see room for one; SQLite's BEGIN IMMEDIATE serialises every write already.

import type { Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import { isUniqueViolation, StoreInputError } from './errors.ts';
import { toSession } from './rows.ts';
import type { Database, SessionInvitesTable, SessionMembersTable, SessionTablesTable } from './schema.ts';
import type {
  CreateInviteResult,
  Invite,
  JoinResult,
  Member,
  NewInvite,
  NewMember,
  OpenTableResult,
  SessionAccess,
  TableSettings,
  TurnOrder,
} from './table-records.ts';
import { inTransaction } from './transaction.ts';
import { checkId, checkName, checkTimestamp } from './validate.ts';

/** A character key: what `players.<character>` is written with (an identifier, short). */
const CHARACTER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

export function toTable(row: SessionTablesTable): TableSettings {
  return {
    sessionId: row.session_id,
    turnOrder: row.turn_order,
    round: Number(row.round),
    invitesClosed: Number(row.invites_closed) === 1,
    eventSeq: Number(row.event_seq),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toMember(row: SessionMembersTable): Member {
  return {
    sessionId: row.session_id,
    principalId: row.principal_id,
    role: row.role,
    character: row.character,
    name: row.name,
    personaId: row.persona_id,
    joinedAt: row.joined_at,
  };
}

function toInvite(row: SessionInvitesTable): Invite {
  return {
    id: row.id,
    sessionId: row.session_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    maxUses: row.max_uses === null ? null : Number(row.max_uses),
    uses: Number(row.uses),
    closedAt: row.closed_at,
  };
}

function memberRow(
  sessionId: string,
  member: NewMember,
  role: SessionMembersTable['role'],
): SessionMembersTable {
  if (!CHARACTER_PATTERN.test(member.character))
    throw new StoreInputError('member.character', 'must be an identifier of at most 32 characters');
  return {
    session_id: sessionId,
    principal_id: checkId('member.principalId', member.principalId),
    role,
    character: member.character,
    name: checkName('member.name', member.name),
    persona_id: member.personaId === null ? null : checkId('member.personaId', member.personaId),
    joined_at: checkTimestamp('member.joinedAt', member.joinedAt),
  };
}

/** The table's row, locked for this transaction on PostgreSQL (the counts checked next stay true). */
export async function lockedTable(
  trx: Kysely<Database>,
  ctx: StoreContext,
  sessionId: string,
): Promise<SessionTablesTable | undefined> {
  const query = trx.selectFrom('session_tables').selectAll().where('session_id', '=', sessionId);
  return (ctx.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function openTable(
  ctx: StoreContext,
  sessionId: string,
  owner: NewMember,
  at: number,
): Promise<OpenTableResult> {
  const row = memberRow(sessionId, owner, 'owner');
  const when = checkTimestamp('openTable.at', at);
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<OpenTableResult> => {
    const session = await trx
      .selectFrom('sessions')
      .select(['id', 'principal_id'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (session === undefined || session.principal_id !== row.principal_id)
      return { ok: false, reason: 'session-not-found' };
    const existing = await lockedTable(trx, ctx, sessionId);
    if (existing === undefined) {
      const created: SessionTablesTable = {
        session_id: sessionId,
        turn_order: 'free',
        round: 1,
        invites_closed: 0,
        event_seq: 0,
        created_at: when,
        updated_at: when,
      };
      await trx.insertInto('session_tables').values(created).execute();
      await trx.insertInto('session_members').values(row).execute();
      return { ok: true, table: toTable(created), owner: toMember(row) };
    }
    const seated = await trx
      .selectFrom('session_members')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return { ok: true, table: toTable(existing), owner: toMember(seated) };
  });
}

export async function getTable(ctx: StoreContext, sessionId: string): Promise<TableSettings | undefined> {
  const row = await ctx.db
    .selectFrom('session_tables')
    .selectAll()
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row && toTable(row);
}

async function updateTable(
  ctx: StoreContext,
  sessionId: string,
  set: Partial<Pick<SessionTablesTable, 'turn_order' | 'invites_closed'>>,
  at: number,
): Promise<TableSettings | undefined> {
  const result = await ctx.db
    .updateTable('session_tables')
    .set({ ...set, updated_at: checkTimestamp('updateTable.at', at) })
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return result.numUpdatedRows === 0n ? undefined : getTable(ctx, sessionId);
}

export function setTurnOrder(
  ctx: StoreContext,
  sessionId: string,
  order: TurnOrder,
  at: number,
): Promise<TableSettings | undefined> {
  if (order !== 'free' && order !== 'rounds')
    throw new StoreInputError('turnOrder', "must be 'free' or 'rounds'");
  return updateTable(ctx, sessionId, { turn_order: order }, at);
}

export function setInvitesClosed(
  ctx: StoreContext,
  sessionId: string,
  closed: boolean,
  at: number,
): Promise<TableSettings | undefined> {
  return updateTable(ctx, sessionId, { invites_closed: closed ? 1 : 0 }, at);
}

export async function getSessionAccess(
  ctx: StoreContext,
  sessionId: string,
  principalId: string,
): Promise<SessionAccess | undefined> {
  const session = await ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (session === undefined) return undefined;
  const member = await ctx.db
    .selectFrom('session_members')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  if (member === undefined && session.principal_id !== principalId) return undefined;
  return { session: toSession(session), member: member === undefined ? null : toMember(member) };
}

export async function listMembers(ctx: StoreContext, sessionId: string): Promise<Member[]> {
  const rows = await ctx.db
    .selectFrom('session_members')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('joined_at')
    .orderBy('character')
    .execute();
  return rows.map(toMember);
}

export async function joinTable(
  ctx: StoreContext,
  codeHash: string,
  member: NewMember,
  maxMembers: number,
): Promise<JoinResult> {
  const at = checkTimestamp('joinTable.joinedAt', member.joinedAt);
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<JoinResult> => {
    const invite = await trx
      .selectFrom('session_invites')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    if (invite === undefined) return { ok: false, reason: 'invite-not-found' };
    const table = await lockedTable(trx, ctx, invite.session_id);
    // Someone seated already gets their seat back (a join retried after a lost answer), whatever the code.
    const seated = await trx
      .selectFrom('session_members')
      .selectAll()
      .where('session_id', '=', invite.session_id)
      .where('principal_id', '=', member.principalId)
      .executeTakeFirst();
    if (seated !== undefined) return { ok: true, member: toMember(seated), joined: false };
    if (table === undefined || Number(table.invites_closed) === 1 || !usable(invite, at))
      return { ok: false, reason: 'invite-not-found' };
    if (member.personaId !== null) {
      const persona = await trx
        .selectFrom('personas')
        .select('id')
        .where('id', '=', member.personaId)
        .where('principal_id', '=', member.principalId)
        .executeTakeFirst();
      if (persona === undefined) return { ok: false, reason: 'persona-not-found' };
    }
    const count = await trx
      .selectFrom('session_members')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('session_id', '=', invite.session_id)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= maxMembers) return { ok: false, reason: 'member-cap', limit: maxMembers };
    const row = memberRow(invite.session_id, member, 'player');
    const taken = await trx
      .selectFrom('session_members')
      .select('character')
      .where('session_id', '=', invite.session_id)
      .where('character', '=', row.character)
      .executeTakeFirst();
    if (taken !== undefined) return { ok: false, reason: 'character-taken' };
    await trx.insertInto('session_members').values(row).execute();
    await trx
      .updateTable('session_invites')
      .set({ uses: Number(invite.uses) + 1 })
      .where('id', '=', invite.id)
      .execute();
    return { ok: true, member: toMember(row), joined: true };
  }).catch((error: unknown) => {
    // Two joins choosing one character at the same moment on two replicas: the second is told so.
    if (isUniqueViolation(error)) return { ok: false, reason: 'character-taken' } as const;
    throw error;
  });
}

/** Whether an invitation still lets someone in at `at`: open, not expired, uses left. */
function usable(invite: SessionInvitesTable, at: number): boolean {
  if (invite.closed_at !== null || invite.expires_at <= at) return false;
  return invite.max_uses === null || Number(invite.uses) < Number(invite.max_uses);
}

export async function removeMember(
  ctx: StoreContext,
  sessionId: string,
  principalId: string,
): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom('session_members')
    .where('session_id', '=', sessionId)
    .where('principal_id', '=', principalId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function setMemberRole(
  ctx: StoreContext,
  sessionId: string,
  principalId: string,
  role: 'gm' | 'player',
): Promise<Member | undefined> {
  if (role !== 'gm' && role !== 'player') throw new StoreInputError('role', "must be 'gm' or 'player'");
  const result = await ctx.db
    .updateTable('session_members')
    .set({ role })
    .where('session_id', '=', sessionId)
    .where('principal_id', '=', principalId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  const row = await ctx.db
    .selectFrom('session_members')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('principal_id', '=', principalId)
    .executeTakeFirstOrThrow();
  return toMember(row);
}

export async function createInvite(ctx: StoreContext, input: NewInvite): Promise<CreateInviteResult> {
  const row: SessionInvitesTable = {
    id: ctx.newId(),
    code_hash: input.codeHash,
    session_id: input.sessionId,
    created_by: checkId('createInvite.createdBy', input.createdBy),
    created_at: checkTimestamp('createInvite.createdAt', input.createdAt),
    expires_at: checkTimestamp('createInvite.expiresAt', input.expiresAt),
    max_uses: input.maxUses,
    uses: 0,
    closed_at: null,
  };
  if (!/^[0-9a-f]{64}$/.test(row.code_hash))
    throw new StoreInputError('createInvite.codeHash', 'must be a sha256 digest in 64 hex digits');
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<CreateInviteResult> => {
    const table = await lockedTable(trx, ctx, input.sessionId);
    if (table === undefined) return { ok: false, reason: 'table-not-found' };
    if (Number(table.invites_closed) === 1) return { ok: false, reason: 'invites-closed' };
    const open = await trx
      .selectFrom('session_invites')
      .selectAll()
      .where('session_id', '=', input.sessionId)
      .where('closed_at', 'is', null)
      .where('expires_at', '>', row.created_at)
      .execute();
    const live = open.filter((invite) => usable(invite, row.created_at)).length;
    if (live >= input.maxInvites) return { ok: false, reason: 'invite-cap', limit: input.maxInvites };
    await trx.insertInto('session_invites').values(row).execute();
    return { ok: true, invite: toInvite(row) };
  });
}

export async function listInvites(ctx: StoreContext, sessionId: string): Promise<Invite[]> {
  const rows = await ctx.db
    .selectFrom('session_invites')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toInvite);
}

export async function findUsableInvite(
  ctx: StoreContext,
  codeHash: string,
  at: number,
): Promise<Invite | undefined> {
  const invite = await ctx.db
    .selectFrom('session_invites')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  if (invite === undefined || !usable(invite, at)) return undefined;
  const table = await getTable(ctx, invite.session_id);
  return table === undefined || table.invitesClosed ? undefined : toInvite(invite);
}

export async function closeInvites(
  ctx: StoreContext,
  sessionId: string,
  at: number,
  inviteId?: string,
): Promise<number> {
  let query = ctx.db
    .updateTable('session_invites')
    .set({ closed_at: checkTimestamp('closeInvites.at', at) })
    .where('session_id', '=', sessionId)
    .where('closed_at', 'is', null);
  if (inviteId !== undefined) query = query.where('id', '=', inviteId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
