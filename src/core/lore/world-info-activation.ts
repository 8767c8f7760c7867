// World Info activation, as SillyTavern's `checkWorldInfo` does it: keys matched
// against the newest messages, secondary keys with the four selective logics, constant/sticky entries,
// cooldown and delay, recursion (with exclude/prevent/delay-until-recursion), inclusion groups (sticky
// first, optional scoring, override by order, else a weighted roll), probability, and the token budget.
// Pure: the caller gives the messages, the timed effects of its branch and a seed; the result says which
// entries activate, where they go, why each entry did or did not, and the timed effects to keep.
// Randomness (probability, group rolls) comes from the seed, so the same turn activates the same entries.

import { estimateTokens } from '../tokens.ts';
import {
  MAX_WI_RECURSION_STEPS,
  MAX_WI_REGEX_TESTS,
  MAX_WI_REGEX_TEXT_CHARS,
  MAX_WI_REGEX_WORK,
  MAX_WI_SCAN_CHARS,
  MAX_WI_SCAN_WORK,
  MAX_WI_TIMED_EFFECTS,
  MAX_WI_TOKEN_BUDGET,
} from './world-info-limits.ts';
import { type BudgetPart, runUnsliced, UNMETERED, type WorkMeter } from '../turn-budget.ts';
import { cachedRegexKey, type RegexKey, splitRegexKey } from './world-info-regex.ts';
import type { WorldInfoBook, WorldInfoEntry, WorldInfoRole } from './world-info-types.ts';

/** A generation type, as `triggers` name them. */
export type WorldInfoTrigger = 'normal' | 'continue' | 'swipe' | 'regenerate';

/** A sticky or cooldown effect: from message `start` until message `end` (chat lengths). */
export interface TimedEffect {
  readonly kind: 'sticky' | 'cooldown';
  readonly uid: number;
  readonly start: number;
  readonly end: number;
  /** A cooldown that began when a sticky ended: kept even if the chat has not moved on since. */
  readonly protected: boolean;
}

export interface ActivationInput {
  /** The story's messages, NEWEST FIRST, this turn's input included. */
  readonly messages: readonly string[];
  /** Messages in the chat so far, this turn's input included (what sticky/cooldown/delay count). */
  readonly chatLength: number;
  /** The timed effects of this branch before the turn. */
  readonly timed: readonly TimedEffect[];
  readonly seed: number;
  readonly trigger?: WorldInfoTrigger;
  /** Overrides the book's token budget. */
  readonly tokenBudget?: number;
}

export type DecisionStatus = 'activated' | 'skipped';

export interface EntryDecision {
  readonly uid: number;
  readonly comment: string;
  readonly status: DecisionStatus;
  /** Why: `key "dragon"`, `constant`, `sticky`, `on cooldown until message 9`, `probability roll 73 > 50`, … */
  readonly reason: string;
  /** The scan pass that decided (0 = first pass, 1.. = recursion). */
  readonly pass: number;
}

export interface ActivatedEntry {
  readonly entry: WorldInfoEntry;
  readonly reason: string;
  readonly pass: number;
}

export interface DepthInsertion {
  readonly depth: number;
  readonly role: WorldInfoRole;
  readonly content: string;
}

export interface ActivationResult {
  /** Activated entries, lowest `order` first (the order they are inserted in). */
  readonly activated: readonly ActivatedEntry[];
  /** Entries placed before the character's definitions, joined with a newline. */
  readonly before: string;
  /** Entries placed after the character (also Author's Note, example-message and outlet positions). */
  readonly after: string;
  /** @depth entries, grouped by depth and role (in that order). */
  readonly atDepth: readonly DepthInsertion[];
  /** One decision per entry that was considered, in book order. */
  readonly decisions: readonly EntryDecision[];
  /** The timed effects after this activation (what the branch keeps). */
  readonly timed: readonly TimedEffect[];
  readonly tokens: number;
  readonly budget: number;
  /** The budget ran out and some entries were left out. */
  readonly overflowed: boolean;
}

