// The turn log: sessions (one stream each) and their turn trees, appended with an expected head and an
// Idempotency-Key, read by lineage, branch, ledger and hydration (sessions.ts, turns.ts, lineage.ts store and
// read them). Types only.

import type { JsonValue } from './json.ts';
import type { Failure } from './results.ts';

export interface Session {
  id: string;
  principalId: string;
  cartridgeVersionId: string;
  personaId: string | null;
  seed: number;
  title: string | null;
  headTurnId: string;
  /** Turns ever stored in the session, genesis included (the next turn's `seq`). */
  turnCount: number;
  createdAt: number;
  updatedAt: number;
}

/** A turn's place in the tree. */
export interface TurnNode {
  id: string;
  sessionId: string;
  parentId: string | null;
  /** 0 for the genesis turn (the first message), parent's depth + 1 otherwise. */
  depth: number;
  /** Order among the parent's children (swipes): 0, 1, 2, … */
  siblingIndex: number;
  /** Order of creation within the session: 0, 1, 2, … */
  seq: number;
  createdAt: number;
  /**
   * A rebased turn (a chat front end's edit replayed onto another parent): the played turn it was made from,
   * whose record it shares (migration 0011). Absent on every other turn.
   */
  originId?: string;
}

/** What a turn contributes to the conversation: the player's input and the narration. */
export interface TurnMessage extends TurnNode {
  input: JsonValue | null;
  narration: string;
}

export interface Turn extends TurnMessage {
  seed: number;
  record: JsonValue;
  /** The full game state after the turn. */
  state: JsonValue;
  ledgerEvents: JsonValue[];
  idempotencyKey: string | null;
}

/** A turn with its state and record but not its ledger events: what a branch read returns. */
export type BranchTurn = Omit<Turn, 'ledgerEvents'>;

/** The newest turns of a branch, oldest first. */
export interface Branch {
  turns: BranchTurn[];
  /** True when `turns` starts at the genesis turn (nothing of the branch was left out). */
  complete: boolean;
}

export interface BranchOptions {
  /** Turns to return at most, counted from `turnId` back (1 to MAX_BRANCH_TURNS). */
  limit: number;
  /**
   * Characters of content (state, record, input and narration, as stored) to return at most, counted from
   * `turnId` back (1 to MAX_BRANCH_CHARS). The turn `turnId` itself is always returned.
   */
  maxChars: number;
}

/** What the caller produced for one turn. */
export interface TurnContent {
  /** Player text or an interaction object; null (or absent) for the genesis turn. */
  input?: unknown;
  narration: string;
  /** Any JSON value, or a JsonText of one its caller serialised already. */
  record: unknown;
  state: unknown;
  /** World-ledger events in the order they were applied; may be empty. */
  ledgerEvents?: readonly unknown[];
  /** The story clock the ledger batch was stamped with (kept beside its events, for exact replays). */
  ledgerGameTime?: string;
  seed: number;
  createdAt: number;
}

export interface LedgerEntry {
  turnId: string;
  depth: number;
  position: number;
  event: JsonValue;
  /** The story clock the turn's batch was stamped with, when it had one. */
  gameTime?: string;
}

/** One page of a branch's ledger, newest turns first by page, events oldest first within it. */
export interface LedgerPage {
  /** Events of the page's turns, in order (turn depth, then position). */
  entries: LedgerEntry[];
  /** Turns the page covers (with or without events). */
  turns: number;
  /** The turn to ask for next (the parent of the page's oldest turn), or null when the page reached genesis. */
  nextTurnId: string | null;
}

export interface Hydrated {
  turn: Turn;
  state: JsonValue;
  /** The last `messageWindow` turns of the branch ending at `turn`, oldest first. */
  messages: TurnMessage[];
  /** Ledger events of the turns in `messages`, in order. The whole log is `getLedgerLog`. */
  ledgerEvents: LedgerEntry[];
  /** True when `messages` starts at the genesis turn (the window covers the whole branch). */
  messagesComplete: boolean;
}

