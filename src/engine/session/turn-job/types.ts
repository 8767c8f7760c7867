// The shapes a turn passes through: what the caller asks (TurnRequest), what prepare resolves (TurnContext),
// what the caller holds between prepare and run (PreparedTurn), and what the stages share (TurnEnvironment).

import type { Cartridge, Persona } from '../../../core/cartridge/index.ts';
import type { ModelRole, ModelSet } from '../../../adapters/llm/index.ts';
import type { WorldInfoTrigger } from '../../../core/lore/index.ts';
import type { RebasedTurnInput, Store, Turn } from '../../../adapters/store/index.ts';
import type { RebasedChain } from '../rebase.ts';
import type {
  GameState,
  InteractionInput,
  StoryMessage,
  TurnEvent,
  TurnLimits,
  TurnRecord,
  TurnTable,
} from '../../turn/index.ts';
import type { ClaimOwner } from '../claim-owner.ts';
import type { InFlight } from '../in-flight.ts';
import type { CartridgeLibrary } from '../library.ts';
import type { SeedSource } from '../seeds.ts';
import type { WindowCache } from '../window-cache.ts';
import type { BranchWorld, SnapshotRule, WorldCache } from '../world-cache.ts';

/** How a finished turn went, for metrics. */
export type TurnOutcome =
  | 'committed'
  | 'replayed'
  | 'conflict'
  | 'aborted'
  | 'timeout'
  | 'model'
  | 'invalid'
  /** No turn was played: the engine answered instead (offline: a free action, a question, a refusal). */
  | 'answered'
  /** The cartridge passed the turn's compute budget. */
  | 'too-costly'
  | 'error';

export interface SessionObserver {
  onTurn?(outcome: TurnOutcome, durationMs: number, record?: TurnRecord): void;
  onModelCall?(role: ModelRole, durationMs: number, ok: boolean): void;
}

export type TurnInput = { readonly input: string } | { readonly interaction: InteractionInput };

export interface TurnRequest {
  /** The turn to play after; the session head when absent. */
  readonly parentId?: string;
  readonly turn: TurnInput;
  /** The client's Idempotency-Key (1 to MAX_IDEMPOTENCY_KEY_LENGTH characters; admission checks it). */
  readonly idempotencyKey?: string;
  /**
   * A namespace the key is claimed in, when the key is a front end's rather than a MnesOS client's (the
   * OpenAI endpoint's `openai`): the key stored is then a digest of the session and the key (admission.ts).
   */
  readonly idempotencyScope?: string;
  /** Notes from the player's own chat front end (its prompts, persona): context for the Narrator, never rules. */
  readonly playerContext?: string;
  /** What kind of generation this is, for World Info entries limited by `triggers` (default `normal`). */
  readonly trigger?: WorldInfoTrigger;
  /** Strict mode: an event that breaks an invariant of the cartridge refuses the turn (`TurnOptions.strict`). */
  readonly strict?: boolean;
  /**
   * Turns rebased for this one (SessionService.planRebase): stored with it in one transaction, before it; the
   * turn plays after the last of them (`parentId` is then ignored), and is refused if the session head moved
   * since they were planned.
   */
  readonly rebased?: RebasedChain;
  /** A shared table's turn (table/turns.ts): who acts, who is present, and whose persona the actor plays. */
  readonly table?: TableTurnRequest;
}

/** What a shared table adds to a turn request: the engine's table, and the acting member's persona. */
export interface TableTurnRequest {
  readonly turn: TurnTable;
  /** The persona the actor plays (their own, not the owner's); null: none. */
  readonly persona: { readonly principalId: string; readonly personaId: string | null } | null;
}

export interface RunOptions {
  /** The caller going away: the turn is cancelled and nothing is committed. */
  readonly signal?: AbortSignal;
}

/** What the run stage is given: the caller's signal and the service's turn timeout. */
export interface StageOptions extends RunOptions {
  /** Milliseconds before the turn is abandoned (nothing committed); undefined: no limit. */
  readonly timeoutMs?: number | undefined;
  /** How the turn gives the event loop back between slices; undefined: the engine's default. */
  readonly yieldNow?: (() => Promise<void>) | undefined;
}

