// A shared table: its settings, members, invitations, live events, free order's queue and the round being
// collected (tables.ts, table-log.ts store them; docs/multiplayer.md says what they mean). Types only.

import type { JsonValue } from './json.ts';
import type { Failure } from './results.ts';
import type { Session } from './turn-log-records.ts';

export type MemberRole = 'owner' | 'gm' | 'player';
export type TurnOrder = 'free' | 'rounds';

export interface TableSettings {
  sessionId: string;
  turnOrder: TurnOrder;
  /** The round being collected (rounds order); starts at 1. */
  round: number;
  invitesClosed: boolean;
  /** The number of the table's newest live event (0: none yet). */
  eventSeq: number;
  createdAt: number;
  updatedAt: number;
}

export interface Member {
  sessionId: string;
  principalId: string;
  role: MemberRole;
  /** The character this member plays: an identifier, unique in the session. */
  character: string;
  /** The name shown at the table (the persona's, or the principal's). */
  name: string;
  personaId: string | null;
  joinedAt: number;
}

export interface Invite {
  id: string;
  sessionId: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  /** null: any number of uses until it expires. */
  maxUses: number | null;
  uses: number;
  closedAt: number | null;
}

export interface TableEvent {
  sessionId: string;
  seq: number;
  kind: string;
  payload: JsonValue;
  createdAt: number;
}

export interface QueueTicket {
  id: string;
  sessionId: string;
  position: number;
  principalId: string;
  character: string;
  /** The process holding the ticket (a claim owner, claim-records.ts). */
  ownerId: string;
  queuedAt: number;
}

export interface RoundAction {
  sessionId: string;
  round: number;
  principalId: string;
  character: string;
  input: JsonValue;
  whisper: boolean;
  submittedAt: number;
}

/** A session as one principal may reach it: as its owner (member null before the table opens) or a member. */
export interface SessionAccess {
  session: Session;
  member: Member | null;
}

export interface NewMember {
  principalId: string;
  character: string;
  name: string;
  personaId: string | null;
  joinedAt: number;
}

export interface NewInvite {
  sessionId: string;
  createdBy: string;
  /** sha256 of the code (64 hex digits): the code itself is never stored. */
  codeHash: string;
  createdAt: number;
  expiresAt: number;
  maxUses: number | null;
  /** Invitations still usable at `createdAt` a table may hold. */
  maxInvites: number;
}

export type OpenTableResult =
  | { ok: true; table: TableSettings; owner: Member }
  | Failure<'session-not-found'>;

/** A closed, expired, used-up or unknown invitation is `invite-not-found` alike: a code says nothing more. */
export type JoinResult =
  | { ok: true; member: Member; joined: boolean }
  | Failure<'invite-not-found' | 'character-taken' | 'persona-not-found'>
  | { ok: false; reason: 'member-cap'; limit: number };

export type CreateInviteResult =
  | { ok: true; invite: Invite }
  | Failure<'table-not-found' | 'invites-closed'>
  | { ok: false; reason: 'invite-cap'; limit: number };

export type SubmitActionResult =
  | { ok: true; action: RoundAction; replaced: boolean }
  | Failure<'table-not-found' | 'round-moved'>;

export type EnqueueResult =
  | { ok: true; ticket: QueueTicket }
  | { ok: false; reason: 'queue-full'; limit: number };

/** The parts of a table the session layer reads and writes. */
export interface Tables {
  /** Makes the session a table (free order) with its owner seated; returns it as it is when it is one already. */
  openTable(sessionId: string, owner: NewMember, at: number): Promise<OpenTableResult>;
  getTable(sessionId: string): Promise<TableSettings | undefined>;
  setTurnOrder(sessionId: string, order: TurnOrder, at: number): Promise<TableSettings | undefined>;
  setInvitesClosed(sessionId: string, closed: boolean, at: number): Promise<TableSettings | undefined>;
  /** The session when `principalId` owns it or sits at it; undefined for anyone else. */
  getSessionAccess(sessionId: string, principalId: string): Promise<SessionAccess | undefined>;
  listMembers(sessionId: string): Promise<Member[]>;
  /**
   * Seats `member` through the invitation whose code has `codeHash` (live, not expired at `member.joinedAt`,
   * uses left), counting one use; a principal already seated gets their seat back (`joined: false`).
   */
  joinTable(codeHash: string, member: NewMember, maxMembers: number): Promise<JoinResult>;
  removeMember(sessionId: string, principalId: string): Promise<boolean>;
  setMemberRole(sessionId: string, principalId: string, role: 'gm' | 'player'): Promise<Member | undefined>;
  createInvite(input: NewInvite): Promise<CreateInviteResult>;
  listInvites(sessionId: string): Promise<Invite[]>;
  /** The invitation a code's digest names, when it still lets someone in at `at` (its table's too). */
  findUsableInvite(codeHash: string, at: number): Promise<Invite | undefined>;
  /** Closes one invitation (`inviteId`) or every open one; returns how many it closed. */
  closeInvites(sessionId: string, at: number, inviteId?: string): Promise<number>;
  /** Appends an event with the table's next number and drops those older than the newest `retain`. */
  appendTableEvent(
    sessionId: string,
    event: { kind: string; payload: unknown; createdAt: number },
    retain: number,
  ): Promise<TableEvent | undefined>;
  /** Events numbered after `afterSeq`, oldest first, at most `limit`. */
  listTableEvents(sessionId: string, afterSeq: number, limit: number): Promise<TableEvent[]>;
  /** The oldest event kept (0 when none): a stream further behind than that cannot catch up event by event. */
  oldestTableEvent(sessionId: string): Promise<number>;
  enqueueTurn(input: Omit<QueueTicket, 'position'>, maxQueued: number): Promise<EnqueueResult>;
  /** The queue of a session, in order. */
  listQueue(sessionId: string): Promise<QueueTicket[]>;
  removeTicket(sessionId: string, ticketId: string): Promise<boolean>;
  /** Drops the tickets of processes whose heartbeat is older than `leaseBefore` (or gone); returns how many. */
  dropStaleTickets(sessionId: string, leaseBefore: number): Promise<number>;
  /** Sets (or replaces) a member's action in round `round`; refused when the table moved to another round. */
  submitRoundAction(action: RoundAction): Promise<SubmitActionResult>;
  listRoundActions(sessionId: string, round: number): Promise<RoundAction[]>;
  /**
   * Ends round `round` (its actions deleted, the next round begins); undefined when the table is no longer at
   * that round (another request closed it first).
   */
  closeRound(sessionId: string, round: number, at: number): Promise<TableSettings | undefined>;
}
