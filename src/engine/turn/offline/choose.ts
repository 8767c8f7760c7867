// Offline play (no model configured). The Director is replaced by a deterministic matcher: a slash
// command (`/travel destination="brine market"`, `/cast_spell flare`) names an event directly; otherwise
// the player's words are weighed as evidence for each public event and for the free actions every
// cartridge gets (look around, examine, inventory, where can I go, wait; free.ts): an intent phrase
// said in full, or the event's verb (its name's first word, an intent's first word, or a synonym), is
// strong evidence; other words of its name, intents and description, and an input value named, are weak.
// An event that costs something (it writes the state: gold, HP, time, items, place) runs only on strong
// evidence; on weak evidence, or when two costly events are equally likely, the player is asked one
// question with the likely choices. A chosen event is first tried on a copy of the state: when its
// conditions refuse it here ("There is nothing to fight"), the rules' reason is the answer and no turn is
// spent. A question, a refusal, a free action that changes nothing, the list of what can be done and /help
// spend no turn. The Narrator is replaced by narration.ts. Same words, same state ⇒ same choice.
// docs/turn.md ("Offline mode") and docs/play.md describe it for players and authors.

import type { ImpliedIntent, IntentInputs, Persona } from '../../../core/cartridge/index.ts';
import type { World } from '../../../core/ledger/index.ts';
import {
  type CompiledRules,
  type Dict,
  type EventDef,
  GAME_TIME_KEY,
  type InputSpec,
  publicEvents,
  toStateValue,
  type Value,
} from '../../../core/yare/index.ts';
import { attemptAnswer } from './attempt.ts';
import { type AvailableAction, availableAction, availableActions, costlyEvent, tryEvent } from './actions.ts';
import { isActorInput, withPlayerAsActor } from './actor.ts';
import { onceNotice, quantityInput, saidQuantity, wasteWarning } from './amounts.ts';
import {
  answerFreeAction,
  FREE_ACTIONS,
  type FreeActionKind,
  foundNothing,
  type FreeActionSpec,
  freeActionHelp,
  PRONOUN_LOOKBACK,
  saidWaitLength,
  voiceOf,
  waitDuration,
} from './free.ts';
import { narrateOffline } from './narration.ts';
import type { KnownEntry } from './known.ts';
import { type NoteAct, noteActs } from './note-acts.ts';
import { type OptionDeed, optionDeeds } from './option-deeds.ts';
import { foeWords, loreKindWords, spelledAsLore, travelEvent } from './place.ts';
import { asksAbout, asRequest } from './request.ts';
import {
  allWords,
  saidWords,
  contentWords,
  isKindOfVerb,
  isKnownVerb,
  isNameVerb,
  isNoun,
  isPhrasalVerb,
  normalize,
  proseList,
  STOP_WORDS,
  sameVerb,
  verbMatch,
  wordsMatch,
} from './words.ts';
import type { NoTurnReason } from '../no-turn.ts';
import { ADVANCE_GAME_TIME, type DirectorToolSet, ENGINE_TOOL_NAMES } from '../tools.ts';

export type OfflineChoice =
  /** Run this tool (a rule event or `advance_game_time`) with these arguments. */
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly how: 'command' | 'match';
      /** What the player is told before the event's own story ("You asked for 2; … once now."). */
      readonly notice?: string;
    }
  /** Nothing to run; tell the player this and spend no turn (OfflineReplyReason says why). */
  | {
      readonly kind: 'reply';
      readonly reason: OfflineReplyReason;
      readonly text: string;
      /** The free action answered (`reason: 'free'`); `try`, a deed no event does (attempt.ts). */
      readonly action?: FreeActionKind | 'try';
    };

/** The matcher's replies: every reason but `invalid` (a command the rules reject, told by run-turn.ts). */
export type OfflineReplyReason = Exclude<NoTurnReason, 'invalid'>;

/**
 * What the matcher knows beyond the rules: the state, `intents.yaml`, the lore, the world, the persona, and
 * for looking and talking the opening and the World Info entries (known.ts).
 */
export interface OfflineContext {
  readonly state?: Dict;
  readonly intentInputs?: IntentInputs;
  readonly lore?: string;
  readonly world?: World;
  readonly persona?: Persona;
  readonly opening?: string;
  readonly entries?: readonly KnownEntry[];
  /** The player's previous line, for "again" ("attack it again" needs none: its verb says it). */
  readonly previous?: string;
  /** The story so far, oldest first: whom "her", "him" and "them" mean (free.ts, personMeant). */
  readonly story?: readonly { readonly role: string; readonly content: string }[];
  /** The turn's seed: talk is worded by it, the same in a replay. */
  readonly seed?: number;
}

/**
 * Whether the rules do anything with time: a `game_time` field of their own (what time it is shows and
 * can matter), or events that run every turn (`trigger_on: cycle_tick`). Without either, waiting only
 * moves a clock nothing reads, so it is told from the scene instead of spending a turn.
 */
function keepsTime(rules: CompiledRules): boolean {
  // The engine's own clock field is known to the checker but not in the initial state (core/yare/schema.ts).
  if (Object.hasOwn(rules.initialState, GAME_TIME_KEY)) return true;
  for (const event of rules.events.values()) if (event.triggerOn === 'cycle_tick') return true;
  return false;
}

/** A line that asks for the previous one again. */
const AGAIN = /^\s*(?:and\s+)?(?:again|once more|repeat|same again|do (?:it|that) again)[\s.!]*$/i;

/** Score an event must reach to be considered at all. */
export const MIN_MATCH_SCORE = 3;
/** Weak evidence for a costly event: below this the words match nothing; at it or above, a question. */
export const MIN_ASK_SCORE = 4;
const PHRASE_SCORE = 10;
const VERB_SCORE = 6;
const PHRASE_VERB_SCORE = 5;
const OPTION_SCORE = 4;
/** A verb the lexicon only says is a kind of the event's verb ("walk" for "travel"): not enough alone. */
const KIND_VERB_SCORE = 2;
const NAME_WORD_SCORE = 2;
const MAX_NAME_SCORE = 4;
const MAX_INTENT_SCORE = 3;
const MAX_DESCRIPTION_SCORE = 2;
/** Likely events named in a question. */
const MAX_CHOICES_ASKED = 3;
/** Words of the player's text weighed (the rest is ignored: a matcher's work is bounded by it). */
export const MAX_MATCH_WORDS = 64;

