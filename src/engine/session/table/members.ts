// Who sits at a table and how they got there: the owner opens it with a first invitation, others join with
// a code (as a character of their own), the owner or a game master removes a member, the owner gives or takes
// the game-master role. Every change is a live event (events.ts). A principal that is neither the owner nor
// a member finds nothing: "not found", as for any session that is not theirs.

import type {
  Invite,
  JoinResult,
  Member,
  MemberRole,
  Principal,
  Session,
  Store,
  TableSettings,
} from '../../../adapters/store/index.ts';
import { notFound, SessionError } from '../errors.ts';
import { characterKey, freeKey, shownName } from './characters.ts';
import { inviteCodeHash, looksLikeInviteCode, newInviteCode } from './codes.ts';
import type { TableEventBody } from './events.ts';
import {
  DEFAULT_INVITE_TTL_MS,
  MAX_INVITE_TTL_MS,
  MAX_INVITE_USES,
  MAX_TABLE_INVITES,
  MAX_TABLE_MEMBERS,
  MIN_INVITE_TTL_MS,
} from './limits.ts';

/** A session as one principal reaches it: their role, and their seat once the session is a table. */
export interface TableAccess {
  readonly session: Session;
  readonly role: MemberRole;
  /** null: the owner of a session that is not (yet) a table. */
  readonly member: Member | null;
}

/** Whether a role may steer the table: undo, swipe, branch, invite, close a round, remove a member. */
export function steers(role: MemberRole): boolean {
  return role === 'owner' || role === 'gm';
}

export interface TableLimits {
  readonly maxMembers: number;
  readonly maxInvites: number;
}

export interface MembersDeps {
  readonly store: Store;
  readonly clock: () => number;
  readonly limits: TableLimits;
  /** Stores and announces a live event of the table. */
  readonly publish: (sessionId: string, body: TableEventBody) => Promise<void>;
}

export interface InviteRequest {
  /** Milliseconds the invitation lives (MIN_INVITE_TTL_MS to MAX_INVITE_TTL_MS; DEFAULT_INVITE_TTL_MS). */
  readonly ttlMs?: number;
  /** Joins it allows (1 to MAX_INVITE_USES); any number until it expires when absent. */
  readonly maxUses?: number;
}

export interface JoinRequest {
  /** One of the joining principal's personas: the character they play. */
  readonly personaId?: string;
  /** The character's name when no persona is given (default: the principal's name). */
  readonly name?: string;
}

