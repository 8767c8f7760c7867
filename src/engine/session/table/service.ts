// A shared table over the session service (docs/multiplayer.md): members, invitations, turn order and the
// table's live events live here, in the session layer; the server's routes and live streams only call it.
// Everything a member does is checked against their seat (members.ts); the turns they play go through the
// session service's one way into a turn, as the owner's models (the owner's settings pay for the table).

import { randomUUID } from 'node:crypto';
import type { TableBus } from '../../../adapters/bus/index.ts';
import type {
  Invite,
  Member,
  Principal,
  Session,
  Store,
  Turn,
  TableEvent,
  TableSettings,
  TurnOrder,
} from '../../../adapters/store/index.ts';
import { ClaimOwner } from '../claim-owner.ts';
import { notFound } from '../errors.ts';
import type { SessionService } from '../service.ts';
import type { PreparedTurn, TurnRequest } from '../turn-job/types.ts';
import { MAX_QUEUED_TURNS } from './limits.ts';
import {
  closeRound,
  moveTableHead,
  prepareTableRegenerate,
  prepareTableTurn,
  type TablePlayDeps,
  type TablePrepared,
  type TableTurnOptions,
} from './turns.ts';
import { inviteCodeHash, looksLikeInviteCode } from './codes.ts';
import { type QueuedTurn, type TableEventBody, eventPayload } from './events.ts';
import { TABLE_EVENTS_KEPT } from './limits.ts';
import {
  createInvite,
  type InviteRequest,
  joinTable,
  type JoinRequest,
  type MembersDeps,
  openTable,
  removeMember,
  requireSteer,
  resolveTableLimits,
  setRole,
  steers,
  type TableAccess,
  tableAccess,
  type TableLimits,
} from './members.ts';

export interface TableServiceOptions {
  readonly store: Store;
  readonly bus: TableBus;
  /** The session service every turn at a table goes through. */
  readonly sessions: SessionService;
  /** Monotonic milliseconds for waits (default performance.now). */
  readonly monotonic?: () => number;
  /** Turn requests one table holds waiting at once (MAX_QUEUED_TURNS). */
  readonly maxQueued?: number;
  /** Milliseconds a queued turn waits at most (default: the turn timeout, or 2 minutes, times the queue). */
  readonly queueWaitMs?: number;
  readonly clock?: () => number;
  readonly limits?: Partial<TableLimits>;
  /** Live events kept per table for members catching up (TABLE_EVENTS_KEPT). */
  readonly eventsKept?: number;
  readonly newId?: () => string;
}

/** The table as a member sees its settings and who sits at it. */
export interface TableState {
  readonly table: TableSettings | undefined;
  readonly members: readonly Member[];
}

/** A submitted action of the round as one member sees it. */
export interface RoundActionView {
  readonly character: string;
  readonly whisper: boolean;
  /** The action's words; null for a member who may not read them. */
  readonly input: string | null;
}

/** The words of a stored action (`{kind:'text', text}`), or a mini-game result's summary. */
function actionText(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const text = (input as { text?: unknown }).text;
  return typeof text === 'string' ? text : null;
}

/** Committed turns kept for this process's live streams (each is read by every stream of its table). */
export const RECENT_TURNS = 256;

export class TableService {
  readonly store: Store;
  readonly bus: TableBus;
  readonly limits: TableLimits;
  readonly #clock: () => number;
  readonly #eventsKept: number;
  readonly #members: MembersDeps;
  readonly #play: TablePlayDeps;
  readonly #claimOwner: ClaimOwner;
  readonly newId: () => string;