/** A uniform number in [0, 1) from the seed and some integers (no shared generator is touched). */
export function seededUnit(seed: number, ...parts: number[]): number {
  let h = (seed >>> 0) ^ Math.floor(seed / 2 ** 32) ^ 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

const PROBABILITY_ROLL = 1;
const GROUP_ROLL = 2;

/** ASCII `\w` (SillyTavern's whole-word test uses JavaScript's `\W`): letters, digits, underscore. */
function isWordCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

/** Whole-word search as SillyTavern's `(?:^|\W)key(?:$|\W)` (ASCII word characters), without a regex. */
function containsWholeWord(text: string, key: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at < 0) return false;
    const before = at === 0 ? 32 : text.charCodeAt(at - 1);
    const after = at + key.length >= text.length ? 32 : text.charCodeAt(at + key.length);
    if (!isWordCode(before) && !isWordCode(after)) return true;
    from = at + 1;
  }
}

/**
 * A key ready to match: how (regex, whole word by word set, whole word by search, substring) and the
 * needle in the case it is compared in. Compiled once per entry and book settings, not per scan.
 */
type CompiledKey =
  /** Compiled on its first test (tests per activation are bounded; compiling a big book's keys is not cheap). */
  | { readonly kind: 'regex'; readonly key: string; readonly memo: string; compiled?: RegexKey }
  | {
      readonly kind: 'word' | 'bounded' | 'substring';
      readonly key: string;
      readonly needle: string;
      readonly caseSensitive: boolean;
      /**
       * The key's results' name in a scan part's memo, made once: building it at every test allocated a
       * string per key, pass and piece of text (millions a turn with a big book, and the collector's pauses).
       */
      readonly memo: string;
    };

interface CompiledEntry {
  readonly settings: WorldInfoBook['settings'];
  readonly keys: readonly CompiledKey[];
  readonly secondaryKeys: readonly CompiledKey[];
}

const compiledEntries = new WeakMap<WorldInfoEntry, CompiledEntry>();

function compileKey(book: WorldInfoBook, entry: WorldInfoEntry, key: string): CompiledKey {
  if (splitRegexKey(key) !== undefined) return { kind: 'regex', key, memo: `r${key}` };
  const caseSensitive = entry.caseSensitive ?? book.settings.caseSensitive;
  const wholeWords = entry.matchWholeWords ?? book.settings.matchWholeWords;
  const needle = caseSensitive ? key : key.toLowerCase();
  const kind = !wholeWords || /\s/.test(needle) ? 'substring' : ASCII_WORD.test(needle) ? 'word' : 'bounded';
  const memo = `${kind === 'bounded' ? 'b' : 's'}${caseSensitive ? 'c' : 'i'}${needle}`;
  return { kind, key, needle, caseSensitive, memo };
}

function compiledOf(book: WorldInfoBook, entry: WorldInfoEntry): CompiledEntry {
  const known = compiledEntries.get(entry);
  if (known !== undefined && known.settings === book.settings) return known;
  const compiled = {
    settings: book.settings,
    keys: entry.keys.map((k) => compileKey(book, entry, k)),
    secondaryKeys: entry.secondaryKeys.map((k) => compileKey(book, entry, k)),
  };
  compiledEntries.set(entry, compiled);
  return compiled;
}

/**
 * One piece of the text an entry is scanned against: the newest messages (per scan depth), or what one
 * recursion pass added to the recursion buffer. A key's result on a piece is computed once per activation
 * (the pieces never change), so a recursion pass only scans what is new.
 */
interface ScanPart {
  readonly raw: string;
  readonly lower: string;
  readonly regexText: string;
  /** Results by kind and needle (`w`/`b`/`s` + case), and of regex keys by pattern. */
  readonly results: Map<string, boolean>;
  /** The text's maximal runs of ASCII word characters (as written / lower-cased), built on first use. */
  words?: Set<string>;
  lowerWords?: Set<string>;
}

/** Maximal runs of ASCII word characters: a key made only of them matches as a whole word iff it is one. */
function wordRuns(text: string): Set<string> {
  const out = new Set<string>();
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const word = i < text.length && isWordCode(text.charCodeAt(i));
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      out.add(text.slice(start, i));
      start = -1;
    }
  }
  return out;
}

const ASCII_WORD = /^[A-Za-z0-9_]+$/;

function scanPartOf(text: string): ScanPart {
  const raw = text.length <= MAX_WI_SCAN_CHARS ? text : text.slice(0, MAX_WI_SCAN_CHARS);
  return {
    raw,
    lower: raw.toLowerCase(),
    regexText: raw.slice(0, MAX_WI_REGEX_TEXT_CHARS),
    results: new Map(),
  };
}

