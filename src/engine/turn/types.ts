// The turn engine's public types: what `runTurn` takes, the events it streams, and the record it ends with.

import type { IntentInputs, Persona } from '../../core/cartridge/index.ts';
import type { LedgerErrorCode, LedgerSection, TimeChange, World } from '../../core/ledger/index.ts';
import type { ModelRole, ModelSet, RefusedOutput, RoleUsage } from '../../adapters/llm/index.ts';
import type { WorldInfoBook, WorldInfoTrigger } from '../../core/lore/index.ts';
import type { CompiledRules, RollRecord, StateChange, StateValue } from '../../core/yare/index.ts';
import type { TurnLimits } from './limits.ts';

/** How a prompt section behaves across turns (prompts.ts assembles them): stable text first, volatile last. */
export type SectionKind = 'static' | 'volatile';
/** Where a section's text travels: in the system prompt, as tool definitions, or as chat messages. */
export type SectionCarrier = 'system' | 'tools' | 'messages';

/** One prompt section's line in the turn record: its size and why it was included, cut or dropped. */
export interface SectionReport {
  readonly id: string;
  readonly kind: SectionKind;
  readonly carrier: SectionCarrier;
  readonly tokens: number;
  readonly included: boolean;
  readonly reason: string;
  /** The receipts of the section's pieces (sections built from pieces only). */
  readonly items?: readonly ItemReceipt[];
}

/** What became of one piece of a section. */
export type ItemStatus =
  /** In the prompt as sent. */
  | 'included'
  /** Cut off when the section was cut to its cap. */
  | 'cut'
  /** Its section was dropped for the prompt's budget. */
  | 'dropped'
  /** Left out before assembly: over the budget of its own kind (lore, World Info, the world summary). */
  | 'over_budget'
  /** Left out before assembly: not in play (a `when` false) or not known to the one the prompt is for. */
  | 'excluded';

/** One piece's receipt, in the record. */
export interface ItemReceipt {
  readonly id: string;
  readonly why: string;
  readonly tokens: number;
  readonly status: ItemStatus;
}

/** What a turn needs of a loaded cartridge (structurally a subset of the cartridge loader's `Cartridge`). */
export interface TurnCartridge {
  readonly name: string;
  readonly contentHash: string;
  readonly rules: CompiledRules;
  readonly directives: { readonly director?: string; readonly npc?: string; readonly narrator?: string };
  /** The lore Markdown (`bot_lore.md`); indexed once per cartridge object and reused. */
  readonly lore: string;
  /** `first-message.md`, persona macros already applied: the opening assistant message of a new game. */
  readonly firstMessage?: string;
  /** The world-ledger write policy and the starting world (the cartridge's `ledger:` section). */
  readonly ledger: LedgerSection;
  /** `world_info.json`: SillyTavern World Info, activated by its keys each turn (src/engine/turn/world-info-turn.ts). */
  readonly worldInfo?: WorldInfoBook;
  /** `intents.yaml`: the inputs intent phrases imply (the offline matcher's). */
  readonly intentInputs?: IntentInputs;
}

/** What a turn's World Info did: activated entries (uid and why) and the state it left. */
export interface WorldInfoRecord {
  readonly activated: readonly { readonly uid: number; readonly reason: string }[];
  readonly state: { readonly messages: number; readonly effects: readonly string[] };
}

/** One message of the story as the player sees it. */
export interface StoryMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** The player character, for prompts (background only; the engine never acts on it). */
export type TurnPersona = Persona;

/** A character at a shared table: its key (an identifier: `players.<character>`, the `actor` input) and name. */
export interface TurnActor {
  readonly character: string;
  readonly name: string;
}

/**
 * A turn played at a shared table (docs/multiplayer.md): who acts (one character in free order, every
 * character of a round in the order their actions resolve) and who else is present. The Director and the
 * Narrator are told both; an event input named `actor` is the acting character's key; a `per_character`
 * domain is the acting character's own copy (party.ts).
 */