export interface HydrateOptions {
  /** Turns of history to return (default DEFAULT_MESSAGE_WINDOW, at most MAX_MESSAGE_WINDOW). */
  messageWindow?: number;
  /**
   * Read the window's ledger events (default true). False saves a query when the caller builds the world
   * elsewhere: `ledgerEvents` and `turn.ledgerEvents` are then empty.
   */
  ledgerEvents?: boolean;
}

export interface CreateSessionInput {
  id?: string;
  principalId: string;
  cartridgeVersionId: string;
  personaId?: string | null;
  seed: number;
  title?: string | null;
  createdAt?: number;
  /** Turn 0: the first message and the initial state. */
  genesis: TurnContent & { id?: string };
  /**
   * Sessions the principal may keep at most: with that many stored, the create is refused with
   * `session-cap` (counted in the create's transaction, so concurrent creates cannot pass it).
   */
  maxSessions?: number;
}

/** Where a page of `listSessions` starts: after this session in the list's order. */
export interface SessionCursor {
  updatedAt: number;
  id: string;
}

export interface SessionPage {
  /** Sessions to return at most (1 to MAX_SESSION_PAGE). */
  limit: number;
  /** Start after this session (the last of the previous page); the first page when absent. */
  after?: SessionCursor;
}

export interface AppendTurnInput extends TurnContent {
  id?: string;
  sessionId: string;
  parentId: string;
  /** When set, the append fails with `conflict` unless the session head is still this turn. */
  expectedHeadId?: string;
  /** When set, a retry with the same key returns the first turn (`replayed: true`) instead of a new one. */
  idempotencyKey?: string;
  /** Move the session head to the new turn (default true). */
  moveHead?: boolean;
  /**
   * Rebased turns to store first, in the same transaction (engine/session/rebase.ts): the first is a child of
   * `parentId`, each next one a child of the one before, and this turn a child of the last of them.
   */
  rebased?: readonly RebasedTurnInput[];
}

/** A rebased turn: the content it has on its new parent, and the played turn it was made from. */
export interface RebasedTurnInput extends TurnContent {
  id: string;
  /** The played turn (not itself a rebase) whose record this one shares (migration 0011). */
  originId: string;
}

/** Rebased turns stored alone (a chat answered without a turn): the head moves to the last of them. */
export interface AppendRebasedInput {
  sessionId: string;
  /** The parent of the first turn; each next one is a child of the one before. */
  parentId: string;
  expectedHeadId?: string;
  /** 1 to MAX_REBASED_PER_APPEND turns. */
  turns: readonly RebasedTurnInput[];
}

export type CreateSessionResult =
  | { ok: true; session: Session; turn: Turn }
  | Failure<'principal-not-found' | 'cartridge-version-not-found' | 'persona-not-found'>
  | { ok: false; reason: 'session-cap'; limit: number };

export type AppendTurnResult =
  | { ok: true; turn: Turn; replayed: boolean }
  | Failure<'session-not-found' | 'parent-not-found'>
  | { ok: false; reason: 'conflict'; headTurnId: string };

export type SetHeadResult =
  | { ok: true; session: Session }
  | Failure<'session-not-found' | 'turn-not-found'>
  | { ok: false; reason: 'conflict'; headTurnId: string };