/**
 * The newest `depth` messages joined by newlines, read only as far as the scan reads (MAX_WI_SCAN_CHARS):
 * a long history costs no more than a short one.
 */
function joinNewest(messages: readonly string[], depth: number): string {
  const taken: string[] = [];
  let chars = 0;
  for (let i = 0; i < Math.min(depth, messages.length) && chars < MAX_WI_SCAN_CHARS; i++) {
    taken.push(messages[i]!);
    chars += messages[i]!.length + 1;
  }
  return taken.join('\n');
}

/** Regex tests and work left in this activation (MAX_WI_REGEX_TESTS, MAX_WI_REGEX_WORK), shared by every key. */
interface RegexBudget {
  left: number;
  work: number;
  /** Characters plain-key searches may still read (MAX_WI_SCAN_WORK). */
  scan: number;
  /** Some test was not run for want of budget (the decisions say so). */
  exhausted: boolean;
}

function keyMatchesPart(key: CompiledKey, part: ScanPart, budget: RegexBudget): boolean {
  switch (key.kind) {
    case 'word': {
      // A set lookup: no memo needed.
      if (key.caseSensitive) {
        part.words ??= wordRuns(part.raw);
        return part.words.has(key.needle);
      }
      part.lowerWords ??= wordRuns(part.lower);
      return part.lowerWords.has(key.needle);
    }
    case 'regex':
      return regexKeyMatchesPart(key, part, budget);
    case 'bounded':
    case 'substring':
      return searchKeyMatchesPart(key, part, budget);
    default: {
      const unreachable: never = key;
      return unreachable;
    }
  }
}

/** A regex key's test, memoised per part, within the activation's regex tests and work. */
function regexKeyMatchesPart(
  key: Extract<CompiledKey, { kind: 'regex' }>,
  part: ScanPart,
  budget: RegexBudget,
): boolean {
  const memo = key.memo;
  const known = part.results.get(memo);
  if (known !== undefined) return known;
  // Not memoised when the budget, not the text, decided.
  if (budget.left <= 0) {
    budget.exhausted = true;
    return false;
  }
  key.compiled ??= cachedRegexKey(key.key);
  if (key.compiled.kind !== 'regex') return false; // refused (the import report says why)
  const cost = key.compiled.regex.size * Math.max(1, part.regexText.length);
  if (budget.work < cost) {
    budget.exhausted = true;
    return false;
  }
  budget.left--;
  budget.work -= cost;
  const result = key.compiled.regex.test(part.regexText);
  part.results.set(memo, result);
  return result;
}

/** A plain key's search (whole word or substring), memoised per part, within the activation's scan work. */
function searchKeyMatchesPart(
  key: Exclude<CompiledKey, { kind: 'regex' }>,
  part: ScanPart,
  budget: RegexBudget,
): boolean {
  const memo = key.memo;
  const known = part.results.get(memo);
  if (known !== undefined) return known;
  const haystack = key.caseSensitive ? part.raw : part.lower;
  if (budget.scan < haystack.length) {
    budget.exhausted = true;
    return false;
  }
  budget.scan -= haystack.length;
  const result =
    key.kind === 'bounded' ? containsWholeWord(haystack, key.needle) : haystack.includes(key.needle);
  part.results.set(memo, result);
  return result;
}

function keyMatches(key: CompiledKey, parts: readonly ScanPart[], budget: RegexBudget): boolean {
  for (const part of parts) if (keyMatchesPart(key, part, budget)) return true;
  return false;
}

interface Candidate {
  readonly entry: WorldInfoEntry;
  readonly reason: string;
  readonly sticky: boolean;
  readonly score: number;
}

/**
 * The keys that match, in order. A sliced loop: it yields between two keys when `meter` is due, so one entry
 * with many costly keys (regex keys, searches over long text) is several slices, not one.
 */
function* matchingKeys(
  keys: readonly CompiledKey[],
  text: readonly ScanPart[],
  budget: RegexBudget,
  meter: WorkMeter,
): Generator<undefined, string[], undefined> {
  const matched: string[] = [];
  for (const key of keys) {
    if (meter.due()) yield;
    if (keyMatches(key, text, budget)) matched.push(key.key);
  }
  return matched;
}

