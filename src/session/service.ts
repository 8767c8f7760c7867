// Sessions: a game played from one cartridge version, stored as a tree of immutable turns. A turn goes on
// the head or on an explicit parent (a branch); undo moves the head back; regenerate plays the same input
// again from the same parent with a new seed (a sibling, "swipe"); saves bookmark turns.
//
// A turn is prepared (ownership, idempotency, the in-flight lock, hydration) before it runs, so the caller
// can answer "not found" or "conflict" before it starts streaming; then it runs and commits its state,
// record and ledger batch in one store transaction, or nothing at all (abort, timeout, model failure, or a
// head that moved meanwhile).

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Persona, validatePersona } from '../cartridge/index.ts';
import type { World } from '../ledger/index.ts';
import type { ModelRole, ModelSet } from '../llm/types.ts';
import type { JsonValue } from '../store/json.ts';
import type { Session, Store, Turn } from '../store/repository.ts';
import { isTurnError } from '../turn/errors.ts';
import type { TurnLimits } from '../turn/limits.ts';
import type { WorldInfoTrigger } from '../lore/world-info.ts';
import { runTurn } from '../turn/run-turn.ts';
import type { GameState, InteractionInput, TurnEvent, TurnRecord } from '../turn/types.ts';
import { runEvent } from '../yare/interpreter.ts';
import { plainJson } from './canonical.ts';
import { SessionError } from './errors.ts';
import { InFlight } from './in-flight.ts';
import { timeModels } from './instrument.ts';
import { cartridgeLedger, type WorldResult, withoutWorld, worldFromBase } from './ledger.ts';
import type { CartridgeLibrary, LoadedCartridge } from './library.ts';
import {
  CLAIM_STALE_MS,
  IDEMPOTENCY_WAIT_MS,
  MAX_DRAWN_SEED,
  MAX_EVENT_NAME_CHARS,
  TURN_HISTORY_WINDOW,
} from './limits.ts';
import { storyMessages } from './messages.ts';
import { type AuthorEventRecord, type GenesisRecord, ledgerEventsOf, turnRecordOf } from './records.ts';
import { cryptoSeeds, freshSeed, type SeedSource } from './seeds.ts';
import {
  type BranchWorld,
  DEFAULT_SNAPSHOT_RULE,
  type SnapshotRule,
  snapshotDue,
  WorldCache,
} from './world-cache.ts';

/** How a finished turn went, for metrics. */
export type TurnOutcome =
  | 'committed'
  | 'replayed'
  | 'conflict'
  | 'aborted'
  | 'timeout'
  | 'model'
  | 'invalid'
  | 'error';

export interface SessionObserver {
  onTurn?(outcome: TurnOutcome, durationMs: number, record?: TurnRecord): void;
  onModelCall?(role: ModelRole, durationMs: number, ok: boolean): void;
}

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
  readonly observer?: SessionObserver;
  readonly newId?: () => string;
  /** Milliseconds a request waits for another request's turn with the same Idempotency-Key (IDEMPOTENCY_WAIT_MS). */
  readonly idempotencyWaitMs?: number;
  /** Milliseconds after which an unfinished claim on a key is taken over (CLAIM_STALE_MS). */
  readonly claimStaleMs?: number;
  /** Worlds kept in memory by turn id (default WORLD_CACHE_SIZE; 0 reads every world from the store). */
  readonly worldCacheSize?: number;
  /** When a turn stores a world snapshot (default DEFAULT_SNAPSHOT_RULE; tests use small thresholds). */
  readonly snapshotRule?: SnapshotRule;
}

export interface CreateSessionRequest {
  /** A version id or content hash. */
  readonly cartridgeVersion: string;
  readonly personaId?: string | null;
  readonly seed?: number;
  readonly title?: string | null;
  /** The opening message: 0 (default) `first-message.md`, n the cartridge's alternate greeting n. */
  readonly greeting?: number;
}

export type TurnInput = { readonly input: string } | { readonly interaction: InteractionInput };