/** The absent `intents.yaml` entry: one array, so the per-event cache below has one key for it. */
const NO_IMPLIED: readonly ImpliedIntent[] = [];

function impliedOf(context: OfflineContext | undefined, event: string): readonly ImpliedIntent[] {
  const all = context?.intentInputs;
  return all !== undefined && Object.hasOwn(all, event) ? (all[event] ?? NO_IMPLIED) : NO_IMPLIED;
}

function enumOptions(spec: InputSpec): string[] {
  return (spec.enum ?? []).map((v) => toStateValue(v)).filter((v): v is string => typeof v === 'string');
}

/** What a candidate is matched on, normalised once. */
interface CandidateWords {
  /** Phrases as word lists (stop words kept). */
  readonly phrases: readonly (readonly string[])[];
  /** Verbs that name it: its name's first word (a free action's own verbs) … */
  readonly verbs: readonly string[];
  /** … and its phrases' first words, a little weaker (an author's phrase may start with any verb). */
  readonly phraseVerbs: readonly string[];
  readonly nameWords: readonly string[];
  readonly intentWords: readonly string[];
  readonly descriptionWords: readonly string[];
  /** Its inputs' enum options as word lists. */
  readonly options: readonly (readonly string[])[];
  /** What its notes say the player does ("rents a room"; note-acts.ts). */
  readonly acts: readonly NoteAct[];
  /** What its descriptions say each input value does ("flare burns the foe"; option-deeds.ts). */
  readonly deeds: readonly OptionDeed[];
  /** Verbs matched plainly only, never through the lexicon (the free actions: their verbs are broad). */
  readonly plainOnly?: boolean;
  /** The verbs that come from intent phrases only (not the name): "eat" of "eat a meal". */
  readonly intentVerbs?: ReadonlySet<string>;
}

type Candidate =
  | {
      readonly kind: 'event';
      readonly event: EventDef;
      readonly words: CandidateWords;
      readonly costly: boolean;
    }
  | {
      readonly kind: 'free';
      readonly free: FreeActionSpec;
      readonly words: CandidateWords;
      readonly costly: boolean;
    };

function candidateName(c: Candidate): string {
  return c.kind === 'event' ? c.event.name : c.free.kind;
}

const wordsOfEvents = new WeakMap<EventDef, WeakMap<readonly ImpliedIntent[], CandidateWords>>();

function firstVerb(words: readonly string[]): string | undefined {
  const first = words.find((w) => !STOP_WORDS.has(w));
  return first !== undefined && (words[0] === first || isKnownVerb(first)) ? first : undefined;
}

function eventWords(
  rules: CompiledRules,
  event: EventDef,
  implied: readonly ImpliedIntent[],
): CandidateWords {
  let byImplied = wordsOfEvents.get(event);
  if (byImplied === undefined) {
    byImplied = new WeakMap();
    wordsOfEvents.set(event, byImplied);
  }
  let words = byImplied.get(implied);
  if (words === undefined) {
    const phraseTexts = [...event.intents, ...implied.map((i) => i.phrase)];
    const phrases = phraseTexts.map(allWords).filter((p) => p.length > 0);
    const name = event.name.split('_').filter((w) => w.length > 1);
    const verb = name[0] !== undefined && !STOP_WORDS.has(name[0]) ? name[0] : undefined;
    const verbs = new Set<string>(verb === undefined ? [] : [verb]);
    // The event that moves the player is going somewhere, whatever its name ("sail_to": "go to saltmarsh").
    if (travelEvent(rules) === event.name) verbs.add('go');
    // Other words of the name that read as verbs ("strike" in combat_strike, "heal" in cast_heal).
    const phraseVerbs = new Set<string>(name.slice(1).filter((w) => !STOP_WORDS.has(w) && isNameVerb(w)));
    const intentVerbs = new Set<string>();
    for (const p of phrases) {
      const v = firstVerb(p);
      if (v !== undefined && !verbs.has(v) && !phraseVerbs.has(v)) intentVerbs.add(v);
    }
    for (const v of intentVerbs) phraseVerbs.add(v);
    words = {
      phrases,
      verbs: [...verbs],
      phraseVerbs: [...phraseVerbs],
      nameWords: name.filter((w) => w !== verb && !phraseVerbs.has(w) && !STOP_WORDS.has(w)),
      intentWords: [...new Set(phraseTexts.flatMap(contentWords))].filter(
        (w) => !verbs.has(w) && !phraseVerbs.has(w),
      ),
      descriptionWords: contentWords(event.description).filter((w) => w.length >= 4),
      options: event.inputList.flatMap((spec) => enumOptions(spec).map(allWords)).filter((o) => o.length > 0),
      acts: noteActs(event),
      deeds: optionDeeds(event),
      intentVerbs,
    };
    byImplied.set(implied, words);
  }
  return words;
}

const FREE_WORDS = new Map<FreeActionKind, CandidateWords>(
  FREE_ACTIONS.map((a) => [
    a.kind,
    {
      phrases: a.phrases.map(allWords),
      verbs: a.verbs,
      phraseVerbs: [],
      nameWords: [],
      intentWords: [],
      descriptionWords: [],
      options: [],
      acts: [],
      deeds: [],
      plainOnly: true,
    },
  ]),
);

function candidatesOf(
  rules: CompiledRules,
  tools: DirectorToolSet,
  context: OfflineContext | undefined,
): Candidate[] {
  const out: Candidate[] = [];
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name)) continue;
    out.push({
      kind: 'event',
      event,
      words: eventWords(rules, event, impliedOf(context, event.name)),
      costly: costlyEvent(rules, event),
    });
  }
  for (const free of FREE_ACTIONS) {
    // Waiting costs a turn only where the rules keep time; elsewhere it is told from the scene (free.ts).
    const costly = free.kind === 'wait' && tools.byName.has(ADVANCE_GAME_TIME) && keepsTime(rules);
    out.push({ kind: 'free', free, words: FREE_WORDS.get(free.kind)!, costly });
  }
  return out;
}