/** Primary and secondary keys: a reason when the entry matches, else undefined with `why` set. */
function* matchEntry(
  book: WorldInfoBook,
  entry: WorldInfoEntry,
  text: readonly ScanPart[],
  budget: RegexBudget,
  meter: WorkMeter,
): Generator<undefined, { ok: true; reason: string; score: number } | { ok: false; why: string }, undefined> {
  const compiled = compiledOf(book, entry);
  const primary = yield* matchingKeys(compiled.keys, text, budget, meter);
  if (primary.length === 0)
    return {
      ok: false,
      why: budget.exhausted
        ? 'no key matched before the scan budget ran out (MAX_WI_REGEX_TESTS, MAX_WI_REGEX_WORK, MAX_WI_SCAN_WORK)'
        : 'no key matched',
    };
  const reason = `key ${JSON.stringify(primary[0])}`;
  if (!entry.selective || entry.secondaryKeys.length === 0)
    return { ok: true, reason, score: primary.length };
  const secondary = yield* matchingKeys(compiled.secondaryKeys, text, budget, meter);
  const verdict = secondaryVerdict(entry, primary[0]!, secondary);
  if (!verdict.ok) return verdict;
  return { ok: true, reason: reason + verdict.reason, score: primary.length + verdict.score };
}

/** The selective logic's verdict on the secondary keys that matched: what it adds to the reason and score. */
function secondaryVerdict(
  entry: WorldInfoEntry,
  primary: string,
  secondary: readonly string[],
): { ok: true; reason: string; score: number } | { ok: false; why: string } {
  const all = secondary.length === entry.secondaryKeys.length;
  const any = secondary.length > 0;
  switch (entry.selectiveLogic) {
    case 'and_any':
      if (!any)
        return { ok: false, why: `key ${JSON.stringify(primary)} matched but no secondary key (AND ANY)` };
      return {
        ok: true,
        reason: ` and secondary ${JSON.stringify(secondary[0])} (AND ANY)`,
        score: secondary.length,
      };
    case 'and_all':
      if (!all)
        return {
          ok: false,
          why: `key ${JSON.stringify(primary)} matched but not every secondary key (AND ALL)`,
        };
      return { ok: true, reason: ' and every secondary key (AND ALL)', score: secondary.length };
    case 'not_any':
      if (any)
        return { ok: false, why: `secondary key ${JSON.stringify(secondary[0])} is present (NOT ANY)` };
      return { ok: true, reason: ' and no secondary key (NOT ANY)', score: 0 };
    case 'not_all':
      if (all) return { ok: false, why: 'every secondary key is present (NOT ALL)' };
      return { ok: true, reason: ' and not every secondary key (NOT ALL)', score: 0 };
    default: {
      const unreachable: never = entry.selectiveLogic;
      return unreachable;
    }
  }
}

/** Drops effects the chat has not reached or has passed; a sticky that ends starts its cooldown. */
export function advanceTimedEffects(
  book: WorldInfoBook,
  timed: readonly TimedEffect[],
  chatLength: number,
): TimedEffect[] {
  const byUid = new Map(book.entries.map((e) => [e.uid, e]));
  const kept: TimedEffect[] = [];
  const started: TimedEffect[] = [];
  for (const effect of timed) {
    const entry = byUid.get(effect.uid);
    if (entry === undefined) continue;
    // Not reached: the chat was rolled back past the activation (SillyTavern's swipe rule).
    if (chatLength <= effect.start && !effect.protected) continue;
    if (chatLength >= effect.end) {
      if (effect.kind === 'sticky' && entry.cooldown > 0) {
        started.push({
          kind: 'cooldown',
          uid: entry.uid,
          start: chatLength,
          end: chatLength + entry.cooldown,
          protected: true,
        });
      }
      continue;
    }
    kept.push(effect);
  }
  for (const effect of started) {
    const at = kept.findIndex((e) => e.kind === 'cooldown' && e.uid === effect.uid);
    if (at >= 0) kept.splice(at, 1);
    kept.push(effect);
  }
  return kept;
}

/**
 * Activates the book for one turn. With a meter, every entry considered charges its key tests to the turn's
 * budget (each entry's part named by its uid and comment).
 */
export function activateWorldInfo(
  book: WorldInfoBook,
  input: ActivationInput,
  meter: WorkMeter = UNMETERED,
): ActivationResult {
  return runUnsliced(activationSteps(book, input, meter));
}