export interface TurnRequest {
  /** The turn to play after; the session head when absent. */
  readonly parentId?: string;
  readonly turn: TurnInput;
  readonly idempotencyKey?: string;
  /** Notes from the player's own chat front end (its prompts, persona): context for the Narrator, never rules. */
  readonly playerContext?: string;
  /** What kind of generation this is, for World Info entries limited by `triggers` (default `normal`). */
  readonly trigger?: WorldInfoTrigger;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Milliseconds before the turn is abandoned (nothing committed). */
  readonly timeoutMs?: number;
}

/** A turn ready to run: it holds the session's in-flight lock until `run` ends or `release` is called. */
export interface ReadyTurn {
  readonly kind: 'ready';
  readonly turnId: string;
  readonly parentId: string;
  readonly seed: number;
  readonly mode: 'online' | 'offline';
  /** Streams the turn's events; returns the committed turn. Throws SessionError when nothing was committed. */
  run(options?: RunOptions): AsyncGenerator<TurnEvent, Turn, undefined>;
  /** Gives the lock back without running (the client went away before the stream started). */
  release(): void;
}

export type PreparedTurn = { readonly kind: 'replayed'; readonly turn: Turn } | ReadyTurn;

function notFound(what: string): SessionError {
  return new SessionError('not-found', `${what} not found`);
}

export class SessionService {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly #options: SessionServiceOptions;
  readonly #inFlight = new InFlight();
  readonly #seeds: SeedSource;
  readonly #clock: () => number;
  readonly #monotonic: () => number;
  readonly #newId: () => string;
  readonly #worlds: WorldCache;

  constructor(options: SessionServiceOptions) {
    this.#worlds = new WorldCache(options.worldCacheSize);
    this.store = options.store;
    this.library = options.library;
    this.#options = options;
    this.#seeds = options.seeds ?? cryptoSeeds;
    this.#clock = options.clock ?? Date.now;
    this.#monotonic = options.monotonic ?? (() => performance.now());
    this.#newId = options.newId ?? randomUUID;
  }

  /** Turns running in this process now. */
  get turnsInFlight(): number {
    return this.#inFlight.size;
  }

  async getSession(principalId: string, sessionId: string): Promise<Session> {
    const session = await this.store.getSession(sessionId, principalId);
    if (session === undefined) throw notFound(`session ${sessionId}`);
    return session;
  }

  async getTurn(principalId: string, sessionId: string, turnId: string): Promise<Turn> {
    await this.getSession(principalId, sessionId);
    const turn = await this.store.getTurn(sessionId, turnId);
    if (turn === undefined) throw notFound(`turn ${turnId}`);
    return turn;
  }

  async persona(principalId: string, personaId: string | null | undefined): Promise<Persona | undefined> {
    if (personaId === null || personaId === undefined) return undefined;
    const stored = await this.store.getPersona(personaId, principalId);
    if (stored === undefined) return undefined;
    const data = stored.data;
    return validatePersona(data).length === 0 ? (data as unknown as Persona) : undefined;
  }