  constructor(options: TableServiceOptions) {
    this.store = options.store;
    this.bus = options.bus;
    this.limits = resolveTableLimits(options.limits);
    this.#clock = options.clock ?? Date.now;
    this.#eventsKept = options.eventsKept ?? TABLE_EVENTS_KEPT;
    this.newId = options.newId ?? randomUUID;
    this.#members = {
      store: this.store,
      clock: this.#clock,
      limits: this.limits,
      publish: (sessionId, body) => this.publish(sessionId, body).then(() => undefined),
    };
    // Queue tickets are held like Idempotency-Key claims: by this process, with a heartbeat and a lease.
    this.#claimOwner = new ClaimOwner(this.store, { id: this.newId(), clock: this.#clock });
    const maxQueued = options.maxQueued ?? MAX_QUEUED_TURNS;
    this.#play = {
      store: this.store,
      bus: this.bus,
      sessions: options.sessions,
      claimOwner: this.#claimOwner,
      clock: this.#clock,
      monotonic: options.monotonic ?? (() => performance.now()),
      newId: this.newId,
      publish: (sessionId, body) => this.publish(sessionId, body),
      maxQueued,
      remember: (turn) => this.#remember(turn),
      maxWaitMs: options.queueWaitMs ?? (options.sessions.admission.turnTimeoutMs ?? 120_000) * maxQueued,
    };
  }

  /** Turns this process committed at tables lately, by id: its live streams show them without a read. */
  readonly #recent = new Map<string, Turn>();

  #remember(turn: Turn): void {
    this.#recent.set(turn.id, turn);
    if (this.#recent.size > RECENT_TURNS) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  /** A turn of `sessionId` this process committed lately, or undefined (read it from the store). */
  recentTurn(sessionId: string, turnId: string): Turn | undefined {
    const turn = this.#recent.get(turnId);
    return turn?.sessionId === sessionId ? turn : undefined;
  }

  /** Ends this process's hold on queue tickets (a clean shutdown: other replicas drop them at once). */
  async close(): Promise<void> {
    await this.#claimOwner.end();
  }

  /**
   * A member's turn: played (free order, after the turns queued before it), or kept for the round (rounds);
   * a session that is not a table plays as always, its owner's only.
   */
  async prepareTurn(
    principalId: string,
    sessionId: string,
    request: TurnRequest,
    options: TableTurnOptions = {},
  ): Promise<TablePrepared> {
    return this.prepareTurnAt(await this.access(principalId, sessionId), request, options);
  }

  /** prepareTurn for a seat the caller has just read (`access`): one read of it per request. */
  prepareTurnAt(
    access: TableAccess,
    request: TurnRequest,
    options: TableTurnOptions = {},
  ): Promise<TablePrepared> {
    return prepareTableTurn(this.#play, access, request, options);
  }

  /** The owner or a game master plays the round with the actions submitted so far. */
  async closeRound(principalId: string, sessionId: string): Promise<PreparedTurn> {
    return closeRound(this.#play, await this.access(principalId, sessionId));
  }

  /** A swipe of a turn (the head by default): the owner's or a game master's. */
  async prepareRegenerate(
    principalId: string,
    sessionId: string,
    options: { turnId?: string; idempotencyKey?: string } = {},
  ): Promise<PreparedTurn> {
    return prepareTableRegenerate(this.#play, await this.access(principalId, sessionId), options);
  }

  async undo(principalId: string, sessionId: string, expectedHeadId?: string): Promise<Session> {
    return moveTableHead(this.#play, await this.access(principalId, sessionId), {
      kind: 'undo',
      ...(expectedHeadId === undefined ? {} : { expectedHeadId }),
    });
  }

  async moveHead(
    principalId: string,
    sessionId: string,
    turnId: string,
    expectedHeadId?: string,
  ): Promise<Session> {
    return moveTableHead(this.#play, await this.access(principalId, sessionId), {
      kind: 'head',
      turnId,
      ...(expectedHeadId === undefined ? {} : { expectedHeadId }),
    });
  }

  get clock(): () => number {
    return this.#clock;
  }

  /** The session as `principalId` reaches it (owner or member), or SessionError `not-found`. */
  access(principalId: string, sessionId: string): Promise<TableAccess> {
    return tableAccess(this.store, principalId, sessionId);
  }

  /** The table's settings and members, for a principal who sits at it. */
  async state(principalId: string, sessionId: string): Promise<TableState & { access: TableAccess }> {
    const access = await this.access(principalId, sessionId);
    const [table, members] = await Promise.all([
      this.store.getTable(sessionId),
      this.store.listMembers(sessionId),
    ]);
    return { access, table, members };
  }

  /** A new invitation to the table (the table opens with the first); the owner or a game master only. */
  async invite(
    principal: Principal,
    sessionId: string,
    request: InviteRequest = {},
  ): Promise<{ code: string; invite: Invite }> {
    const access = await this.access(principal.id, sessionId);
    requireSteer(access, 'invite');
    if (access.member === null) {
      const owner = await this.store.getPrincipal(access.session.principalId);
      if (owner === undefined) throw notFound(`session ${sessionId}`);
      await openTable(this.#members, owner, access.session);
    }
    return createInvite(this.#members, principal, await this.access(principal.id, sessionId), request);
  }

  async listInvites(principalId: string, sessionId: string): Promise<Invite[]> {
    const access = await this.access(principalId, sessionId);
    requireSteer(access, 'see the invitations');
    return this.store.listInvites(sessionId);
  }

  /** Closes one invitation, or all of them and any new one until `reopen`. */
  async closeInvites(
    principalId: string,
    sessionId: string,
    options: { inviteId?: string; all?: boolean; reopen?: boolean },
  ): Promise<TableSettings | undefined> {
    const access = await this.access(principalId, sessionId);
    requireSteer(access, 'close invitations');
    const now = this.#clock();
    if (options.inviteId !== undefined) {
      if ((await this.store.closeInvites(sessionId, now, options.inviteId)) === 0)
        throw notFound(`invitation ${options.inviteId}`);
      return this.store.getTable(sessionId);
    }
    if (options.all === true) await this.store.closeInvites(sessionId, now);
    const closed = options.reopen !== true;
    const table = await this.store.setInvitesClosed(sessionId, closed, now);
    if (table !== undefined)
      await this.publish(sessionId, { kind: 'table', turnOrder: table.turnOrder, invitesClosed: closed });
    return table;
  }

  /** Seats `principal` with an invitation code; returns their seat and the session's id. */
  join(principal: Principal, code: string, request: JoinRequest = {}): Promise<Member> {
    return joinTable(this.#members, principal, code, request);
  }

  async leave(principalId: string, sessionId: string, character: string): Promise<void> {
    await removeMember(this.#members, await this.access(principalId, sessionId), character);
  }

  async setRole(
    principalId: string,
    sessionId: string,
    character: string,
    role: 'gm' | 'player',
  ): Promise<Member> {
    return setRole(this.#members, await this.access(principalId, sessionId), character, role);
  }

  async setTurnOrder(principalId: string, sessionId: string, order: TurnOrder): Promise<TableSettings> {
    const access = await this.access(principalId, sessionId);
    requireSteer(access, 'change the turn order');
    const table = await this.store.setTurnOrder(sessionId, order, this.#clock());
    if (table === undefined) throw notFound(`table ${sessionId}`);
    await this.publish(sessionId, { kind: 'table', turnOrder: order, invitesClosed: table.invitesClosed });
    return table;
  }

  /** Whether an invitation code still lets someone in (a guest is made only for one that does). */
  async inviteUsable(code: string): Promise<boolean> {
    if (!looksLikeInviteCode(code)) return false;
    return (await this.store.findUsableInvite(inviteCodeHash(code), this.#clock())) !== undefined;
  }

  /** The queue of waiting turns as everyone at the table sees it. */
  async queueView(sessionId: string): Promise<QueuedTurn[]> {
    return (await this.store.listQueue(sessionId)).map((t) => ({
      character: t.character,
      position: t.position,
    }));
  }

  /**
   * The round's submitted actions: who submitted, whether it is a whisper, and the words to those who may
   * read them (the submitter, the owner and game masters).
   */
  async roundView(access: TableAccess, table: TableSettings | undefined): Promise<RoundActionView[]> {
    if (table === undefined || table.turnOrder !== 'rounds') return [];
    const actions = await this.store.listRoundActions(access.session.id, table.round);
    return actions.map((action) => ({
      character: action.character,
      whisper: action.whisper,
      input:
        steers(access.role) || action.principalId === access.member?.principalId
          ? actionText(action.input)
          : null,
    }));
  }

  /**
   * Stores a live event with the table's next number and announces it on the bus; undefined (nothing sent)
   * when the session is not a table.
   */
  async publish(sessionId: string, body: TableEventBody): Promise<TableEvent | undefined> {
    const { kind, payload } = eventPayload(body);
    const event = await this.store.appendTableEvent(
      sessionId,
      { kind, payload, createdAt: this.#clock() },
      this.#eventsKept,
    );
    if (event !== undefined) this.bus.publish({ kind: 'event', sessionId, seq: event.seq, event });
    return event;
  }
}