/** A turn ready to run: it holds the session's in-flight lock until `run` ends or `release` is called. */
export interface ReadyTurn {
  readonly kind: 'ready';
  readonly turnId: string;
  readonly parentId: string;
  readonly seed: number;
  readonly mode: 'online' | 'offline';
  /** The cartridge the turn plays (persona applied): what its answer is shown with. */
  readonly cartridge: Cartridge;
  /** Streams the turn's events; returns the committed turn. Throws SessionError when nothing was committed. */
  run(options?: RunOptions): AsyncGenerator<TurnEvent, Turn, undefined>;
  /** Gives the lock back without running (the client went away before the stream started). */
  release(): void;
}

export type PreparedTurn = { readonly kind: 'replayed'; readonly turn: Turn } | ReadyTurn;

/** Everything prepare resolved for one turn: plain values, so run and commit need no store reads of their own. */
export interface TurnContext {
  readonly sessionId: string;
  /** The id the committed turn gets (and the idempotency claim names). */
  readonly turnId: string;
  readonly parentId: string;
  /** The session head when the turn was prepared: commit refuses when another turn moved it meanwhile. */
  readonly expectedHeadId: string;
  readonly request: TurnRequest;
  /** The session's cartridge version with the owner's persona applied. */
  readonly cartridge: Cartridge;
  readonly persona: Persona | undefined;
  /** The parent's state, messages (the history window) and ledger turn (its depth + 1). */
  readonly state: GameState;
  readonly messages: readonly StoryMessage[];
  readonly ledgerTurn: number;
  /** The parent's world with its branch's snapshot bookkeeping. */
  readonly before: BranchWorld;
  /** null: offline. */
  readonly models: ModelSet | null;
  readonly seed: number;
  /** Rebased turns stored before this one, under `baseId`, in the commit's transaction. */
  readonly rebased?: { readonly baseId: string; readonly turns: readonly RebasedTurnInput[] };
}

/** The operator's admission limits, resolved (admission.ts, resolveAdmission). */
export interface AdmissionRules {
  /** Characters of a text input: the operator's limit, at most the engine's own MAX_INPUT_CHARS. */
  readonly maxInputChars: number;
  /** Milliseconds a turn may run before it is abandoned with nothing committed; undefined: no limit. */
  readonly turnTimeoutMs: number | undefined;
}

declare const ADMITTED: unique symbol;
/** A request admission has passed: what a stateless turn takes (a session turn admits in prepare). */
export type AdmittedTurn = TurnRequest & { readonly [ADMITTED]: true };

/** Checks a request against the admission rules; returns it admitted, or throws SessionError. */
export type RequestAdmission = (request: TurnRequest) => AdmittedTurn;

/** What the stages use from the service, defaults resolved; each stage takes only the part it needs. */
export interface TurnEnvironment {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly inFlight: InFlight;
  readonly worlds: WorldCache;
  /** Parents' states and story windows by turn id (window-cache.ts). */
  readonly windows: WindowCache;
  readonly seeds: SeedSource;
  /** Wall clock (createdAt, claim times). */
  readonly clock: () => number;
  /** Monotonic milliseconds (durations, the idempotency wait). */
  readonly monotonic: () => number;
  readonly newId: () => string;
  readonly models: (principalId: string) => ModelSet | null | Promise<ModelSet | null>;
  readonly observer: SessionObserver | undefined;
  readonly turnLimits: Partial<TurnLimits> | undefined;
  /** How a turn gives the event loop back between slices (TurnOptions.yieldNow); undefined: the engine's. */
  readonly turnYield?: (() => Promise<void>) | undefined;
  readonly snapshotRule: SnapshotRule;
  readonly idempotencyWaitMs: number;
  readonly claimStaleMs: number;
  /** This process as the holder of key claims (its lease and heartbeat). */
  readonly claimOwner: ClaimOwner;
  /** The operator's admission rules (the input limit, the turn timeout), resolved. */
  readonly admission: AdmissionRules;
  /** Checks a request against `admission` (admission.ts): every way into a turn passes it. */
  readonly admit: RequestAdmission;
}