export function resolveTableLimits(given: Partial<TableLimits> = {}): TableLimits {
  const limits = { maxMembers: MAX_TABLE_MEMBERS, maxInvites: MAX_TABLE_INVITES, ...given };
  for (const [name, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`table limit ${name} must be a positive integer, got ${value}`);
  if (limits.maxMembers < 2)
    throw new RangeError('table limit maxMembers must be at least 2 (the owner and one more)');
  return limits;
}

/** The session as `principalId` may reach it, or "not found". */
export async function tableAccess(
  store: Store,
  principalId: string,
  sessionId: string,
): Promise<TableAccess> {
  const access = await store.getSessionAccess(sessionId, principalId);
  if (access === undefined) throw notFound(`session ${sessionId}`);
  return { session: access.session, member: access.member, role: access.member?.role ?? 'owner' };
}

/** Refuses a member who may not steer the table (`not-allowed`), naming what they asked for. */
export function requireSteer(access: TableAccess, what: string): void {
  if (!steers(access.role))
    throw new SessionError('not-allowed', `only the table's owner or game master may ${what}`);
}

/** The name a principal plays under: their persona's, else the name they gave, else their own. */
async function playedName(
  store: Store,
  principal: Principal,
  personaId: string | null,
  name: string | undefined,
): Promise<string> {
  if (personaId !== null) {
    const persona = await store.getPersona(personaId, principal.id);
    if (persona === undefined) throw notFound(`persona ${personaId}`);
    return shownName(persona.name);
  }
  return shownName(name ?? principal.name);
}

/** Makes the owner's session a table (idempotent), seating the owner as the character of their persona. */
export async function openTable(
  deps: MembersDeps,
  owner: Principal,
  session: Session,
): Promise<{ table: TableSettings; owner: Member }> {
  const existing = await deps.store.getTable(session.id);
  if (existing !== undefined) {
    const seated = (await deps.store.listMembers(session.id)).find((m) => m.role === 'owner');
    if (seated !== undefined) return { table: existing, owner: seated };
  }
  const name = await playedName(deps.store, owner, session.personaId, undefined).catch(() =>
    shownName(owner.name),
  );
  const opened = await deps.store.openTable(
    session.id,
    {
      principalId: owner.id,
      character: characterKey(name),
      name,
      personaId: session.personaId,
      joinedAt: deps.clock(),
    },
    deps.clock(),
  );
  if (!opened.ok) throw notFound(`session ${session.id}`);
  return { table: opened.table, owner: opened.owner };
}

/** A new invitation: the code (shown once) and what is stored of it. */
export async function createInvite(
  deps: MembersDeps,
  owner: Principal,
  access: TableAccess,
  request: InviteRequest,
): Promise<{ code: string; invite: Invite }> {
  requireSteer(access, 'invite');
  const ttl = request.ttlMs ?? DEFAULT_INVITE_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl < MIN_INVITE_TTL_MS || ttl > MAX_INVITE_TTL_MS)
    throw new SessionError(
      'invalid',
      `ttlMs must be from ${MIN_INVITE_TTL_MS} to ${MAX_INVITE_TTL_MS} milliseconds (MAX_INVITE_TTL_MS), got ${ttl}`,
    );
  const uses = request.maxUses ?? null;
  if (uses !== null && (!Number.isSafeInteger(uses) || uses < 1 || uses > MAX_INVITE_USES))
    throw new SessionError(
      'invalid',
      `maxUses must be from 1 to ${MAX_INVITE_USES} (MAX_INVITE_USES), got ${uses}`,
    );
  const code = newInviteCode();
  const now = deps.clock();
  const made = await deps.store.createInvite({
    sessionId: access.session.id,
    createdBy: owner.id,
    codeHash: inviteCodeHash(code),
    createdAt: now,
    expiresAt: now + ttl,
    maxUses: uses,
    maxInvites: deps.limits.maxInvites,
  });
  if (made.ok) return { code, invite: made.invite };
  switch (made.reason) {
    case 'invite-cap':
      throw new SessionError(
        'table-limit',
        `this table has ${made.limit} open invitations, the most it may hold (MAX_TABLE_INVITES); close one first`,
        { limit: made.limit, what: 'invites' },
      );
    case 'invites-closed':
      throw new SessionError('not-allowed', 'invitations to this table are closed; open them again first');
    case 'table-not-found':
      throw notFound(`session ${access.session.id}`);
    default: {
      const unreachable: never = made;
      throw new Error(`unexpected createInvite result ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Seats `principal` through an invitation code; their seat back when they sit there already. */
export async function joinTable(
  deps: MembersDeps,
  principal: Principal,
  code: string,
  request: JoinRequest,
): Promise<Member> {
  const gone = notFound('invitation');
  if (!looksLikeInviteCode(code)) throw gone;
  const personaId = request.personaId ?? null;
  const name = await playedName(deps.store, principal, personaId, request.name);
  const hash = inviteCodeHash(code);
  const taken = new Set<string>();
  // A taken character is tried again with a number after it (two Maras at one table: mara, mara_2).
  for (let attempt = 0; attempt <= deps.limits.maxMembers; attempt++) {
    const character = freeKey(characterKey(name), taken);
    const joined = await deps.store.joinTable(
      hash,
      { principalId: principal.id, character, name, personaId, joinedAt: deps.clock() },
      deps.limits.maxMembers,
    );
    if (joined.ok) {
      if (joined.joined)
        await deps.publish(joined.member.sessionId, {
          kind: 'member_joined',
          character: joined.member.character,
          name: joined.member.name,
          role: joined.member.role,
        });
      return joined.member;
    }
    const refused = joinRefusal(joined, personaId);
    if (refused !== undefined) throw refused;
    taken.add(character);
  }
  throw new SessionError('taken', `no free character name for '${name}' at this table`);
}

/** What a refused join tells the player; undefined for a taken character (tried again with another key). */
function joinRefusal(
  refused: Exclude<JoinResult, { ok: true }>,
  personaId: string | null,
): Error | undefined {
  switch (refused.reason) {
    case 'character-taken':
      return undefined;
    case 'member-cap':
      return new SessionError(
        'table-limit',
        `this table seats ${refused.limit} members, the most it may (MAX_TABLE_MEMBERS)`,
        { limit: refused.limit, what: 'members' },
      );
    case 'invite-not-found':
      return notFound('invitation');
    case 'persona-not-found':
      return notFound(`persona ${personaId}`);
    default: {
      const unreachable: never = refused;
      return new Error(`unexpected joinTable result ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The member playing `character`, or "not found". */
export async function memberByCharacter(store: Store, sessionId: string, character: string): Promise<Member> {
  const member = (await store.listMembers(sessionId)).find((m) => m.character === character);
  if (member === undefined) throw notFound(`member ${character}`);
  return member;
}

/** A member leaves (themselves) or is removed (by the owner or a game master); the owner never leaves. */
export async function removeMember(deps: MembersDeps, access: TableAccess, character: string): Promise<void> {
  const sessionId = access.session.id;
  const target = await memberByCharacter(deps.store, sessionId, character);
  if (target.principalId !== access.member?.principalId) requireSteer(access, 'remove another member');
  if (target.role === 'owner')
    throw new SessionError('not-allowed', "the table's owner cannot leave it; delete the session instead");
  if (target.role === 'gm' && access.role !== 'owner' && target.principalId !== access.member?.principalId)
    throw new SessionError('not-allowed', "only the table's owner may remove a game master");
  if (await deps.store.removeMember(sessionId, target.principalId))
    await deps.publish(sessionId, { kind: 'member_left', character });
}

/** The owner gives (or takes back) the game-master role. */
export async function setRole(
  deps: MembersDeps,
  access: TableAccess,
  character: string,
  role: 'gm' | 'player',
): Promise<Member> {
  if (access.role !== 'owner')
    throw new SessionError('not-allowed', "only the table's owner may give or take the game-master role");
  const target = await memberByCharacter(deps.store, access.session.id, character);
  const changed = await deps.store.setMemberRole(access.session.id, target.principalId, role);
  if (changed === undefined) throw new SessionError('not-allowed', "the owner's role cannot change");
  await deps.publish(access.session.id, { kind: 'member_role', character, role });
  return changed;
}