/**
 * Activation as a sliced loop: it yields whenever `meter` says its slice is due, so a turn can give the event
 * loop back between entries (runSliced) and a book at the limits never holds the server for long.
 */
export function* activationSteps(
  book: WorldInfoBook,
  input: ActivationInput,
  meter: WorkMeter,
): Generator<undefined, ActivationResult, undefined> {
  const plan = activationPlan(book, input);
  const run = new ActivationRun(input.seed, plan.budget);
  let level = plan.levels.shift() ?? 0;
  for (let pass = 0; pass <= plan.maxSteps; pass++) {
    const candidates = yield* passCandidates(book, input, plan, run, { pass, level }, meter);
    // Sticky first, then book order.
    candidates.sort(
      (a, b) =>
        Number(b.sticky) - Number(a.sticky) || plan.rank.get(a.entry.uid)! - plan.rank.get(b.entry.uid)!,
    );
    const kept = filterGroups(book, candidates, run.groupsWon, input.seed, pass, (c, why) =>
      run.decide(c.entry, 'skipped', why, pass),
    );
    const fresh = run.admit(kept, pass);
    const feeding = fresh.filter((a) => !a.entry.preventRecursion && a.entry.content !== '');
    if (book.settings.recursive && !run.overflowed && feeding.length > 0 && pass < plan.maxSteps) {
      // Only what this pass added is new to scan; the buffer as a whole is bounded by the token budget.
      run.bufferParts.push(scanPartOf(feeding.map((a) => a.entry.content).join('\n')));
      continue;
    }
    if (plan.levels.length > 0 && !run.overflowed && pass < plan.maxSteps) {
      level = plan.levels.shift()!;
      continue;
    }
    break;
  }
  return run.result(book, plan.timed, input.chatLength);
}

/** What an activation knows before its first pass: the budget, the book's order, the timed effects, the levels. */
interface ActivationPlan {
  readonly trigger: WorldInfoTrigger;
  readonly budget: number;
  readonly sorted: readonly WorldInfoEntry[];
  readonly rank: ReadonlyMap<number, number>;
  readonly timed: TimedEffect[];
  readonly sticky: ReadonlySet<number>;
  readonly cooldownUntil: ReadonlyMap<number, number>;
  /** Delay-until-recursion levels still to open, lowest first. */
  readonly levels: number[];
  readonly maxSteps: number;
}

function activationPlan(book: WorldInfoBook, input: ActivationInput): ActivationPlan {
  const sorted = [...book.entries].sort((a, b) => b.order - a.order || a.uid - b.uid);
  const timed = advanceTimedEffects(book, input.timed, input.chatLength);
  return {
    trigger: input.trigger ?? 'normal',
    budget: Math.max(1, Math.min(input.tokenBudget ?? book.settings.tokenBudget, MAX_WI_TOKEN_BUDGET)),
    sorted,
    rank: new Map(sorted.map((e, i) => [e.uid, i])),
    timed,
    sticky: new Set(timed.filter((e) => e.kind === 'sticky').map((e) => e.uid)),
    cooldownUntil: new Map(timed.filter((e) => e.kind === 'cooldown').map((e) => [e.uid, e.end])),
    levels: [...new Set(book.entries.map((e) => e.delayUntilRecursion).filter((l) => l > 0))].sort(
      (a, b) => a - b,
    ),
    maxSteps: Math.min(book.settings.maxRecursionSteps || MAX_WI_RECURSION_STEPS, MAX_WI_RECURSION_STEPS),
  };
}

/** What one activation has decided, activated and spent so far (its passes share it). */
class ActivationRun {
  readonly decisions = new Map<number, EntryDecision>();
  readonly activated: ActivatedEntry[] = [];
  readonly activatedUids = new Set<number>();
  readonly failedProbability = new Set<number>();
  readonly groupsWon = new Set<string>();
  usedTokens = 0;
  overflowed = false;
  /** What recursion passes added to the text scanned, one part per pass. */
  readonly bufferParts: ScanPart[] = [];
  private readonly messageParts = new Map<number, ScanPart>();
  readonly regexBudget: RegexBudget = {
    left: MAX_WI_REGEX_TESTS,
    work: MAX_WI_REGEX_WORK,
    scan: MAX_WI_SCAN_WORK,
    exhausted: false,
  };