export interface TurnTable {
  readonly actors: readonly TurnActor[];
  readonly present: readonly TurnActor[];
  /** A whisper: the action is private to its player and the game master; the Narrator writes for them only. */
  readonly whisper?: boolean;
}

/** One metric of a mini-game result: a scalar, or a list of scalars (`selected_sequence`). */
export type MetricValue = string | number | boolean | readonly (string | number | boolean)[];

/** A mini-game's outcome sent by the client. */
export interface InteractionInput {
  readonly minigame_id: string;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly metrics?: Readonly<Record<string, MetricValue>>;
  readonly data?: Readonly<Record<string, unknown>>;
}

export type GameState = { readonly [key: string]: StateValue };

export interface TurnOptions {
  readonly cartridge: TurnCartridge;
  /** The state before the turn. Never mutated. */
  readonly state: GameState;
  /** The story so far (oldest first), without this turn's input. */
  readonly messages: readonly StoryMessage[];
  /** Exactly one of `input` (free text) and `interaction` (a mini-game result). */
  readonly input?: string;
  readonly interaction?: InteractionInput;
  /** Seeds the one dice generator of the turn (cycle ticks, tools, resolver, in that order). */
  readonly seed: number;
  /** `null`: offline (slash commands and keyword matching, narration rendered from notes). */
  readonly models: ModelSet | null;
  readonly limits?: Partial<TurnLimits>;
  readonly persona?: TurnPersona;
  /** A shared table's turn: who acts and who is present (absent: one player, as always). */
  readonly table?: TurnTable;
  readonly signal?: AbortSignal;
  /**
   * The world ledger before the turn: what the Director and Narrator see summarised, and what the
   * Narrator's `record_world_changes` batch is validated against. Default: the cartridge's starting world
   * (`initialWorld(cartridge)`).
   */
  readonly world?: World;
  /**
   * The ledger turn this turn's batch commits at: its stamps and engine fact ids (`f_<turn>_<index>`).
   * The session passes the turn's depth in the tree (the starting world is turn 0). Default 1.
   */
  readonly ledgerTurn?: number;
  /** How the Narrator proposes world changes (default `inline`); offline turns are always `off`. */
  readonly ledgerMode?: LedgerMode;
  /** Notes from the player's chat front end (system prompts it sent): shown to the Narrator as player context. */
  readonly playerContext?: string;
  /** The generation type World Info `triggers` see (default `normal`). */
  readonly worldInfoTrigger?: WorldInfoTrigger;
  /**
   * The narration fidelity check of model-written prose (turn/fidelity.ts): `repair` (default) asks the
   * Narrator once to fix a contradiction and corrects it itself if that fails; `correct` corrects at once;
   * `off` skips the check.
   */
  readonly narrationCheck?: 'repair' | 'correct' | 'off';
  /** Milliseconds clock for the record's timings and the turn's slices (default `performance.now`). */
  readonly now?: () => number;
  /**
   * Strict mode: an event that leaves an invariant of the cartridge broken refuses the turn (a `TurnError`
   * of kind `invariant`, nothing committed). Otherwise (default) each breach is kept in the record's
   * `invariants` and the turn goes on.
   */
  readonly strict?: boolean;
  /**
   * Milliseconds clock of the turn's compute budget and its rule time (`maxTurnMs`, `maxRuleMs`). Default:
   * the process's CPU time (`process.cpuUsage`), or `now` when only that is given (scripted clocks in tests).
   */
  readonly computeClock?: () => number;
  /**
   * Gives the event loop back for a moment: the turn calls it whenever it has computed for TURN_SLICE_MS
   * (default: a `setImmediate` turn of the loop, so other requests are served between two slices).
   */
  readonly yieldNow?: () => Promise<void>;
}

export type TurnPhase = 'cycle_tick' | 'interaction' | 'director' | 'time' | 'narrator' | 'ledger';

/**
 * How the Narrator proposes the turn's world changes:
 * - `inline`: the Narrator's own call offers `record_world_changes`; it writes its prose, then calls it;
 * - `separate`: the prose call has no tools; a short second call to the narrator model extracts the changes
 *   from the finished narration (for models that cannot write text and then call a tool);
 * - `off`: no proposals; the world only changes through the cartridge's starting world.
 */
