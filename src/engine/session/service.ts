// Sessions: a game played from one cartridge version, stored as a tree of immutable turns. A turn goes on
// the head or on an explicit parent (a branch); undo moves the head back; regenerate plays the same input
// again from the same parent with a new seed (a sibling, "swipe"); saves bookmark turns.
//
// A turn is a TurnJob of three stages (turn-job/): prepare (ownership, idempotency, the in-flight lock,
// hydration) before anything streams, so the caller can answer "not found" or "conflict" first; run (the
// engine, under abort and timeout); commit (state, record and ledger batch in one store transaction). A turn
// that fails anywhere commits nothing (abort, timeout, model failure, or a head that moved meanwhile).
// Every request is admitted first (turn-job/admission.ts): the operator's input limit, the request's shape
// and its Idempotency-Key are checked there once for every way into a turn, stateless turns included.

import { randomUUID } from 'node:crypto';
import type { Persona } from '../../core/cartridge/index.ts';
import type { ModelSet } from '../../adapters/llm/index.ts';
import type { JsonValue, Session, Store, Turn } from '../../adapters/store/index.ts';
import type { InteractionInput, TurnLimits, TurnRecord } from '../turn/index.ts';
import { loadWorld } from './branch-world.ts';
import { plainJson } from './canonical.ts';
import { ClaimOwner } from './claim-owner.ts';
import { type NoTurnAnswer, noTurnAnswer, notFound, SessionError } from './errors.ts';
import { InFlight } from './in-flight.ts';
import { cartridgeLedger, type WorldResult } from './ledger.ts';
import type { CartridgeLibrary, LoadedCartridge } from './library.ts';
import {
  CLAIM_STALE_MS,
  IDEMPOTENCY_WAIT_MS,
  MAX_SESSIONS_PER_PRINCIPAL,
  TURN_HISTORY_WINDOW,
} from './limits.ts';
import type { AuthorEventRecord } from './records.ts';
import { planRebase, type RebasedChain, type RebaseStep, settleChain } from './rebase.ts';
import { appendRefusal, authorEventRecord, checkEventName, checkKnownEvent } from './author-event.ts';
import { checkedSeed, chosenGreeting, createRefusal, genesisRecord } from './genesis.ts';
import { cryptoSeeds, type SeedSource } from './seeds.ts';
import { ownedSession, personaOf, sessionCartridge } from './session-reads.ts';
import { admission, resolveAdmission } from './turn-job/admission.ts';
import { type DrivenTurn, driveTurn, type TurnSink } from './turn-job/drive.ts';
import { TurnJob } from './turn-job/job.ts';
import { prepareTurn as prepareTurnStage } from './turn-job/prepare.ts';
import { playStatelessTurn, type StatelessTurn } from './turn-job/stateless.ts';
import type {
  AdmissionRules,
  AdmittedTurn,
  PreparedTurn,
  SessionObserver,
  TurnEnvironment,
  TurnInput,
  TurnRequest,
} from './turn-job/types.ts';
import { WindowCache } from './window-cache.ts';
import { DEFAULT_SNAPSHOT_RULE, type SnapshotRule, WorldCache } from './world-cache.ts';

export type {
  AdmissionRules,
  AdmittedTurn,
  PreparedTurn,
  ReadyTurn,
  RunOptions,
  SessionObserver,
  TurnInput,
  TurnOutcome,
  TurnRequest,
} from './turn-job/types.ts';