  /** The session's cartridge, with the session owner's persona applied. */
  async cartridgeOf(
    session: Session,
    known?: { readonly persona: Persona | undefined },
  ): Promise<LoadedCartridge> {
    const persona = known ? known.persona : await this.persona(session.principalId, session.personaId);
    const loaded = await this.library.load(session.cartridgeVersionId, persona);
    if (loaded === undefined) {
      throw new SessionError(
        'cartridge',
        `cartridge version ${session.cartridgeVersionId} is not in the store`,
      );
    }
    return loaded;
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
    const seed = request.seed ?? this.#seeds();
    if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_DRAWN_SEED) {
      throw new SessionError(
        'invalid',
        `seed must be an integer from 0 to ${MAX_DRAWN_SEED} (MAX_DRAWN_SEED)`,
      );
    }
    const greeting = request.greeting ?? 0;
    const greetings = [cartridge.firstMessage ?? '', ...cartridge.alternateGreetings];
    if (!Number.isSafeInteger(greeting) || greeting < 0 || greeting >= greetings.length) {
      throw new SessionError(
        'invalid',
        `greeting ${greeting} does not exist: this cartridge has greetings 0 (first-message.md)${greetings.length > 1 ? ` to ${greetings.length - 1} (alternate_greetings.json)` : ''}`,
      );
    }
    const record: GenesisRecord = {
      kind: 'genesis',
      version: 1,
      cartridge: { name: cartridge.name, contentHash: cartridge.contentHash, versionId: version.id },
      persona: persona ?? null,
      seed,
    };
    const ledger = cartridgeLedger(cartridge);
    const created = await this.store.createSession({
      principalId,
      cartridgeVersionId: version.id,
      personaId: request.personaId ?? null,
      seed,
      title: request.title ?? null,
      createdAt: this.#clock(),
      genesis: {
        input: null,
        narration: greetings[greeting] ?? '',
        record,
        state: plainJson(cartridge.rules.initialState),
        ledgerEvents: ledger.world,
        seed,
        createdAt: this.#clock(),
      },
    });
    if (!created.ok) {
      switch (created.reason) {
        case 'principal-not-found':
          throw notFound(`principal ${principalId}`);
        case 'cartridge-version-not-found':
          throw notFound(`cartridge version ${request.cartridgeVersion}`);
        case 'persona-not-found':
          throw notFound(`persona ${String(request.personaId)}`);
        default: {
          const unreachable: never = created.reason;
          throw new Error(`unexpected createSession result ${String(unreachable)}`);
        }
      }
    }
    return { session: created.session, turn: created.turn };
  }

  /** Checks ownership, idempotency and the in-flight lock, and hydrates the parent; does not run anything. */
  async prepareTurn(
    principalId: string,
    sessionId: string,
    request: TurnRequest,
    avoidSeeds: ReadonlySet<number> = new Set(),
  ): Promise<PreparedTurn> {
    const session = await this.getSession(principalId, sessionId);
    const turnId = this.#newId();
    const key = request.idempotencyKey;
    if (key !== undefined) {
      const first = await this.#claimKey(sessionId, key, turnId);
      if (first !== undefined) return { kind: 'replayed', turn: first };
    }
    const releaseClaim = (): void => {
      if (key === undefined) return;
      this.store.releaseIdempotencyKey(sessionId, key, turnId).catch(() => undefined);
    };
    if (!this.#inFlight.tryAcquire(sessionId)) {
      releaseClaim();
      throw new SessionError(
        'turn-in-flight',
        `a turn is already being played on session ${sessionId}; wait for it to finish`,
      );
    }
    try {
      const parentId = request.parentId ?? session.headTurnId;
      // The world comes from the world cache or a snapshot, not from the window's events.
      const hydrated = await this.store.hydrate(sessionId, parentId, {
        messageWindow: TURN_HISTORY_WINDOW,
        ledgerEvents: false,
      });
      if (hydrated === undefined) throw notFound(`turn ${parentId}`);
      const persona = await this.persona(principalId, session.personaId);
      const { cartridge } = await this.cartridgeOf(session, { persona });
      const before = await this.#branchWorld(sessionId, parentId);
      const baseModels = await this.#options.models(principalId);
      const observer = this.#options.observer;
      const models =
        baseModels !== null && observer?.onModelCall
          ? timeModels(baseModels, (role, ms, ok) => observer.onModelCall?.(role, ms, ok), this.#monotonic)
          : baseModels;
      const seed = freshSeed(this.#seeds, avoidSeeds);
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        this.#inFlight.release(sessionId);
        releaseClaim();
      };
      const service = this;
      return {
        kind: 'ready',
        turnId,
        parentId,
        seed,
        mode: models === null ? 'offline' : 'online',
        release,
        async *run(options: RunOptions = {}) {
          const started = service.#monotonic();
          const control = new AbortController();
          let timedOut = false;
          const onAbort = (): void => control.abort(options.signal?.reason);
          if (options.signal?.aborted) control.abort(options.signal.reason);
          else options.signal?.addEventListener('abort', onAbort, { once: true });
          const timer =
            options.timeoutMs === undefined
              ? undefined
              : setTimeout(() => {
                  timedOut = true;
                  control.abort(new Error('turn timeout'));
                }, options.timeoutMs);
          let outcome: TurnOutcome = 'error';
          let record: TurnRecord | undefined;
          try {
            try {
              for await (const event of runTurn({
                cartridge,
                state: hydrated.state as GameState,
                world: before.world,
                ledgerTurn: hydrated.turn.depth + 1,
                messages: storyMessages(hydrated.messages),
                ...('input' in request.turn
                  ? { input: request.turn.input }
                  : { interaction: request.turn.interaction }),
                seed,
                models,
                signal: control.signal,
                ...(persona ? { persona } : {}),
                ...(request.playerContext ? { playerContext: request.playerContext } : {}),
                ...(request.trigger ? { worldInfoTrigger: request.trigger } : {}),
                ...(service.#options.turnLimits ? { limits: service.#options.turnLimits } : {}),
              })) {
                if (event.type === 'done') record = event.record;
                yield event;
              }
            } catch (error) {
              throw service.#turnFailure(error, control.signal, timedOut);
            }
            if (control.signal.aborted) throw service.#turnFailure(undefined, control.signal, timedOut);
            if (record === undefined) throw new SessionError('invalid', 'the turn ended without a record');
            const ledgerEvents = ledgerEventsOf(record);
            const after = nextBranchWorld(
              before,
              record.ledger.worldAfter,
              ledgerEvents,
              service.#options.snapshotRule ?? DEFAULT_SNAPSHOT_RULE,
            );
            const appended = await service.store.appendTurn({
              id: turnId,
              sessionId,
              parentId,
              expectedHeadId: session.headTurnId,
              ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
              input: record.input,
              narration: record.narration,
              record: withoutWorld(turnRecordOf(record)),
              state: record.stateAfter,
              ledgerEvents,
              ...(record.ledger.gameTime === undefined ? {} : { ledgerGameTime: record.ledger.gameTime }),
              ...(after.snapshot ? { worldSnapshot: after.entry.world } : {}),
              seed,
              createdAt: service.#clock(),
            });
            if (!appended.ok) {
              switch (appended.reason) {
                case 'conflict':
                  throw new SessionError(
                    'conflict',
                    'the session moved on while this turn ran (another turn was committed); nothing was saved',
                    { headTurnId: appended.headTurnId },
                  );
                case 'session-not-found':
                  throw notFound(`session ${sessionId}`);
                case 'parent-not-found':
                  throw notFound(`turn ${parentId}`);
                default: {
                  const unreachable: never = appended;
                  throw new Error(`unexpected appendTurn result ${JSON.stringify(unreachable)}`);
                }
              }
            }
            outcome = appended.replayed ? 'replayed' : 'committed';
            if (!appended.replayed) service.#worlds.set(appended.turn.id, after.entry);
            return appended.turn;
          } catch (error) {
            outcome = outcomeOf(error);
            throw error;
          } finally {
            if (timer !== undefined) clearTimeout(timer);
            options.signal?.removeEventListener('abort', onAbort);
            release();
            service.#options.observer?.onTurn?.(outcome, service.#monotonic() - started, record);
          }
        },
      };
    } catch (error) {
      this.#inFlight.release(sessionId);
      releaseClaim();
      throw error;
    }
  }

  /**
   * Claims an Idempotency-Key in the database before anything runs, so two requests with one key (on one
   * replica or two) never both call the model. Returns the turn already stored under the key, or undefined
   * when this request won the claim and must play the turn. A loser waits (polling, with backoff, at most
   * `idempotencyWaitMs`) until the winner's turn is stored, or until the winner gives the claim back
   * (its turn failed; then this request plays it), or a stale claim of a dead replica can be taken over.
   */
  async #claimKey(sessionId: string, key: string, turnId: string): Promise<Turn | undefined> {
    const waitMs = this.#options.idempotencyWaitMs ?? IDEMPOTENCY_WAIT_MS;
    const staleMs = this.#options.claimStaleMs ?? CLAIM_STALE_MS;
    const deadline = this.#monotonic() + waitMs;
    let pause = 10;
    for (;;) {
      const first = await this.store.findTurnByIdempotencyKey(sessionId, key);
      if (first !== undefined) return first;
      const now = this.#clock();
      const claim = await this.store.claimIdempotencyKey({
        sessionId,
        key,
        turnId,
        claimedAt: now,
        staleBefore: now - staleMs,
      });
      if (claim.claimed) {
        // The winner may have committed and given its claim back between the two statements above.
        const committed = await this.store.findTurnByIdempotencyKey(sessionId, key);
        if (committed === undefined) return undefined;
        await this.store.releaseIdempotencyKey(sessionId, key, turnId);
        return committed;
      }
      if (this.#monotonic() >= deadline) {
        throw new SessionError(
          'conflict',
          `another request with this Idempotency-Key is still playing its turn after ${waitMs} ms; retry later`,
        );
      }
      await sleep(pause);
      pause = Math.min(pause * 2, 250);
    }
  }

  #turnFailure(error: unknown, signal: AbortSignal, timedOut: boolean): SessionError {
    if (timedOut)
      return new SessionError('timeout', 'the turn took too long and was abandoned; nothing was saved');
    if (signal.aborted) return new SessionError('aborted', 'the turn was cancelled; nothing was saved');
    if (error instanceof SessionError) return error;
    if (isTurnError(error)) {
      switch (error.kind) {
        case 'input':
        case 'interaction':
        case 'reply': // offline: the engine answered the player instead of playing (details.kind says so)
          return new SessionError('invalid', error.message, { kind: error.kind });
        case 'model':
          return new SessionError('model', error.message);
        case 'aborted':
          return new SessionError('aborted', 'the turn was cancelled; nothing was saved');
        default: {
          const unreachable: never = error.kind;
          return new SessionError('invalid', String(unreachable));
        }
      }
    }
    throw error;
  }

  /** Plays a turn to its end without streaming (CLI, tests, the JSON answer of the API). */
  async playTurn(
    principalId: string,
    sessionId: string,
    request: TurnRequest,
    options: RunOptions = {},
  ): Promise<{ turn: Turn; replayed: boolean }> {
    const prepared = await this.prepareTurn(principalId, sessionId, request);
    if (prepared.kind === 'replayed') return { turn: prepared.turn, replayed: true };
    const run = prepared.run(options);
    for (;;) {
      const next = await run.next();
      if (next.done) return { turn: next.value, replayed: false };
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
      updatedAt: this.#clock(),
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
   * The world at a turn with its branch's snapshot bookkeeping: from memory when this process has it, else
   * the store's nearest snapshot on the branch plus the batches after it (parsed and applied, as
   * `worldFromBase` says).
   */
  async #branchWorld(sessionId: string, turnId: string): Promise<BranchWorld> {
    const loaded = await this.#loadWorld(sessionId, turnId);
    if (loaded === undefined) throw notFound(`turn ${turnId}`);
    if (!loaded.result.ok)
      throw new SessionError(
        'invalid',
        `the stored world ledger does not replay at turn ${loaded.result.turn}`,
      );
    return (
      loaded.entry ?? {
        world: loaded.result.world,
        sinceSnapshotChars: 0,
        snapshotChars: 0,
        sinceSnapshotTurns: 0,
      }
    );
  }

  async #loadWorld(
    sessionId: string,
    turnId: string,
  ): Promise<{ depth: number | null; result: WorldResult; entry?: BranchWorld } | undefined> {
    const cached = this.#worlds.get(turnId);
    if (cached !== undefined)
      return { depth: null, result: { ok: true, world: cached.world, log: [] }, entry: cached };
    const base = await this.store.getWorldBase(sessionId, turnId);
    if (base === undefined) return undefined;
    const result = worldFromBase(base);
    if (!result.ok) return { depth: base.depth, result };
    const entry: BranchWorld = {
      world: result.world,
      sinceSnapshotChars: base.eventChars,
      snapshotChars: base.snapshot?.chars ?? 0,
      sinceSnapshotTurns: base.depth - (base.snapshot?.depth ?? 0),
    };
    this.#worlds.set(turnId, entry);
    return { depth: base.depth, result, entry };
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
    const loaded = await this.#loadWorld(sessionId, turnId);
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
    if (request.event.length === 0 || request.event.length > MAX_EVENT_NAME_CHARS) {
      throw new SessionError(
        'invalid',
        `event name must be 1 to ${MAX_EVENT_NAME_CHARS} characters (MAX_EVENT_NAME_CHARS)`,
      );
    }
    const parentId = request.parentId ?? session.headTurnId;
    const parent = await this.store.getTurn(sessionId, parentId);
    if (parent === undefined) throw notFound(`turn ${parentId}`);
    const { cartridge } = await this.cartridgeOf(session);
    if (!cartridge.rules.events.has(request.event)) {
      throw new SessionError('invalid', `the cartridge has no event '${request.event}'`, {
        known: cartridge.rules.eventNames,
      });
    }
    const seed = request.seed ?? this.#seeds();
    const result = runEvent(cartridge.rules, parent.state, request.event, request.inputs ?? {}, { seed });
    if (!result.ok) {
      throw new SessionError(
        'invalid',
        `event '${request.event}' failed (${result.error.code}): ${result.error.message}`,
        {
          code: result.error.code,
        },
      );
    }
    const record: AuthorEventRecord = {
      kind: 'author-event',
      version: 1,
      event: request.event,
      inputs: plainJson(request.inputs ?? {}),
      seed,
      notes: [...result.notes],
      rolls: plainJson(result.rolls),
      stateAfter: plainJson(result.state),
    };
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
      createdAt: this.#clock(),
    });
    if (appended.ok && !appended.replayed) {
      // A rule event by hand changes no world: the new turn's world is its parent's.
      const parentWorld = this.#worlds.get(parentId);
      if (parentWorld !== undefined)
        this.#worlds.set(appended.turn.id, {
          ...parentWorld,
          sinceSnapshotTurns: parentWorld.sinceSnapshotTurns + 1,
        });
    }
    if (!appended.ok) {
      if (appended.reason === 'conflict') {
        throw new SessionError('conflict', 'the session head moved meanwhile', {
          headTurnId: appended.headTurnId,
        });
      }
      throw notFound(appended.reason === 'session-not-found' ? `session ${sessionId}` : `turn ${parentId}`);
    }
    return { record, turn: appended.turn };
  }
}