export type LedgerMode = 'inline' | 'separate' | 'off';

/**
 * What became of the turn's world changes:
 * - `applied`: a batch (events and/or a time change) passed validation and is committed with the turn;
 * - `unledgered`: every attempt was rejected (first proposal and its repairs); the narration stands, the
 *   world does not change, and `errors` says why;
 * - `none`: the Narrator proposed no change;
 * - `off`: no proposal was asked for (offline, or `ledgerMode: 'off'`).
 */
export type LedgerStatus = 'applied' | 'unledgered' | 'none' | 'off';

/** Errors the turn layer adds to the ledger's own codes (about the tool call rather than its events). */
export type TurnLedgerErrorCode =
  /** The Narrator called a tool other than `record_world_changes`. */
  | 'LEDGER_UNKNOWN_TOOL'
  /** More than one tool call in one response (all of a turn's events go in one call). */
  | 'LEDGER_MULTIPLE_CALLS'
  /** A repair or extraction call answered without calling the tool. */
  | 'LEDGER_NO_CALL'
  /** The repair or extraction call itself failed (a provider error): the turn stays unledgered. */
  | 'LEDGER_MODEL_ERROR';

/** One problem with a proposal: the event's index in the batch (-1 for the call as a whole), a stable code. */
export interface LedgerIssue {
  readonly index: number;
  readonly code: LedgerErrorCode | TurnLedgerErrorCode;
  readonly field?: string;
  readonly message: string;
}

/** One proposal the model made this turn (the audit trail of every attempt, kept with the turn): what it sent and what was wrong. */
export interface LedgerAttempt {
  /** `narrator`: the prose call's own tool call; `extraction`: the separate call; `repair`: after a rejection. */
  readonly kind: 'narrator' | 'extraction' | 'repair';
  /** The calls as the model sent them; raw argument text cut at MAX_LEDGER_AUDIT_CHARS. */
  readonly calls: readonly { readonly name: string; readonly rawArgs: string }[];
  readonly ok: boolean;
  readonly errors: readonly LedgerIssue[];
}

/** The world ledger's part of a TurnRecord. */
export interface LedgerRecord {
  readonly status: LedgerStatus;
  /** The mode the turn ran in (`off` for offline turns). */
  readonly mode: LedgerMode;
  /** The ledger turn and story clock the batch was stamped with. */
  readonly turn: number;
  readonly gameTime?: string;
  /** The accepted `time` of the batch (already included in `TurnRecord.time`), or null. */
  readonly time: TimeChange | null;
  /** Repair calls made (at most MAX_LEDGER_REPAIRS). */
  readonly repairs: number;
  /** Why the turn is `unledgered`; empty otherwise (earlier rejected attempts are in `attempts`). */
  readonly errors: readonly LedgerIssue[];
  readonly attempts: readonly LedgerAttempt[];
  /** The world after the turn: the world before with the committed batch applied (or unchanged). */
  readonly worldAfter: World;
}

/** A ledger event in wire form (`event_type` beside its fields): what the store keeps and replays. */
export type WireLedgerEvent = Readonly<Record<string, unknown>>;

/** Everything `runTurn` streams, in order; a successful turn ends with exactly one `done`. */
export type TurnEvent =
  | { readonly type: 'phase'; readonly phase: TurnPhase }
  | {
      readonly type: 'tool_call';
      readonly round: number;
      readonly id: string;
      readonly name: string;
      readonly args: unknown;
    }
  | {
      readonly type: 'tool_result';
      readonly round: number;
      readonly id: string;
      readonly name: string;
      readonly ok: boolean;
      /** What the Director was sent back (the result or the error), as text. */
      readonly content: string;
    }
  | { readonly type: 'narration_delta'; readonly text: string }
  | { readonly type: 'error'; readonly kind: TurnErrorKind; readonly message: string }
  | { readonly type: 'done'; readonly record: TurnRecord };