  constructor(
    private readonly seed: number,
    readonly budget: number,
  ) {}

  decide(entry: WorldInfoEntry, status: DecisionStatus, reason: string, pass: number): void {
    this.decisions.set(entry.uid, { uid: entry.uid, comment: entry.comment, status, reason, pass });
  }

  /** The newest `depth` messages as a scan part, made once per depth. */
  messagesPart(messages: readonly string[], depth: number): ScanPart {
    let part = this.messageParts.get(depth);
    if (part === undefined) {
      part = scanPartOf(joinNewest(messages, depth));
      this.messageParts.set(depth, part);
    }
    return part;
  }

  /** Kept candidates take their place in the budget (and roll their probability) in order. */
  admit(kept: readonly Candidate[], pass: number): ActivatedEntry[] {
    const fresh: ActivatedEntry[] = [];
    for (const candidate of kept) {
      const { entry } = candidate;
      const refused = this.refusal(candidate);
      if (refused !== undefined) {
        this.decide(entry, 'skipped', refused, pass);
        continue;
      }
      this.usedTokens += estimateTokens(entry.content);
      this.activatedUids.add(entry.uid);
      const done = { entry, reason: candidate.reason, pass };
      this.activated.push(done);
      fresh.push(done);
      this.decide(entry, 'activated', candidate.reason, pass);
    }
    return fresh;
  }

  private refusal({ entry, sticky: isSticky }: Candidate): string | undefined {
    if (this.overflowed && !entry.ignoreBudget) return `token budget (${this.budget}) already used up`;
    if (entry.useProbability && entry.probability < 100 && !isSticky) {
      const roll = Math.floor(seededUnit(this.seed, PROBABILITY_ROLL, entry.uid) * 100) + 1;
      if (roll > entry.probability) {
        this.failedProbability.add(entry.uid);
        return `probability roll ${roll} > ${entry.probability}`;
      }
    }
    const tokens = estimateTokens(entry.content);
    if (!entry.ignoreBudget && this.usedTokens + tokens > this.budget) {
      this.overflowed = true;
      return `token budget: ${this.usedTokens} + ${tokens} > ${this.budget}`;
    }
    return undefined;
  }

  result(book: WorldInfoBook, timed: TimedEffect[], chatLength: number): ActivationResult {
    const { activated, decisions } = this;
    const inOrder = [...activated].sort((a, b) => a.entry.order - b.entry.order || a.entry.uid - b.entry.uid);
    return {
      activated: inOrder,
      ...placed(inOrder),
      decisions: book.entries.filter((e) => decisions.has(e.uid)).map((e) => decisions.get(e.uid)!),
      timed: recordTimedEffects(timed, activated, chatLength),
      tokens: this.usedTokens,
      budget: this.budget,
      overflowed: this.overflowed,
    };
  }
}

/** One pass's candidates, in book order: each entry not yet activated is skipped, kept outright, or matched. */
function* passCandidates(
  book: WorldInfoBook,
  input: ActivationInput,
  plan: ActivationPlan,
  run: ActivationRun,
  at: { pass: number; level: number },
  meter: WorkMeter,
): Generator<undefined, Candidate[], undefined> {
  const candidates: Candidate[] = [];
  for (const entry of plan.sorted) {
    if (run.activatedUids.has(entry.uid) || run.failedProbability.has(entry.uid)) continue;
    // One step for the entry and one for each key it may test (the test is memoised, the step is not).
    meter.spend(
      worldInfoPart(entry),
      1 + entry.keys.length + (entry.selective ? entry.secondaryKeys.length : 0),
    );
    if (meter.due()) yield;
    const decided = yield* candidateOf(book, input, plan, run, entry, at, meter);
    if (typeof decided === 'string') run.decide(entry, 'skipped', decided, at.pass);
    else candidates.push(decided);
  }
  return candidates;
}

/** The budget part an entry's work is charged to. */
function worldInfoPart(entry: WorldInfoEntry): BudgetPart {
  return { kind: 'world-info', uid: entry.uid, comment: entry.comment };
}