/** The player's words, normalised once; `taken` marks words inside a named input value ("tallow rest"). */
interface SaidText {
  readonly words: readonly string[];
  readonly taken: readonly boolean[];
  /** Two neighbouring words the lexicon knows as one verb ("run_away", "patch_up"). */
  readonly phrasal: readonly string[];
  /** Whether a word said names a foe (the one in front of the player, or one the lore lists; place.ts). */
  readonly foeSaid: boolean;
}

function spanAt(words: readonly string[], phrase: readonly string[], start: number): boolean {
  for (let k = 0; k < phrase.length; k++) if (!wordsMatch(words[start + k]!, phrase[k]!)) return false;
  return true;
}

function saidText(text: string, candidates: readonly Candidate[], foes: readonly string[] = []): SaidText {
  const words = saidWords(text).slice(0, MAX_MATCH_WORDS);
  const taken = words.map(() => false);
  for (const c of candidates)
    for (const option of c.words.options)
      for (let start = 0; start + option.length <= words.length; start++)
        if (option.every((w, k) => words[start + k] === w))
          for (let k = 0; k < option.length; k++) taken[start + k] = true;
  const phrasal: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const pair = `${words[i]}_${words[i + 1]}`;
    if (!taken[i] && !taken[i + 1] && isPhrasalVerb(pair)) phrasal.push(pair);
  }
  const foeSaid = words.some(
    (word, i) => !taken[i] && !STOP_WORDS.has(word) && foes.some((f) => wordsMatch(word, f)),
  );
  return { words, taken, phrasal, foeSaid };
}

export interface Evidence {
  readonly score: number;
  /** A phrase said in full, or the candidate's verb: enough to run something that costs. */
  readonly strong: boolean;
  /** The said words taken as its verb (none for a phrase said in full alone). */
  readonly verbWords: ReadonlySet<string>;
}

interface VerbEvidence {
  readonly score: number;
  readonly strong: boolean;
  /** The verb said is only an intent phrase's ("eat" of "eat a meal"), not the event's own. */
  readonly fromIntent?: boolean;
  /** Strong only with another word of the event said too (a verb the lexicon alone relates). */
  readonly needsSupport: boolean;
  readonly used: ReadonlySet<string>;
}

const NO_VERB: VerbEvidence = { score: 0, strong: false, needsSupport: false, used: new Set() };

/** The first said word naming one of `verbs` as well as `level` asks ('plain', or the lexicon's 'same'). */
function saidVerb(content: readonly string[], verbs: readonly string[], level: 'plain' | 'same') {
  return content.find((word) => verbs.some((v) => verbMatch(word, v) === level));
}

/**
 * A two-word verb said ("run away", "patch up") that names the action of one of `verbs` in the lexicon:
 * specific enough to count as the verb itself.
 */
function saidPhrasalVerb(phrasal: readonly string[], verbs: readonly string[]): string | undefined {
  return phrasal.find((p) => verbs.some((v) => verbMatch(p, v) === 'same' || verbMatch(p, v) === 'kind'));
}

/** How much the verbs said weigh for a candidate: its own verb, a phrase's or the name's, or a note's act. */
function verbEvidence(
  w: CandidateWords,
  content: readonly string[],
  phrasal: readonly string[],
  foeSaid: boolean,
): VerbEvidence {
  if (w.plainOnly === true) {
    const plain = saidVerb(content, w.verbs, 'plain');
    if (plain === undefined) return NO_VERB;
    return { score: VERB_SCORE, strong: true, needsSupport: false, used: new Set([plain]) };
  }
  const twoWords = saidPhrasalVerb(phrasal, [...w.verbs, ...w.phraseVerbs]);
  if (twoWords !== undefined)
    return {
      score: PHRASE_VERB_SCORE,
      strong: true,
      needsSupport: false,
      used: new Set(twoWords.split('_')),
    };
  for (const level of ['plain', 'same'] as const) {
    const needsSupport = level === 'same';
    const main = saidVerb(content, w.verbs, level);
    if (main !== undefined) return { score: VERB_SCORE, strong: true, needsSupport, used: new Set([main]) };
    const other = saidVerb(content, w.phraseVerbs, level);
    if (other !== undefined) {
      const fromIntent =
        w.phraseVerbs.some((v) => w.intentVerbs?.has(v) === true && verbMatch(other, v) === level) &&
        !w.phraseVerbs.some((v) => w.intentVerbs?.has(v) !== true && verbMatch(other, v) === level);
      return { score: PHRASE_VERB_SCORE, strong: true, needsSupport, fromIntent, used: new Set([other]) };
    }
  }
  for (const act of w.acts) {
    const object =
      act.object === undefined ? undefined : content.find((word) => wordsMatch(word, act.object!));
    for (const word of content) {
      const match = verbMatch(word, act.verb);
      // A note's verb said with its object ("pay for a room"), or a kind of it with its object ("get a
      // room" for "rents a room"); an act with no object needs the verb itself ("I pray").
      if (act.object === undefined ? match === 'plain' : match !== undefined && object !== undefined)
        return { score: PHRASE_VERB_SCORE, strong: true, needsSupport: false, used: new Set([word]) };
    }
  }
  // A kind of the event's own verb done to a foe ("charge the goblin" for an attack): as plain a request
  // as the verb itself, since a foe is what that verb is done to; elsewhere ("charge a fee") too weak.
  const nameVerbs = [...w.verbs, ...w.phraseVerbs.filter((v) => w.intentVerbs?.has(v) !== true)];
  const foeKind = foeSaid ? content.find((word) => nameVerbs.some((v) => isKindOfVerb(word, v))) : undefined;
  if (foeKind !== undefined)
    return { score: VERB_SCORE, strong: true, needsSupport: false, used: new Set([foeKind]) };
  const kinds = [...w.verbs, ...w.phraseVerbs, ...w.acts.map((a) => a.verb)];
  const kind = content.find((word) => kinds.some((v) => verbMatch(word, v) === 'kind'));
  if (kind !== undefined)
    return { score: KIND_VERB_SCORE, strong: false, needsSupport: false, used: new Set([kind]) };
  return NO_VERB;
}