export type TurnErrorKind =
  /** Bad turn options: both or neither of input/interaction, input too long, bad limits or seed. */
  | 'input'
  /** Free text while a mini-game is pending, or a mini-game result that does not match it. */
  | 'interaction'
  /** A model call failed (after the model layer's retries); `cause` is the `ModelError`. */
  | 'model'
  /** The caller's signal cancelled the turn. */
  | 'aborted'
  /**
   * The engine answered instead of playing: offline, a question about a missing input, what can be done
   * here, the command list, or a refused command; online, a Director whose answers were cut off or looped
   * twice (the player is asked to say it again). The message is for the player; nothing is committed.
   */
  | 'reply'
  /** Strict mode (`TurnOptions.strict`): an event left an invariant of the cartridge broken. */
  | 'invariant'
  /**
   * The cartridge made the turn too costly: a part of it (a World Info entry, the lore, an event, a prompt)
   * passed the turn's compute budget (`maxTurnSteps`, `maxTurnMs`). `part` names it; nothing is committed.
   */
  | 'budget';

/**
 * An invariant (`invariants:` in yare.yaml) that did not hold after one of the turn's events: which, why
 * (a false condition or one that could not be evaluated), where it is written, and which rule call left it so.
 */
export interface InvariantBreach {
  readonly invariant: string;
  readonly kind: 'false' | 'error';
  readonly code?: string;
  readonly message: string;
  readonly place: { readonly file: string; readonly line: number; readonly col: number };
  readonly event: string;
  readonly source: RuleCall['source'];
  /** The 1-based index in `ruleCalls` of the call after which it was checked. */
  readonly call: number;
}

/** One rule event the turn ran, in order: what replay needs to reproduce the state exactly. */
export interface RuleCall {
  /** `after_event`: a hook run after the player's event before it in the list (docs/yare.md). */
  readonly source: 'cycle_tick' | 'director' | 'offline' | 'resolver' | 'after_event';
  readonly event: string;
  readonly inputs: { readonly [key: string]: StateValue };
  readonly ok: boolean;
  readonly error?: { readonly code: string; readonly message: string };
  readonly notes: readonly string[];
  /** Rule steps the run executed (absent in records older than the step count): a replay stops a budget-stopped run here. */
  readonly steps?: number;
}

/** A value of a model's answer over its cap, as the record keeps it: which role, field, why, length, sha256. */
export type RefusedModelOutput = { readonly role: ModelRole } & RefusedOutput;

/** One tool call of the Director (or of the offline matcher) as it happened. */
export interface ToolTraceEntry {
  readonly round: number;
  readonly id: string;
  readonly name: string;
  /** Parsed arguments (`null` when the JSON was malformed). */
  readonly args: unknown;
  /** The raw argument text as the model wrote it; empty when the call was refused (see `refused`). */
  readonly rawArgs: string;
  /** Why the call was refused before running, with the raw arguments' length and sha256 (never the text). */
  readonly refused?: { readonly reason: string; readonly chars: number; readonly sha256: string };
  readonly ok: boolean;
  /** The text the Director got back. */
  readonly content: string;
  readonly durationMs: number;
  /** The call was written in the message text, not sent as a tool call (turn/text-calls.ts). */
  readonly fromText?: true;
}

export interface TimeRecord {
  /** `state.game_time` before and after ('' when absent). */
  readonly before: string;
  readonly after: string;
  readonly advancedSeconds: number;
  /** `engine`: the engine keeps `game_time`; `cartridge`: the schema declares it otherwise and it is left alone. */
  readonly mode: 'engine' | 'cartridge';
}

export interface PromptRecord {
  readonly role: ModelRole;
  /** 1-based Director round, NPC query number, or 1 for the Narrator. */
  readonly call: number;
  readonly sections: readonly SectionReport[];
  readonly tokens: number;
  readonly budget: number;
}

export type TurnInputRecord = (
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'interaction'; readonly interaction: InteractionInput; readonly text: string }
) & {
  /** A shared table's turn: who acted (replay binds their per-character state again) and whether it was a whisper. */
  readonly table?: { readonly actors: readonly TurnActor[]; readonly whisper?: true };
};