/** The entry as a candidate of this pass, or why it is skipped. */
function* candidateOf(
  book: WorldInfoBook,
  input: ActivationInput,
  plan: ActivationPlan,
  run: ActivationRun,
  entry: WorldInfoEntry,
  { pass, level }: { pass: number; level: number },
  meter: WorkMeter,
): Generator<undefined, Candidate | string, undefined> {
  const recursion = pass > 0;
  const isSticky = plan.sticky.has(entry.uid);
  const skipped = skipReason(
    entry,
    { trigger: plan.trigger, chatLength: input.chatLength, isSticky, recursion, level },
    { cooling: plan.cooldownUntil.get(entry.uid), recursive: book.settings.recursive },
  );
  if (skipped !== undefined) return skipped;
  if (entry.forceActivate || entry.constant || isSticky) {
    const reason = entry.forceActivate ? '@@activate' : entry.constant ? 'constant' : 'sticky';
    return { entry, reason, sticky: isSticky, score: entry.keys.length };
  }
  if (entry.keys.length === 0) return 'no keys';
  const depth = entry.scanDepth ?? book.settings.scanDepth;
  const text = [run.messagesPart(input.messages, depth), ...run.bufferParts];
  const matched = yield* matchEntry(book, entry, text, run.regexBudget, meter);
  // The time its tests took is this entry's (a costly regex key is named, not the entry after it).
  meter.spend(worldInfoPart(entry), 0);
  if (!matched.ok) return matched.why;
  const reason = recursion ? `${matched.reason} (recursion)` : matched.reason;
  return { entry, reason, sticky: false, score: matched.score };
}

/** Why an entry is not even a candidate on this pass (the ladder SillyTavern checks, in its order), if it is not. */
function skipReason(
  entry: WorldInfoEntry,
  now: {
    trigger: NonNullable<ActivationInput['trigger']>;
    chatLength: number;
    isSticky: boolean;
    recursion: boolean;
    level: number;
  },
  about: { cooling: number | undefined; recursive: boolean },
): string | undefined {
  const { trigger, chatLength, isSticky, recursion, level } = now;
  if (entry.disable) return 'disabled';
  if (entry.triggers.length > 0 && !entry.triggers.includes(trigger))
    return `only for ${entry.triggers.join(', ')} (this is ${trigger})`;
  if (entry.delay > 0 && chatLength < entry.delay)
    return `delayed until message ${entry.delay} (chat has ${chatLength})`;
  if (about.cooling !== undefined && !isSticky) return `on cooldown until message ${about.cooling}`;
  if (entry.delayUntilRecursion > 0 && !isSticky && (!recursion || level < entry.delayUntilRecursion))
    return `delayed until recursion level ${entry.delayUntilRecursion}`;
  if (recursion && about.recursive && entry.excludeRecursion && !isSticky) return 'excluded from recursion';
  if (entry.forceSkip) return '@@dont_activate';
  return undefined;
}

/** The activated entries' text by where it goes: before and after the character, and at depths by role. */
function placed(inOrder: readonly ActivatedEntry[]): Pick<ActivationResult, 'before' | 'after' | 'atDepth'> {
  const join = (list: readonly ActivatedEntry[]) =>
    list
      .map((a) => a.entry.content)
      .filter((t) => t.trim() !== '')
      .join('\n');
  const before = join(inOrder.filter((a) => a.entry.position === 'before_char'));
  const after = join(
    inOrder.filter((a) => a.entry.position !== 'before_char' && a.entry.position !== 'at_depth'),
  );
  const depthGroups = new Map<string, DepthInsertion>();
  for (const a of inOrder) {
    if (a.entry.position !== 'at_depth' || a.entry.content.trim() === '') continue;
    const key = `${a.entry.depth}:${a.entry.role}`;
    const existing = depthGroups.get(key);
    depthGroups.set(key, {
      depth: a.entry.depth,
      role: a.entry.role,
      content: existing === undefined ? a.entry.content : `${existing.content}\n${a.entry.content}`,
    });
  }
  const roleOrder: WorldInfoRole[] = ['system', 'user', 'assistant'];
  const atDepth = [...depthGroups.values()].sort(
    (a, b) => a.depth - b.depth || roleOrder.indexOf(a.role) - roleOrder.indexOf(b.role),
  );
  return { before, after, atDepth };
}