/** The nouns said that none of the candidate's words name ("stew" for rest_at_inn). */
function otherThings(w: CandidateWords, content: readonly string[]): string[] {
  const own = [
    ...w.nameWords,
    ...w.intentWords,
    ...w.descriptionWords,
    ...w.options.flat(),
    ...w.acts.flatMap((a) => (a.object === undefined ? [] : [a.object])),
  ];
  return content.filter((word) => isNoun(word) && !isNameVerb(word) && !own.some((o) => wordsMatch(word, o)));
}

/**
 * A value said with a verb the cartridge says that value does ("burn it with flare": "flare burns the
 * foe"): the verb said, as plain a request as the event's own verb; undefined when none is.
 */
function saidDeed(w: CandidateWords, words: readonly string[], content: readonly string[]) {
  for (const deed of w.deeds) {
    let named = false;
    for (let start = 0; !named && start + deed.option.length <= words.length; start++)
      named = deed.option.every((x, k) => words[start + k] === x);
    if (!named) continue;
    const verb = content.find(
      (word) => !deed.option.includes(word) && deed.verbs.some((v) => wordsMatch(word, v)),
    );
    if (verb !== undefined) return verb;
  }
  return undefined;
}

/** How much the words say for a candidate. */
function evidenceFor(c: Candidate, said: SaidText): Evidence {
  const { words, taken } = said;
  const w = c.words;
  let phrase = 0;
  for (const p of w.phrases) {
    if (p.length > words.length) continue;
    for (let start = 0; start + p.length <= words.length; start++) {
      if (!spanAt(words, p, start)) continue;
      // A one-word phrase inside a named value ("rest" in "tallow rest") is the value, not the phrase.
      if (p.length === 1 && taken[start]) continue;
      phrase = Math.max(phrase, PHRASE_SCORE + p.length);
      break;
    }
  }
  const allContent = words.filter((word, i) => !taken[i] && !STOP_WORDS.has(word) && word.length >= 2);
  const deed = saidDeed(w, words, allContent);
  const verb: VerbEvidence =
    deed === undefined
      ? verbEvidence(w, allContent, said.phrasal, said.foeSaid)
      : { score: PHRASE_VERB_SCORE, strong: true, needsSupport: false, used: new Set([deed]) };
  // The verb's word counts once: not again as a word of the name, intents or description.
  const content = allContent.filter((word) => !verb.used.has(word));
  const option = w.options.some((o) => {
    for (let start = 0; start + o.length <= words.length; start++)
      if (o.every((x, k) => words[start + k] === x)) return true;
    return false;
  });
  const count = (list: readonly string[]) =>
    new Set(list.filter((x) => content.some((word) => wordsMatch(word, x)))).size;
  const actObjects = w.acts.flatMap((a) => (a.object === undefined ? [] : [a.object]));
  const support =
    (option ? OPTION_SCORE : 0) +
    Math.min(MAX_NAME_SCORE, NAME_WORD_SCORE * count(w.nameWords)) +
    Math.min(MAX_INTENT_SCORE, count([...w.intentWords, ...actObjects])) +
    Math.min(MAX_DESCRIPTION_SCORE, count(w.descriptionWords));
  // An intent phrase's verb said of something else ("eat" the stew, for "eat a meal") is no request.
  const elsewhere = verb.fromIntent === true && otherThings(w, content).length > 0 && support === 0;
  const verbStrong = verb.strong && (!verb.needsSupport || support > 0) && !elsewhere;
  const verbScore = verb.strong && !verbStrong ? KIND_VERB_SCORE : verb.score;
  return { score: phrase + verbScore + support, strong: phrase > 0 || verbStrong, verbWords: verb.used };
}

interface Ranked {
  readonly candidate: Candidate;
  readonly evidence: Evidence;
}

/** Candidates at MIN_MATCH_SCORE or more, best first (ties: events in declaration order, then free actions). */
function ranked(candidates: readonly Candidate[], said: SaidText): Ranked[] {
  return candidates
    .map((candidate) => ({ candidate, evidence: evidenceFor(candidate, said) }))
    .filter((r) => r.evidence.score >= MIN_MATCH_SCORE)
    .sort(
      (a, b) => b.evidence.score - a.evidence.score || Number(b.evidence.strong) - Number(a.evidence.strong),
    );
}

export function matchEvent(
  rules: CompiledRules,
  text: string,
  context?: OfflineContext,
): EventDef | undefined {
  const candidates = candidatesOf(rules, { byName: new Map() } as unknown as DirectorToolSet, context).filter(
    (c) => c.kind === 'event',
  );
  const best = ranked(candidates, saidText(text, candidates))[0]?.candidate;
  return best?.kind === 'event' ? best.event : undefined;
}

/**
 * The enum option the text names: the longest option written out in full, else the one option sharing
 * the most words with the text ("the market" → "brine market"), when that one is unambiguous, else the
 * one option the lore says is a thing the text names ("the inn" → "tallow rest": "The inn at the …").
 */
function namedOption(options: readonly string[], text: string, lore?: string): string | undefined {
  const padded = ` ${normalize(text)} `;
  const full = options
    .filter((o) => padded.includes(` ${normalize(o)} `))
    .sort((a, b) => b.length - a.length)[0];
  if (full !== undefined) return full;
  const said = contentWords(text);
  const overlap = options.map(
    (o) => contentWords(o).filter((w) => said.some((s) => wordsMatch(s, w))).length,
  );
  const best = Math.max(0, ...overlap);
  if (best > 0)
    return overlap.filter((n) => n === best).length === 1 ? options[overlap.indexOf(best)] : undefined;
  if (lore === undefined || lore === '') return undefined;
  const ofKind = options.filter((o) =>
    loreKindWords(lore, o).some((k) => said.some((w) => wordsMatch(w, k))),
  );
  return ofKind.length === 1 ? ofKind[0] : undefined;
}

/** Words of a free-text value taken from the line ("fireball" from "cast fireball at the goblin"). */
const MAX_FREE_VALUE_WORDS = 3;

/**
 * A value for a text input with no enum and no default, from the words the player said that are not the
 * event's own: "cast fireball at the goblin" gives `spell_name` "fireball". The first run of words that
 * are neither stop words, the event's verbs or name, nor mostly verbs; undefined when there is none.
 */