export interface SessionServiceOptions {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  /**
   * The models of one turn of this principal; null means offline. Called once per turn (scripted sets are
   * stateful). The server passes `PrincipalModels.modelsFor`: the server's models with the principal's settings.
   */
  readonly models: (principalId: string) => ModelSet | null | Promise<ModelSet | null>;
  readonly seeds?: SeedSource;
  /** Wall clock in milliseconds, for `createdAt` (default Date.now). */
  readonly clock?: () => number;
  /** Monotonic milliseconds for durations (default performance.now). */
  readonly monotonic?: () => number;
  readonly turnLimits?: Partial<TurnLimits>;
  /**
   * How a turn gives the event loop back between its slices (TurnOptions.yieldNow). Only for measuring: the
   * turn-isolation benchmark's "before" row passes a microtask, which serves no other request meanwhile.
   */
  readonly turnYield?: () => Promise<void>;
  readonly observer?: SessionObserver;
  readonly newId?: () => string;
  /** Milliseconds a request waits for another request's turn with the same Idempotency-Key (IDEMPOTENCY_WAIT_MS). */
  readonly idempotencyWaitMs?: number;
  /** Milliseconds after which an unfinished claim on a key is taken over (CLAIM_STALE_MS). */
  readonly claimStaleMs?: number;
  /** Milliseconds of silence after which another process's claims are taken over (CLAIM_LEASE_MS). */
  readonly claimLeaseMs?: number;
  /** Milliseconds between this process's heartbeats while it holds claims (CLAIM_HEARTBEAT_MS). */
  readonly claimHeartbeatMs?: number;
  /** Sessions one principal may keep (MAX_SESSIONS_PER_PRINCIPAL); a create past it is `session-cap`. */
  readonly maxSessionsPerPrincipal?: number;
  /** Worlds kept in memory by turn id (default WORLD_CACHE_SIZE; 0 reads every world from the store). */
  readonly worldCacheSize?: number;
  /** When a turn stores a world snapshot (default DEFAULT_SNAPSHOT_RULE; tests use small thresholds). */
  readonly snapshotRule?: SnapshotRule;
  /**
   * The operator's admission rules: the input limit (default the engine's MAX_INPUT_CHARS) and the turn
   * timeout (default none). The server passes its MNESOS_MAX_INPUT_CHARS and MNESOS_TURN_TIMEOUT_MS.
   */
  readonly admission?: Partial<AdmissionRules>;
}

/** A stateless turn as SessionService.playStateless takes it: the service adds the models and the seed. */
export type StatelessRequest = Omit<StatelessTurn, 'models' | 'seed' | 'limits'> & { readonly seed?: number };

export interface CreateSessionRequest {
  /** A version id or content hash. */
  readonly cartridgeVersion: string;
  readonly personaId?: string | null;
  readonly seed?: number;
  readonly title?: string | null;
  /** The opening message: 0 (default) `first-message.md`, n the cartridge's alternate greeting n. */
  readonly greeting?: number;
  /** The session's id (default: a new UUID); an id already used is the store's error (isUniqueViolation). */
  readonly id?: string;
}

/** `playStateless`'s outcome: the played turn's record, or the engine's answer when it played none. */
export type StatelessOutcome =
  | { readonly kind: 'played'; readonly record: TurnRecord; readonly mode: 'online' | 'offline' }
  | { readonly kind: 'answered'; readonly answer: NoTurnAnswer; readonly mode: 'online' | 'offline' };

export class SessionService {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  /** What the turn stages share: the options with their defaults, the in-flight locks, the world cache. */
  readonly #env: TurnEnvironment;
  readonly #maxSessions: number;