function outcomeOf(error: unknown): TurnOutcome {
  if (!(error instanceof SessionError)) return 'error';
  switch (error.code) {
    case 'conflict':
    case 'turn-in-flight':
      return 'conflict';
    case 'aborted':
      return 'aborted';
    case 'timeout':
      return 'timeout';
    case 'model':
    case 'settings':
      return 'model';
    case 'invalid':
      return 'invalid';
    case 'not-found':
    case 'cartridge':
      return 'error';
    default: {
      const unreachable: never = error.code;
      return unreachable;
    }
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

/**
 * The branch bookkeeping after a turn: its events count towards the next snapshot, and when they reach the
 * snapshot rule's threshold this turn stores the world it leaves.
 */
function nextBranchWorld(
  before: BranchWorld,
  worldAfter: World,
  events: readonly unknown[],
  rule: SnapshotRule,
): { entry: BranchWorld; snapshot: boolean } {
  let chars = 0;
  for (const event of events) chars += JSON.stringify(event)?.length ?? 0;
  const since = before.sinceSnapshotChars + chars;
  const turns = before.sinceSnapshotTurns + 1;
  if (snapshotDue(since, before.snapshotChars, rule, turns)) {
    const snapshotChars = JSON.stringify(worldAfter).length;
    return {
      entry: { world: worldAfter, sinceSnapshotChars: 0, snapshotChars, sinceSnapshotTurns: 0 },
      snapshot: true,
    };
  }
  return {
    entry: {
      world: worldAfter,
      sinceSnapshotChars: since,
      snapshotChars: before.snapshotChars,
      sinceSnapshotTurns: turns,
    },
    snapshot: false,
  };
}