function freeTextValue(
  rules: CompiledRules,
  event: EventDef,
  text: string,
  context: OfflineContext | undefined,
): string | undefined {
  const own = eventWords(rules, event, impliedOf(context, event.name));
  const ownWords = [...own.verbs, ...own.phraseVerbs, ...own.nameWords];
  const isOwn = (word: string) => ownWords.some((w) => wordsMatch(word, w) || sameVerb(word, w));
  const words = allWords(text).slice(0, MAX_MATCH_WORDS);
  const out: string[] = [];
  for (const word of words) {
    const skip = STOP_WORDS.has(word) || word.length < 2 || isOwn(word) || isNameVerb(word);
    if (skip && out.length > 0) break;
    if (!skip) out.push(word);
    if (out.length >= MAX_FREE_VALUE_WORDS) break;
  }
  return out.length === 0 ? undefined : out.join(' ');
}

/** The longest implied phrase said in full, if any. */
function saidPhrase(implied: readonly ImpliedIntent[], text: string): ImpliedIntent | undefined {
  const words = allWords(text).slice(0, MAX_MATCH_WORDS);
  let best: ImpliedIntent | undefined;
  let bestLength = 0;
  for (const intent of implied) {
    const p = allWords(intent.phrase);
    if (p.length === 0 || p.length <= bestLength) continue;
    for (let start = 0; start + p.length <= words.length; start++)
      if (spanAt(words, p, start)) {
        best = intent;
        bestLength = p.length;
        break;
      }
  }
  return best;
}

/**
 * Inputs for a matched event: enum values named in the text, else what the phrase said implies
 * (`intents.yaml`), else defaults.
 */
function inputsFromText(
  rules: CompiledRules,
  event: EventDef,
  text: string,
  context: OfflineContext | undefined,
): { args: Record<string, unknown> } | { missing: InputSpec } {
  const args: Record<string, unknown> = Object.create(null);
  const implied = saidPhrase(impliedOf(context, event.name), text);
  const quantity = saidQuantity(text);
  const counted = quantityInput(event);
  for (const spec of event.inputList) {
    const named = namedOption(enumOptions(spec), text, context?.lore);
    if (named !== undefined) args[spec.name] = named;
    else if (spec === counted && quantity !== undefined) args[spec.name] = quantity;
    else if (implied !== undefined && Object.hasOwn(implied.inputs, spec.name))
      args[spec.name] = implied.inputs[spec.name];
    else if (!spec.hasDefault && spec.type !== undefined && !isActorInput(spec)) {
      const value =
        spec.type === 'string' && spec.enum === undefined
          ? freeTextValue(rules, event, text, context)
          : undefined;
      if (value === undefined) return { missing: spec };
      args[spec.name] = value;
    }
  }
  return { args: withPlayerAsActor(rules, event.inputList, args) };
}

/** A value as a command takes it: quoted when it has a space (`destination="brine market"`). */
export function commandValue(value: string): string {
  return /\s/.test(value) ? `"${value}"` : value;
}

/** One question about the one missing input, with its values and the command that answers it. */
export function questionFor(event: EventDef, spec: InputSpec, state?: Dict, rules?: CompiledRules): string {
  let options = (spec.enum ?? []).map((v) => String(toStateValue(v)));
  if (state !== undefined && rules !== undefined) {
    // The values the rules accept here first (travel: not where the player already is).
    const working = availableAction(rules, state, event);
    if (working?.input === spec.name && working.values.length > 0) options = [...working.values];
  }
  const what = spec.name.replaceAll('_', ' ');
  const ask = options.length > 0 ? `Which ${what}: ${proseList(options, 'or')}?` : `What ${what}?`;
  const example = options.length > 0 ? `${spec.name}=${commandValue(options[0]!)}` : `${spec.name}=…`;
  return `${ask} (Say it with the action, or type /${event.name} ${example}.)`;
}

function choiceLabel(c: Candidate): string {
  return c.kind === 'event' ? c.event.name.replaceAll('_', ' ') : c.free.summary.split(':')[0]!;
}

function choiceCommand(c: Candidate): string {
  return c.kind === 'event' ? `/${c.event.name}` : c.free.command.split(' ')[0]!;
}

/** "Do you mean rest at inn, or travel? (Type /rest_at_inn or /travel.)" — one line, no turn spent. */
function whichQuestion(choices: readonly Candidate[]): string {
  const labels = choices.map(choiceLabel);
  const ask = labels.length === 1 ? `Do you mean ${labels[0]}?` : `Do you mean ${proseList(labels, 'or')}?`;
  return `${ask} (Say it plainly, or type ${proseList(choices.map(choiceCommand), 'or')}.)`;
}

function describeAction(action: AvailableAction): string {
  const name = action.event.replaceAll('_', ' ');
  return action.values.length === 0 ? `- ${name}` : `- ${name}: ${proseList(action.values, 'or')}`;
}

/** The reply to words that match nothing: what can be done here, when the state is known. */
export function unmatchedReply(
  rules: CompiledRules,
  text: string,
  state: Dict | undefined,
  hasClock = false,
): string {
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  const lines = [`“${shown.trim()}” is not something the rules can do here.`];
  const actions = state === undefined ? [] : availableActions(rules, state);
  if (actions.length > 0) lines.push('What you can do here:', ...actions.map(describeAction));
  lines.push(
    `Always: ${freeActionHelp(hasClock)
      .map((h) => h.split(' — ')[0])
      .join(', ')}.`,
  );
  lines.push('Say one in your own words, or type /help for every command.');
  return lines.join('\n');
}