/** Sticky and cooldown start when an entry activates (an effect already running is not restarted). */
function recordTimedEffects(
  timed: TimedEffect[],
  activated: readonly ActivatedEntry[],
  chatLength: number,
): TimedEffect[] {
  const out = [...timed];
  const has = (kind: TimedEffect['kind'], uid: number) => out.some((e) => e.kind === kind && e.uid === uid);
  for (const { entry } of activated) {
    if (entry.sticky > 0 && !has('sticky', entry.uid))
      out.push({
        kind: 'sticky',
        uid: entry.uid,
        start: chatLength,
        end: chatLength + entry.sticky,
        protected: false,
      });
    if (entry.cooldown > 0 && !has('cooldown', entry.uid))
      out.push({
        kind: 'cooldown',
        uid: entry.uid,
        start: chatLength,
        end: chatLength + entry.cooldown,
        protected: false,
      });
  }
  return out.length > MAX_WI_TIMED_EFFECTS ? out.slice(out.length - MAX_WI_TIMED_EFFECTS) : out;
}

/** Inclusion groups (SillyTavern's `filterByInclusionGroups`): one winner per group and scan. */
function filterGroups(
  book: WorldInfoBook,
  candidates: readonly Candidate[],
  groupsWon: Set<string>,
  seed: number,
  pass: number,
  lose: (c: Candidate, why: string) => void,
): Candidate[] {
  const removed = new Set<number>();
  const drop: DropCandidates = (list, why) => {
    for (const c of list) {
      removed.add(c.entry.uid);
      lose(c, why);
    }
  };
  const groupNames = [...new Set(candidates.flatMap((c) => c.entry.groups))];
  for (const group of groupNames) {
    const members = candidates.filter((c) => c.entry.groups.includes(group) && !removed.has(c.entry.uid));
    if (members.length === 0) continue;
    if (groupsWon.has(group)) {
      drop(members, `group "${group}" already has an entry from an earlier pass`);
      continue;
    }
    const left = narrowGroup(book, group, members, drop);
    groupsWon.add(group);
    if (left.length > 1) pickGroupWinner(group, left, hashText(group), { seed, pass }, drop);
  }
  return candidates.filter((c) => !removed.has(c.entry.uid));
}

/** Takes candidates out of the scan, saying why. */
type DropCandidates = (list: readonly Candidate[], why: string) => void;

/** A group's members once a sticky member and (with scoring) the best match score have had their say. */
function narrowGroup(
  book: WorldInfoBook,
  group: string,
  members: readonly Candidate[],
  drop: DropCandidates,
): readonly Candidate[] {
  let left = members;
  if (left.some((c) => c.sticky)) {
    drop(
      left.filter((c) => !c.sticky),
      `group "${group}": a sticky member wins`,
    );
    left = left.filter((c) => c.sticky);
  }
  const scoring = left.some((c) => c.entry.useGroupScoring ?? book.settings.groupScoring);
  if (scoring && left.length > 1) {
    const best = Math.max(...left.map((c) => c.score));
    const low = left.filter((c) => (c.entry.useGroupScoring ?? book.settings.groupScoring) && c.score < best);
    drop(low, `group "${group}": lower match score than ${best}`);
    left = left.filter((c) => !low.includes(c));
  }
  return left;
}

/** One winner among several members: the highest-order override, else a weighted roll from the seed. */
function pickGroupWinner(
  group: string,
  members: readonly Candidate[],
  groupHash: number,
  { seed, pass }: { seed: number; pass: number },
  drop: DropCandidates,
): void {
  const overrides = members.filter((c) => c.entry.groupOverride);
  if (overrides.length > 0) {
    const winner = [...overrides].sort(
      (a, b) => b.entry.order - a.entry.order || a.entry.uid - b.entry.uid,
    )[0]!;
    drop(
      members.filter((c) => c !== winner),
      `group "${group}": ${JSON.stringify(winner.entry.comment || `entry ${winner.entry.uid}`)} has priority`,
    );
    return;
  }
  const total = members.reduce((sum, c) => sum + Math.max(0, c.entry.groupWeight), 0);
  let roll = seededUnit(seed, GROUP_ROLL, pass, groupHash) * total;
  let winner = members[members.length - 1]!;
  for (const c of members) {
    roll -= Math.max(0, c.entry.groupWeight);
    if (roll < 0) {
      winner = c;
      break;
    }
  }
  drop(
    members.filter((c) => c !== winner),
    `group "${group}": lost the weighted roll`,
  );
}

function hashText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h | 0;
}