/** Sessions and their turn trees. */
export interface TurnLog {
  /** The session and its genesis turn, in one transaction. */
  createSession(input: CreateSessionInput): Promise<CreateSessionResult>;
  /** Another principal's session is not found. */
  getSession(id: string, principalId: string): Promise<Session | undefined>;
  /**
   * Most recently played first (then by id): all of them, or one page. The order is total, so pages that
   * follow each other's last session neither repeat nor skip a session that did not change meanwhile.
   */
  listSessions(principalId: string, page?: SessionPage): Promise<Session[]>;
  /** Sessions the principal keeps. */
  countSessions(principalId: string): Promise<number>;
  renameSession(
    id: string,
    principalId: string,
    title: string | null,
    updatedAt?: number,
  ): Promise<Session | undefined>;
  /** Who the player plays from the next turn on; `persona-not-found` unless the persona is the owner's. */
  setSessionPersona(
    id: string,
    principalId: string,
    personaId: string | null,
  ): Promise<Session | undefined | 'persona-not-found'>;
  /** Removes the session with its turns, ledger events and saves. */
  deleteSession(id: string, principalId: string): Promise<boolean>;
  /** A session by id alone, for operator tools (`session verify`); request handlers use `getSession`. */
  findSessionForAudit(id: string): Promise<Session | undefined>;
  /**
   * Inserts the turn and its ledger events and moves the head, in one transaction. The world snapshots of
   * the projection are not the log's: the session stores them through the SnapshotStore.
   */
  appendTurn(input: AppendTurnInput): Promise<AppendTurnResult>;
  getTurn(sessionId: string, turnId: string): Promise<Turn | undefined>;
  findTurnByIdempotencyKey(sessionId: string, key: string): Promise<Turn | undefined>;
  /**
   * Stores rebased turns alone, in one transaction, and moves the head to the last of them (its result's
   * `turn`). `appendTurn` with `rebased` stores them with a new turn instead.
   */
  appendRebased(input: AppendRebasedInput): Promise<AppendTurnResult>;
  /**
   * The principal's turns among `turnIds` (1 to MAX_LOCATED_TURNS), whichever of their sessions holds them;
   * ids of no turn or of another principal's turn are left out. How a chat front end's anchors are read.
   */
  locateTurns(principalId: string, turnIds: readonly string[]): Promise<TurnMessage[]>;
  /** The rebased turns of the session made from the played turn `originId` (migration 0011), by `seq`. */
  listRebased(sessionId: string, originId: string): Promise<TurnNode[]>;
  /** The turn's children (swipes), by sibling index. */
  listChildren(sessionId: string, turnId: string): Promise<TurnMessage[]>;
  /** The branch from the genesis turn to `turnId`, in one query. */
  getLineage(sessionId: string, turnId: string): Promise<TurnMessage[] | undefined>;
  /**
   * The newest turns of the branch ending at `turnId` with their state and record, oldest first, in one
   * query: at most `limit` turns and `maxChars` characters of content, so a deep branch stays cheap.
   */
  getBranch(sessionId: string, turnId: string, options: BranchOptions): Promise<Branch | undefined>;
  /** Every ledger event on the branch ending at `turnId`, in order, in one query. */
  getLedgerLog(sessionId: string, turnId: string): Promise<LedgerEntry[] | undefined>;
  /** The ledger events of the `limit` turns ending at `turnId` (1 to MAX_LEDGER_PAGE_TURNS), in one query. */
  getLedgerPage(sessionId: string, turnId: string, limit: number): Promise<LedgerPage | undefined>;
  /** State, record and recent history of a turn in a constant number of queries, whatever its depth. */
  hydrate(sessionId: string, turnId: string, options?: HydrateOptions): Promise<Hydrated | undefined>;
  /** Undo / jump: point the head at any turn of the session. */
  setHead(
    sessionId: string,
    turnId: string,
    options?: { expectedHeadId?: string; updatedAt?: number },
  ): Promise<SetHeadResult>;
  /** Every turn of the session, by `seq`. */
  listTree(sessionId: string): Promise<TurnNode[]>;
  /** The newest `limit` turns (1 to MAX_BRANCH_TURNS) of the branch ending at `turnId`, each with its
   * siblings, by `seq`; undefined when the turn is not the session's. */
  listTreeAround(sessionId: string, turnId: string, limit: number): Promise<TurnNode[] | undefined>;
}