function freeAnswer(
  rules: CompiledRules,
  tools: DirectorToolSet,
  kind: FreeActionKind,
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice {
  const state = context?.state ?? (rules.initialState as Dict);
  const travel = travelEvent(rules);
  const travelDef = travel === undefined ? undefined : rules.events.get(travel);
  const exits = travelDef === undefined ? [] : (availableAction(rules, state, travelDef)?.values ?? []);
  const answer = answerFreeAction(
    kind,
    {
      rules,
      state,
      lore: context?.lore ?? '',
      world: context?.world,
      who: voiceOf(context?.persona),
      exits,
      known: { opening: context?.opening, entries: context?.entries },
      previous: context?.previous,
      recent: context?.story?.slice(-PRONOUN_LOOKBACK).map((m) => m.content),
      seed: context?.seed,
    },
    text,
  );
  void tools;
  return { kind: 'reply', reason: 'free', text: answer, action: kind };
}

/** A chosen event: its inputs, then a try on a copy of the state (a refusal spends no turn). */
function eventChoice(
  rules: CompiledRules,
  event: EventDef,
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice {
  const inputs = inputsFromText(rules, event, text, context);
  if ('missing' in inputs)
    return {
      kind: 'reply',
      reason: 'question',
      text: questionFor(event, inputs.missing, context?.state, rules),
    };
  if (context?.state !== undefined) {
    const tried = tryEvent(rules, context.state, event, inputs.args as Record<string, Value>);
    if (tried.kind === 'acts') {
      const waste = wasteWarning(rules, context.state, event, inputs.args as Record<string, Value>);
      if (waste !== undefined) return { kind: 'reply', reason: 'question', text: waste };
    }
    if (tried.kind === 'refused') {
      const told = narrateOffline(rules, {
        notes: tried.notes,
        privateSpans: tried.privateSpans,
        persona: context.persona,
        lore: context.lore,
      });
      return { kind: 'reply', reason: 'refused', text: told };
    }
  }
  const notice = onceNotice(event, saidQuantity(text));
  return { kind: 'call', name: event.name, args: inputs.args, how: 'match', ...(notice ? { notice } : {}) };
}

/** A place of the travel event the words name ("the teeth", "the inn"), if the rules move the player. */
interface NamedPlace {
  readonly event: EventDef;
  readonly input: string;
  readonly place: string;
}

function placeNamed(rules: CompiledRules, words: string, lore: string | undefined): NamedPlace | undefined {
  const travel = travelEvent(rules);
  const event = travel === undefined ? undefined : rules.events.get(travel);
  for (const spec of event?.inputList ?? []) {
    const place = namedOption(enumOptions(spec), words, lore);
    if (place !== undefined) return { event: event!, input: spec.name, place };
  }
  return undefined;
}

/**
 * Words that only name a place one can go to from here ("the inn"): asked whether that is where to go,
 * with the command that goes there; undefined when they name none, or one not reachable from here.
 */
function placeQuestion(rules: CompiledRules, text: string, context: OfflineContext | undefined) {
  const named = placeNamed(rules, text, context?.lore);
  if (named === undefined || context?.state === undefined) return undefined;
  if (availableAction(rules, context.state, named.event)?.values.includes(named.place) !== true)
    return undefined;
  const shown = spelledAsLore(context.lore ?? '', named.place);
  const command = `/${named.event.name} ${named.input}=${commandValue(named.place)}`;
  return `Do you mean to go to ${shown}? (Say it plainly, or type ${command}.)`;
}

/**
 * A journey chosen because what was asked is refused here ("head back to the inn to sleep" far from the
 * inn): it says the rest waits for the player's arrival.
 */
function withWayThere(rules: CompiledRules, call: OfflineChoice, refusedVerbs: ReadonlySet<string>) {
  if (call.kind !== 'call' || call.name !== travelEvent(rules) || refusedVerbs.size === 0) return call;
  const asked = [...refusedVerbs].join(' ');
  return { ...call, notice: `(First the way there; say “${asked}” again when you arrive.)` };
}

const QUESTION_WORDS = new Set([
  'what',
  'where',
  'which',
  'who',
  'how',
  'whats',
  'wheres',
  'does',
  'is',
  'are',
]);

/** Whether the text asks a question about the world ("what places can I go to?"). */
function asksAboutTheWorld(text: string): boolean {
  const words = allWords(text);
  const first = words[0];
  return first !== undefined && (QUESTION_WORDS.has(first) || (first === 'tell' && words[1] === 'me'));
}

/**
 * A deed of the player's own verb done to what one costly event is about, the event's verbs unsaid ("kick
 * the gate" for pick_gate_lock): answered without a turn (attempt.ts); undefined for anything else, and for
 * words with no verb of their own ("the brine market", asked about instead).
 */
function attemptChoice(
  rules: CompiledRules,
  tools: DirectorToolSet,
  candidate: Candidate,
  evidence: Evidence,
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice | undefined {
  if (candidate.kind !== 'event' || evidence.strong || evidence.verbWords.size > 0) return undefined;
  const w = candidate.words;
  const own = [...w.nameWords, ...w.intentWords, ...w.descriptionWords, ...w.options.flat()];
  const deed = contentWords(text).find((word) => isNameVerb(word) && !own.some((o) => wordsMatch(word, o)));
  if (deed === undefined) return undefined;
  const examined = freeAnswer(rules, tools, 'examine', text, context);
  const known = examined.kind === 'reply' && !foundNothing(examined.text) ? examined.text : undefined;
  return { kind: 'reply', reason: 'free', action: 'try', text: attemptAnswer(candidate.event, known) };
}

/** The choice for free text: ranked evidence, a question where it is weak for something costly. */
function chooseFromWords(
  rules: CompiledRules,
  tools: DirectorToolSet,
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice {
  // "ask her about the chapel": talk, whatever event the subject names ("the chapel", "the password").
  if (asksAbout(text)) return freeAnswer(rules, tools, 'talk', text, context);
  const candidates = candidatesOf(rules, tools, context);
  // Matched as a request when it asks for a thing; answered in the player's own words.
  const isPlace = (words: string) => placeNamed(rules, words, context?.lore) !== undefined;
  const foes = foeWords(rules, context?.state, context?.lore);
  const list = ranked(candidates, saidText(asRequest(text, isPlace), candidates, foes));
  const top = list[0];
  const place = top === undefined ? placeQuestion(rules, text, context) : undefined;
  if (place !== undefined) return { kind: 'reply', reason: 'question', text: place };
  if (top === undefined)
    return {
      kind: 'reply',
      reason: 'unmatched',
      text: unmatchedReply(rules, text, context?.state, tools.byName.has(ADVANCE_GAME_TIME)),
    };
  const { candidate, evidence } = top;
  if (candidate.costly) {
    const held = costlyHeld(rules, tools, list, text, context);
    if (held !== undefined) return held;
  }
  if (candidate.kind === 'free') {
    // A wait lets game time pass where the rules keep time, or when the player says how long.
    const timed =
      candidate.costly || (tools.byName.has(ADVANCE_GAME_TIME) && saidWaitLength(text) !== undefined);
    if (candidate.free.kind === 'wait' && timed)
      return { kind: 'call', name: ADVANCE_GAME_TIME, args: { duration: waitDuration(text) }, how: 'match' };
    return freeAnswer(rules, tools, candidate.free.kind, text, context);
  }
  const chosen = eventChoice(rules, candidate.event, text, context);
  // "What does flare burn?", "does flare burn the wisp?": a question names the event, it does not ask for it.
  if (chosen.kind === 'call' && candidate.costly && asksAboutTheWorld(text))
    return freeAnswer(rules, tools, 'examine', text, context);
  if (chosen.kind !== 'reply' || chosen.reason !== 'refused') return chosen;
  return otherThanRefused(rules, list, text, context) ?? chosen;
}

/**
 * The rules refuse the likeliest here ("There is nothing to fight"): another event the words name plainly
 * that can act here is what was meant ("head out to the reedmaze and look for a fight"); else undefined.
 */
function otherThanRefused(
  rules: CompiledRules,
  list: readonly Ranked[],
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice | undefined {
  const { evidence } = list[0]!;
  for (const next of list.slice(1, 1 + MAX_CHOICES_ASKED)) {
    if (next.candidate.kind !== 'event' || !next.evidence.strong || next.evidence.verbWords.size === 0)
      continue;
    // Named by another verb of the line, not the refused one's ("pay in ember" is no copper payment).
    if ([...next.evidence.verbWords].some((v) => evidence.verbWords.has(v))) continue;
    const other = eventChoice(rules, next.candidate.event, text, context);
    if (other.kind === 'call') return withWayThere(rules, other, evidence.verbWords);
  }
  return undefined;
}

/**
 * What holds back a costly likeliest candidate, if anything: a question about the world answered freely
 * ("what places can I go to?", "what does the lullaby do?"), too little evidence (the list of what can be
 * done), a deed no event does (attempt.ts), or one question when the evidence is weak or two costly
 * events are equally likely. Undefined when it may run.
 */
function costlyHeld(
  rules: CompiledRules,
  tools: DirectorToolSet,
  list: readonly Ranked[],
  text: string,
  context: OfflineContext | undefined,
): OfflineChoice | undefined {
  const top = list[0]!;
  const { candidate, evidence } = top;
  if (asksAboutTheWorld(text)) {
    // "What places can I go to?", "Where is the market?": a question about the world, not an action.
    const free = list.find((r) => r.candidate.kind === 'free' && !r.candidate.costly && r.evidence.strong);
    if (free !== undefined && free.candidate.kind === 'free' && free.candidate.free.kind !== 'wait')
      return freeAnswer(rules, tools, free.candidate.free.kind, text, context);
    // "What does the lullaby do?": words that only touch an event, asked about, are told what is known
    // (when nothing is, they are asked about as any other words: "are there rooms free?").
    const told = evidence.strong ? undefined : freeAnswer(rules, tools, 'examine', text, context);
    if (told?.kind === 'reply' && !foundNothing(told.text)) return told;
  }
  const rivals = list.filter(
    (r) =>
      r !== top &&
      r.candidate.costly &&
      r.evidence.strong === evidence.strong &&
      r.evidence.score === evidence.score &&
      candidateName(r.candidate) !== candidateName(candidate),
  );
  if (!evidence.strong && evidence.score < MIN_ASK_SCORE)
    return {
      kind: 'reply',
      reason: 'unmatched',
      text: unmatchedReply(rules, text, context?.state, tools.byName.has(ADVANCE_GAME_TIME)),
    };
  const attempt =
    rivals.length === 0 ? attemptChoice(rules, tools, candidate, evidence, text, context) : undefined;
  if (attempt !== undefined) return attempt;
  if (!evidence.strong || rivals.length > 0) {
    const likely = [top, ...rivals, ...list.filter((r) => r !== top && !rivals.includes(r))]
      .slice(0, MAX_CHOICES_ASKED)
      .map((r) => r.candidate);
    return { kind: 'reply', reason: 'question', text: whichQuestion(likely) };
  }
  return undefined;
}

const COMMAND = /^\/([A-Za-z_][A-Za-z0-9_]*)(?:\s+([\s\S]*))?$/;
const KEY = /(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g;

/**
 * A typed word as an input's type wants it (`3` → 3 for an int, `true` → true for a bool, JSON for lists,
 * dicts and untyped inputs, else the text). The rules check the value again; this only spares quoting.
 */
export function coerceTypedWord(raw: string, type: string | undefined): unknown {
  switch (type) {
    case 'int':
    case 'float':
      return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'list':
    case 'dict':
    case undefined:
      return jsonOrText(raw);
    default:
      return raw;
  }
}

/** The value of a JSON text, or the text itself when it is not JSON. */
export function jsonOrText(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function unquoted(raw: string): string {
  const text = raw.trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.at(-1) === text[0])
    return text.slice(1, -1);
  return text;
}

/**
 * `key=value` pairs; a value runs to the next `name=` of an input the event takes, so a value of several
 * words needs no quotes (`/travel destination=brine market`). Quotes are still accepted.
 */
function commandPairs(rest: string, names: ReadonlySet<string>): [string, string][] {
  const keys = [...rest.matchAll(KEY)].filter((m) => names.has(m[1]!) || names.size === 0);
  const out: [string, string][] = [];
  keys.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < keys.length ? keys[i + 1]!.index! : rest.length;
    out.push([m[1]!, unquoted(rest.slice(start, end))]);
  });
  if (out.length === 0 && names.size > 0) {
    // Keys the event does not take: still parsed, so the rules name the unknown argument.
    for (const m of rest.matchAll(KEY)) {
      const start = m.index! + m[0].length;
      const next = rest.slice(start).search(/\s[A-Za-z_][A-Za-z0-9_]*=/);
      out.push([m[1]!, unquoted(next < 0 ? rest.slice(start) : rest.slice(start, start + next))]);
    }
  }
  return out;
}

/** The free action a command names (`/look`, `/examine hook`, `/inventory`, `/exits`), if any. */
function freeCommand(name: string): Exclude<FreeActionKind, 'wait'> | undefined {
  switch (name) {
    case 'look':
    case 'l':
      return 'look';
    case 'examine':
    case 'x':
    case 'inspect':
      return 'examine';
    case 'talk':
    case 'ask':
      return 'talk';
    case 'inventory':
    case 'inv':
    case 'i':
      return 'inventory';
    case 'exits':
    case 'go':
      return 'exits';
    default:
      return undefined;
  }
}

function parseCommand(
  rules: CompiledRules,
  tools: DirectorToolSet,
  name: string,
  rest: string,
  context: OfflineContext | undefined,
): OfflineChoice {
  if (name === 'help') return { kind: 'reply', reason: 'help', text: helpText(rules, tools) };
  const target = name === 'wait' ? ADVANCE_GAME_TIME : name;
  const tool = tools.byName.get(target);
  if (tool === undefined || (tool.kind !== 'event' && tool.kind !== 'advance_game_time')) {
    const free = freeCommand(name);
    if (free !== undefined) return freeAnswer(rules, tools, free, `${name} ${rest}`, context);
    return {
      kind: 'reply',
      reason: 'unknown',
      text:
        name === 'wait'
          ? 'This game keeps no clock, so there is no time to let pass.'
          : `There is no command /${name}. Type /help for the list.`,
    };
  }
  const event = tool.kind === 'event' ? rules.events.get(target) : undefined;
  const types = new Map<string, string | undefined>(
    event ? [...event.inputs.values()].map((s) => [s.name, s.type]) : [['duration', 'string']],
  );
  const args: Record<string, unknown> = Object.create(null);
  const pairs = commandPairs(rest, new Set(types.keys()));
  if (pairs.length === 0 && rest.trim() !== '' && types.size === 1) {
    // `/cast_spell flare`, `/wait 15m`, `/travel brine market`: a bare value for the only input.
    const [only] = [...types.entries()];
    args[only![0]] = coerceTypedWord(unquoted(rest), only![1]);
  } else {
    for (const [key, value] of pairs) args[key] = coerceTypedWord(value, types.get(key));
  }
  if (event !== undefined) withPlayerAsActor(rules, event.inputList, args);
  return { kind: 'call', name: target, args, how: 'command' };
}

export function chooseOffline(
  rules: CompiledRules,
  tools: DirectorToolSet,
  text: string,
  context?: OfflineContext,
): OfflineChoice {
  const previous = context?.previous;
  // "again": the previous line, chosen again in this state (never itself an "again": no loop).
  if (AGAIN.test(text) && previous !== undefined && !AGAIN.test(previous))
    return chooseOffline(rules, tools, previous, { ...context, previous: undefined });
  const command = COMMAND.exec(text.trim());
  if (command) return parseCommand(rules, tools, command[1]!, command[2] ?? '', context);
  const chosen = chooseFromWords(rules, tools, text, context);
  if (chosen.kind === 'reply' && chosen.reason !== 'question' && chosen.reason !== 'unmatched') return chosen;
  const before = againWithPrevious(rules, tools, text, context);
  if (before === undefined) return chosen;
  // What this line says itself wins ("buy 3 again"); the rest is the previous line's.
  return chosen.kind === 'call' ? { ...chosen, args: { ...before.args, ...chosen.args } } : before;
}

/** "again" said inside a line ("cast it again"), not as the whole of it. */
const AGAIN_WORD = /\b(?:again|once more)\b/i;

/**
 * "cast it again" after "cast fireball", "buy them again" after "buy 2 crates", "burn it again" after
 * "cast flare": the line names the event (or what the value chosen before does) but not all it needs, and
 * says "again": the previous line's choice (chosen in this state) when it is that same event with what it
 * needed; else undefined.
 */
function againWithPrevious(
  rules: CompiledRules,
  tools: DirectorToolSet,
  text: string,
  context: OfflineContext | undefined,
): Extract<OfflineChoice, { kind: 'call' }> | undefined {
  const previous = context?.previous;
  if (previous === undefined || !AGAIN_WORD.test(text) || AGAIN_WORD.test(previous)) return undefined;
  const before = chooseFromWords(rules, tools, previous, { ...context, previous: undefined });
  if (before.kind !== 'call') return undefined;
  const now = matchEvent(rules, text, context);
  if (now?.name === before.name) return before;
  // "burn it again" after "cast flare": the verb the cartridge says the value chosen before does.
  const event = rules.events.get(before.name);
  const values = new Set(Object.values(before.args).map((v) => normalize(String(v))));
  const said = contentWords(text);
  const deed = (event === undefined ? [] : optionDeeds(event)).find(
    (d) => values.has(d.option.join(' ')) && said.some((w) => d.verbs.some((v) => wordsMatch(w, v))),
  );
  return deed === undefined ? undefined : before;
}

/** The command for one event with its inputs, as it can be typed (`/travel destination="brine market"`). */
export function offlineCommandSyntax(event: EventDef): string {
  const inputs = [...event.inputs.values()]
    .map((s) => {
      if (!s.enum) return `${s.name}=…`;
      const values = s.enum.map((v) => String(toStateValue(v)));
      return `${s.name}=${values.length > 0 ? commandValue(values[0]!) : '…'}`;
    })
    .join(' ');
  return `/${event.name}${inputs ? ` ${inputs}` : ''}`;
}

export function helpText(rules: CompiledRules, tools: DirectorToolSet): string {
  const lines = ['Commands (offline mode):'];
  for (const tool of tools.byName.values()) {
    if (tool.kind !== 'event') continue;
    const event = rules.events.get(tool.spec.name);
    if (event === undefined) continue;
    const choices = [...event.inputs.values()]
      .filter((s) => s.enum !== undefined && s.enum.length > 1)
      .map(
        (s) =>
          `${s.name.replaceAll('_', ' ')}: ${proseList(
            s.enum!.map((v) => String(toStateValue(v))),
            'or',
          )}`,
      );
    const description = event.description.trim();
    lines.push(
      `${offlineCommandSyntax(event)}${description ? ` — ${description}` : ''}${choices.length ? ` (${choices.join('; ')})` : ''}`,
    );
  }
  lines.push('Always available:');
  lines.push(...freeActionHelp(tools.byName.has(ADVANCE_GAME_TIME)));
  lines.push('Or describe what you do in your own words; they are matched to the commands above.');
  return lines.join('\n');
}