  constructor(options: SessionServiceOptions) {
    this.store = options.store;
    this.library = options.library;
    this.#maxSessions = options.maxSessionsPerPrincipal ?? MAX_SESSIONS_PER_PRINCIPAL;
    if (!Number.isSafeInteger(this.#maxSessions) || this.#maxSessions < 1)
      throw new RangeError(`maxSessionsPerPrincipal must be a positive integer, got ${this.#maxSessions}`);
    const rules = resolveAdmission(options.admission);
    this.#env = {
      store: options.store,
      library: options.library,
      inFlight: new InFlight(),
      worlds: new WorldCache(options.worldCacheSize),
      windows: new WindowCache(TURN_HISTORY_WINDOW, options.worldCacheSize),
      seeds: options.seeds ?? cryptoSeeds,
      clock: options.clock ?? Date.now,
      monotonic: options.monotonic ?? (() => performance.now()),
      newId: options.newId ?? randomUUID,
      models: options.models,
      observer: options.observer,
      turnLimits: options.turnLimits,
      turnYield: options.turnYield,
      snapshotRule: options.snapshotRule ?? DEFAULT_SNAPSHOT_RULE,
      idempotencyWaitMs: options.idempotencyWaitMs ?? IDEMPOTENCY_WAIT_MS,
      claimStaleMs: options.claimStaleMs ?? CLAIM_STALE_MS,
      claimOwner: new ClaimOwner(options.store, {
        id: randomUUID(),
        clock: options.clock ?? Date.now,
        ...(options.claimLeaseMs === undefined ? {} : { leaseMs: options.claimLeaseMs }),
        ...(options.claimHeartbeatMs === undefined ? {} : { heartbeatMs: options.claimHeartbeatMs }),
      }),
      admission: rules,
      admit: admission(rules),
    };
  }

  /** The admission rules every turn of this service is checked against. */
  get admission(): AdmissionRules {
    return this.#env.admission;
  }

  /**
   * Checks a request against the admission rules before anything is read (prepareTurn does this itself;
   * a stateless turn is admitted by its caller first). Throws SessionError `input-too-long` or `malformed`.
   */
  admit(request: TurnRequest): AdmittedTurn {
    return this.#env.admit(request);
  }

  /**
   * Ends this process's hold on Idempotency-Key claims (a clean shutdown): a claim a turn still holds may
   * be taken over by another replica at once. The store stays open (its owner closes it).
   */
  async close(): Promise<void> {
    await this.#env.claimOwner.end();
  }

  /** Turns running in this process now. */
  get turnsInFlight(): number {
    return this.#env.inFlight.size;
  }

  async getSession(principalId: string, sessionId: string): Promise<Session> {
    return ownedSession(this.store, principalId, sessionId);
  }

  async getTurn(principalId: string, sessionId: string, turnId: string): Promise<Turn> {
    await this.getSession(principalId, sessionId);
    const turn = await this.store.getTurn(sessionId, turnId);
    if (turn === undefined) throw notFound(`turn ${turnId}`);
    return turn;
  }

  async persona(principalId: string, personaId: string | null | undefined): Promise<Persona | undefined> {
    return personaOf(this.store, principalId, personaId);
  }

  /** The session's cartridge, with the session owner's persona applied. */
  async cartridgeOf(
    session: Session,
    known?: { readonly persona: Persona | undefined },
  ): Promise<LoadedCartridge> {
    const persona = known ? known.persona : await this.persona(session.principalId, session.personaId);
    return sessionCartridge(this.library, session, persona);
  }

  async createSession(
    principalId: string,
    request: CreateSessionRequest,
  ): Promise<{ session: Session; turn: Turn }> {
    let persona: Persona | undefined;
    if (request.personaId !== undefined && request.personaId !== null) {
      persona = await this.persona(principalId, request.personaId);
      if (persona === undefined) throw notFound(`persona ${request.personaId}`);
    }
    const loaded = await this.library.load(request.cartridgeVersion, persona);
    if (loaded === undefined) throw notFound(`cartridge version ${request.cartridgeVersion}`);
    const { version, cartridge } = loaded;
    const seed = checkedSeed(request.seed ?? this.#env.seeds());
    const narration = chosenGreeting(cartridge, request.greeting ?? 0);
    const record = genesisRecord(cartridge, version.id, persona, seed);
    const ledger = cartridgeLedger(cartridge);
    const created = await this.store.createSession({
      ...(request.id === undefined ? {} : { id: request.id }),
      principalId,
      cartridgeVersionId: version.id,
      personaId: request.personaId ?? null,
      seed,
      title: request.title ?? null,
      createdAt: this.#env.clock(),
      maxSessions: this.#maxSessions,
      genesis: {
        input: null,
        narration,
        record,
        state: plainJson(cartridge.rules.initialState),
        ledgerEvents: ledger.world,
        seed,
        createdAt: this.#env.clock(),
      },
    });
    if (!created.ok) throw createRefusal(created, principalId, request);
    return { session: created.session, turn: created.turn };
  }

  /**
   * Checks ownership, idempotency and the in-flight lock, and hydrates the parent (the prepare stage); the
   * returned TurnJob runs and commits it.
   */
  async prepareTurn(
    principalId: string,
    sessionId: string,
    request: TurnRequest,
    avoidSeeds: ReadonlySet<number> = new Set(),
  ): Promise<PreparedTurn> {
    const prepared = await prepareTurnStage(this.#env, principalId, sessionId, request, avoidSeeds);
    switch (prepared.kind) {
      case 'replayed':
        return prepared;
      case 'ready':
        return new TurnJob(this.#env, prepared.context, prepared.claim);
      default: {
        const unreachable: never = prepared;
        throw new Error(`unexpected prepare result ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Prepares and plays a turn to its end (tests, benchmarks); events to `sink` when given. */
  async playTurn(
    principalId: string,
    sessionId: string,
    request: TurnRequest,
    sink: TurnSink = {},
  ): Promise<DrivenTurn> {
    return driveTurn(await this.prepareTurn(principalId, sessionId, request), sink);
  }

  /**
   * A stateless turn with this principal's models (their settings; `settings` when those cannot be used)
   * and the service's turn timeout: nothing is read or stored. The request must have been admitted.
   */
  async playStateless(
    principalId: string,
    turn: StatelessRequest,
    sink: TurnSink = {},
  ): Promise<StatelessOutcome> {
    const models = await this.#env.models(principalId);
    const mode = models === null ? 'offline' : 'online';
    try {
      const record = await playStatelessTurn(
        {
          ...turn,
          seed: turn.seed ?? this.#env.seeds(),
          models,
          ...(this.#env.turnLimits === undefined ? {} : { limits: this.#env.turnLimits }),
        },
        sink,
        this.#env.admission.turnTimeoutMs,
      );
      return { kind: 'played', record, mode };
    } catch (error) {
      // An answer without a turn (offline: a look around, a question back) is an outcome, not a failure.
      const answer = noTurnAnswer(error);
      if (answer === undefined) throw error;
      return { kind: 'answered', answer, mode };
    }
  }

  /** Prepares a new sibling of `turnId` (the head by default): its input again, with a new seed. */
  async prepareRegenerate(
    principalId: string,
    sessionId: string,
    options: { turnId?: string; idempotencyKey?: string } = {},
  ): Promise<PreparedTurn> {
    const session = await this.getSession(principalId, sessionId);
    const target = await this.store.getTurn(sessionId, options.turnId ?? session.headTurnId);
    if (target === undefined) throw notFound(`turn ${String(options.turnId)}`);
    if (target.parentId === null)
      throw new SessionError('invalid', 'the first message cannot be regenerated; start a new session');
    const turn = storedTurnInput(target.input);
    if (turn === undefined) throw new SessionError('invalid', `turn ${target.id} has no input to play again`);
    return this.prepareTurn(
      principalId,
      sessionId,
      {
        parentId: target.parentId,
        turn,
        ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
      },
      new Set([target.seed]),
    );
  }

  /**
   * Plans the rebase of `steps` under `baseId` (rebase.ts): nothing is stored; the chain goes with the next
   * turn (`TurnRequest.rebased`) or alone (`settleChat`). The caller bounds `steps`.
   */
  async planRebase(
    principalId: string,
    sessionId: string,
    baseId: string,
    steps: readonly RebaseStep[],
  ): Promise<RebasedChain> {
    const session = await this.getSession(principalId, sessionId);
    const { cartridge } = await this.cartridgeOf(session);
    const env = this.#env;
    return planRebase(
      { ...env, yieldNow: env.turnYield ?? (() => new Promise((resolve) => setImmediate(resolve))) },
      session,
      cartridge,
      baseId,
      steps,
    );
  }

  /**
   * A chat answered without a turn: stores its planned rebase alone, or moves the head to `headId`, so the
   * session shows what the chat shows (rebase.ts, settleChain). Throws `conflict` when the head moved.
   */
  async settleChat(
    principalId: string,
    sessionId: string,
    chain: Pick<RebasedChain, 'baseId' | 'expectedHeadId' | 'turns'>,
    headId: string,
  ): Promise<void> {
    await this.getSession(principalId, sessionId);
    await settleChain(this.store, sessionId, chain, headId, this.#env.clock());
  }

  /** Moves the head to its parent; the undone turn stays in the tree (redo = move the head back). */
  async undo(principalId: string, sessionId: string, expectedHeadId?: string): Promise<Session> {
    const session = await this.getSession(principalId, sessionId);
    const head = await this.store.getTurn(sessionId, session.headTurnId);
    if (head === undefined) throw notFound(`turn ${session.headTurnId}`);
    if (head.parentId === null)
      throw new SessionError('invalid', 'nothing to undo: the session is at its first message');
    return this.moveHead(principalId, sessionId, head.parentId, expectedHeadId ?? session.headTurnId);
  }

  async moveHead(
    principalId: string,
    sessionId: string,
    turnId: string,
    expectedHeadId?: string,
  ): Promise<Session> {
    await this.getSession(principalId, sessionId);
    const moved = await this.store.setHead(sessionId, turnId, {
      ...(expectedHeadId === undefined ? {} : { expectedHeadId }),
      updatedAt: this.#env.clock(),
    });
    if (moved.ok) return moved.session;
    switch (moved.reason) {
      case 'conflict':
        throw new SessionError('conflict', 'the session head moved meanwhile', {
          headTurnId: moved.headTurnId,
        });
      case 'session-not-found':
        throw notFound(`session ${sessionId}`);
      case 'turn-not-found':
        throw notFound(`turn ${turnId}`);
      default: {
        const unreachable: never = moved;
        throw new Error(`unexpected setHead result ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * The world ledger at a turn: the nearest snapshot on its branch plus the batches after it, so the cost
   * does not grow with the branch's depth. `result.log` holds only the replayed batches (the whole log is
   * paged by `GET /ledger`).
   */
  async worldAt(
    principalId: string,
    sessionId: string,
    turnId: string,
  ): Promise<{ depth: number | null; result: WorldResult }> {
    await this.getSession(principalId, sessionId);
    const loaded = await loadWorld(this.store, this.#env.worlds, sessionId, turnId);
    if (loaded === undefined) throw notFound(`turn ${turnId}`);
    return { depth: loaded.depth, result: loaded.result };
  }

  /**
   * Author mode: runs one rule event by hand on the state at `parentId` (the head by default). With
   * `commit`, the result becomes a turn (its seed recorded, so verify replays it); otherwise nothing changes.
   */
  async runAuthorEvent(
    principalId: string,
    sessionId: string,
    request: { event: string; inputs?: unknown; parentId?: string; commit?: boolean; seed?: number },
  ): Promise<{ record: AuthorEventRecord; turn?: Turn }> {
    const session = await this.getSession(principalId, sessionId);
    checkEventName(request.event);
    const parentId = request.parentId ?? session.headTurnId;
    const parent = await this.store.getTurn(sessionId, parentId);
    if (parent === undefined) throw notFound(`turn ${parentId}`);
    const { cartridge } = await this.cartridgeOf(session);
    checkKnownEvent(cartridge, request.event);
    const seed = request.seed ?? this.#env.seeds();
    const record = authorEventRecord(cartridge, parent.state, request, seed);
    if (request.commit !== true) return { record };
    const appended = await this.store.appendTurn({
      sessionId,
      parentId,
      expectedHeadId: session.headTurnId,
      input: { kind: 'author-event', event: request.event, text: `[author] ${request.event}` },
      narration: '',
      record,
      state: record.stateAfter,
      seed,
      createdAt: this.#env.clock(),
    });
    if (appended.ok && !appended.replayed) {
      // A rule event by hand changes no world: the new turn's world is its parent's.
      const parentWorld = this.#env.worlds.get(parentId);
      if (parentWorld !== undefined)
        this.#env.worlds.set(appended.turn.id, {
          ...parentWorld,
          sinceSnapshotTurns: parentWorld.sinceSnapshotTurns + 1,
        });
    }
    if (!appended.ok) throw appendRefusal(appended, sessionId, parentId);
    return { record, turn: appended.turn };
  }
}

/** Recovers what the player sent from a stored input (`{kind:'text'|'interaction', …}`). */
export function storedTurnInput(input: JsonValue | null): TurnInput | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  if (record.kind === 'text' && typeof record.text === 'string') return { input: record.text };
  if (
    record.kind === 'interaction' &&
    typeof record.interaction === 'object' &&
    record.interaction !== null
  ) {
    return { interaction: record.interaction as unknown as InteractionInput };
  }
  return undefined;
}