export interface TurnRecord {
  readonly version: 1;
  readonly cartridge: { readonly name: string; readonly contentHash: string };
  readonly mode: 'online' | 'offline';
  readonly input: TurnInputRecord;
  readonly seed: number;
  readonly narration: string;
  /** The Director's scene directives (or the engine's, for mini-game and offline turns). */
  readonly directives: string;
  readonly stateAfter: GameState;
  /** Changes from the state before to `stateAfter`, deletions included. */
  readonly delta: readonly StateChange[];
  /** Every note of the turn in order (cycle ticks, events, resolver). */
  readonly notes: readonly string[];
  readonly rolls: readonly RollRecord[];
  readonly ruleCalls: readonly RuleCall[];
  readonly time: TimeRecord;
  readonly tools: readonly ToolTraceEntry[];
  readonly prompts: readonly PromptRecord[];
  readonly usage: Readonly<Record<ModelRole, RoleUsage>>;
  /** Milliseconds per phase (only the phases that ran). */
  readonly timings: Readonly<Partial<Record<TurnPhase, number>>> & { readonly total: number };
  /** Model id per role that was called. */
  readonly models: Readonly<Partial<Record<ModelRole, string>>>;
  /**
   * Values of the models' answers that were over their caps (a model id, a tool-call id, a finish reason, a
   * token count), each replaced before it was kept; present only when there were any.
   */
  readonly refusedOutput?: readonly RefusedModelOutput[];
  /** Why the Director loop ended. */
  readonly directorStop: DirectorStop;
  /** Non-fatal problems (a cycle tick that failed, a section over budget, narration cut). */
  readonly warnings: readonly string[];
  /** The messages this turn adds to the story: the player's input and the narration. */
  readonly messages: readonly StoryMessage[];
  /** The world ledger: status, repairs, errors, the audit trail and the world after the turn. */
  readonly ledger: LedgerRecord;
  /** The committed batch in wire form, in order (empty unless `ledger.status` is `applied`). */
  readonly ledgerEvents: readonly WireLedgerEvent[];
  /**
   * World Info (cartridges with `world_info.json`): the entries that activated and the bookkeeping written to
   * `state._world_info`, so a replay without the story's messages gives the same state.
   */
  readonly worldInfo?: WorldInfoRecord;
  /** The narration fidelity check (turn/fidelity.ts): what the prose contradicted and how it was fixed. */
  readonly fidelity?: FidelityRecord;
  /** Invariants the turn's events left broken, in order (only when there were any). */
  readonly invariants?: readonly InvariantBreach[];
}

/** One statement of the prose that the turn's facts contradict. */
export interface Contradiction {
  /** `number`: a number next to a field name; `item`: an item said gained or lost; `death`: someone said dead. */
  readonly kind: 'number' | 'item' | 'death';
  /** The sentence, cut at MAX_FIDELITY_SENTENCE_CHARS. */
  readonly sentence: string;
  /** What the prose says, e.g. `12 gold`. */
  readonly said: string;
  /** What the turn record says, e.g. `gold is 15 (was 20)`. */
  readonly fact: string;
}

/**
 * The fidelity check of a model-written narration:
 * - `clean`: nothing contradicted the turn's facts;
 * - `repaired`: the one repair round's prose passed the check and replaced the first;
 * - `corrected`: the engine corrected the contradicting sentences itself (numbers replaced, others removed).
 */
export interface FidelityRecord {
  readonly outcome: 'clean' | 'repaired' | 'corrected';
  /** What the first prose contradicted (at most MAX_FIDELITY_FINDINGS). */
  readonly found: readonly Contradiction[];
  /** Sentences the engine changed (outcome `corrected`). */
  readonly corrected: number;
}

export type DirectorStop =
  /** The Director gave directives (text or `finish_turn`) and every call succeeded. */
  | 'directives'
  /** Every call succeeded and was a rule event (no directives): the Narrator works from the notes. */
  | 'events'
  /** The round limit was reached. */
  | 'round-limit'
  /** No Director ran: a mini-game turn, or offline. */
  | 'skipped';
