// The free actions every cartridge gets offline without writing a rule: look around, examine a thing or a
// person, inventory, where can I go, and wait. The first four change nothing and spend no turn: they are
// told from the public state, the lore and the world ledger (place.ts). `wait` lets game time pass
// (the engine's `advance_game_time`), so it is a turn. Pure.

import { applyStoryMacros, DEFAULT_PERSONA, type Persona } from '../../../core/cartridge/index.ts';
import type { World } from '../../../core/ledger/index.ts';
import { type CompiledRules, type Dict, formatValue, publicEvents } from '../../../core/yare/index.ts';
import {
  carried,
  currentFoe,
  currentPlace,
  displayName,
  entitiesAt,
  firstSentences,
  loreSections,
  partOfDay,
  peopleAt,
  sectionAbout,
  spelledAsLore,
  travelEvent,
} from './place.ts';
import { type KnownTexts, namedEntries, sentenceAbout, toldEntry } from './known.ts';
import { optionDeeds } from './option-deeds.ts';
import { varietyIndex } from './variety.ts';
import { allWords, contentWords, proseList, STOP_WORDS, withArticle, wordsMatch } from './words.ts';

export type FreeActionKind = 'look' | 'examine' | 'talk' | 'inventory' | 'exits' | 'wait';

export interface FreeActionSpec {
  readonly kind: FreeActionKind;
  /** How /help and the list of what can be done name it. */
  readonly command: string;
  readonly summary: string;
  /** Phrases that name it (matched on words, a typo allowed). */
  readonly phrases: readonly string[];
  /** Verbs that name it alone (with their synonyms). */
  readonly verbs: readonly string[];
}

export const FREE_ACTIONS: readonly FreeActionSpec[] = [
  {
    kind: 'look',
    command: '/look',
    summary: 'look around: the place, who and what is here',
    phrases: [
      'look around',
      'look about',
      'where am i',
      'take a look',
      'what do i see',
      'what is here',
      'whats here',
      'who is here',
      'whos here',
      'what now',
      'now what',
      'describe the place',
      'describe this place',
      'describe the room',
      'describe my surroundings',
      'my surroundings',
      'glance around',
      'survey the',
      'get my bearings',
      'what is around',
      'whats around',
      'take in the',
      'listen',
      'what do i hear',
      'smell the air',
      'what do i smell',
      'sniff the air',
    ],
    verbs: ['look'],
  },
  {
    kind: 'examine',
    command: '/examine <thing>',
    summary: 'examine a thing or a person',
    phrases: [
      'look at',
      'look closely',
      'check out',
      'tell me about',
      'who is',
      'what is',
      'study the',
      'who are',
      'what are',
    ],
    verbs: ['examine'],
  },
  {
    kind: 'talk',
    command: '/talk <person> [about <thing>]',
    summary: 'talk to someone, or ask them about something',
    phrases: ['talk to', 'speak with', 'speak to', 'chat with', 'ask about', 'what do you know about'],
    verbs: ['talk'],
  },
  {
    kind: 'inventory',
    command: '/inventory',
    summary: 'what you carry',
    phrases: [
      'inventory',
      'what do i have',
      'what am i carrying',
      'what do i carry',
      'what have i got',
      'check my pack',
      'check my bag',
      'check my pockets',
      'check my purse',
      'check my inventory',
      'in my bag',
      'in my pack',
      'in my pockets',
      'look in my',
      'my items',
      'my belongings',
      'how much gold',
      'how much money',
      'how many coins',
      'count my',
      'empty my pockets',
    ],
    verbs: [],
  },
  {
    kind: 'exits',
    command: '/exits',
    summary: 'where you can go from here',
    phrases: [
      'where can i go',
      'where could i go',
      'where to go',
      'where should i go',
      'which way',
      'exits',
      'what places',
      'what paths',
      'directions',
      'where does this lead',
      'ways out',
    ],
    verbs: [],
  },
  {
    kind: 'wait',
    command: '/wait <duration>',
    summary: 'let time pass (15m, 2h, 1d)',
    phrases: [
      'wait',
      'pass the time',
      'pass some time',
      'kill time',
      'sit and wait',
      'wait a while',
      'do nothing',
    ],
    verbs: ['wait'],
  },
];

export interface FreeContext {
  readonly rules: CompiledRules;
  readonly state: Dict;
  readonly lore: string;
  readonly world?: World | undefined;
  /** The player's name as the story says it ("Ada", or "You"). */
  readonly who: Voice;
  /** Values the travel event accepts here (from the rules' conditions), when the state is known. */
  readonly exits?: readonly string[];
  /** The opening and the World Info entries, for what the lore's headings do not name. */
  readonly known?: Omit<KnownTexts, 'lore'>;
  /** The player's previous line: what "it" means in "ask her about it". */
  readonly previous?: string | undefined;
  /** What was said in the last turns, oldest first: whom "her", "him" and "them" mean. */
  readonly recent?: readonly string[] | undefined;
  /** The turn's seed: the same talk reads the same in a replay, another turn may read otherwise. */
  readonly seed?: number | undefined;
}

function knownOf(ctx: FreeContext): KnownTexts {
  return { lore: ctx.lore, opening: ctx.known?.opening, entries: ctx.known?.entries };
}

/** How a sentence names the player: by name (third person) or as "you". */
export interface Voice {
  readonly name: string;
  readonly second: boolean;
  readonly possessive: string;
}

export function voiceOf(
  persona: { readonly name: string; readonly pronoun_poss: string } | undefined,
): Voice {
  const name = persona?.name.trim() ?? '';
  if (name === '' || name.toLowerCase() === 'you' || name.toLowerCase() === 'player')
    return { name: 'You', second: true, possessive: 'your' };
  return { name, second: false, possessive: persona?.pronoun_poss ?? 'their' };
}

/** "Ada is" / "You are" and the like: the verb as the voice wants it. */
function say(voice: Voice, third: string, second: string): string {
  return `${voice.name} ${voice.second ? second : third}`;
}

function spelled(ctx: FreeContext, value: string): string {
  return spelledAsLore(ctx.lore, value);
}

function here(ctx: FreeContext): string | undefined {
  const place = currentPlace(ctx.rules, ctx.state);
  return place === undefined ? undefined : spelled(ctx, place);
}

/** "the Tallow Rest" (a name the lore writes with "The"), "Reedmaze" stays "the Reedmaze" too. */
function thePlace(name: string): string {
  return /^the\s/i.test(name) ? name : `the ${name}`;
}

function exitsLine(ctx: FreeContext): string | undefined {
  const exits = (ctx.exits ?? []).map((e) => thePlace(spelled(ctx, e)));
  if (exits.length === 0) return undefined;
  return `From here ${ctx.who.second ? 'you' : ctx.who.name} can go to ${proseList(exits, 'or')}.`;
}

function describeLook(ctx: FreeContext): string {
  const lines: string[] = [];
  const place = here(ctx);
  const part = partOfDay(ctx.state.game_time);
  if (place !== undefined) {
    lines.push(`${say(ctx.who, 'is', 'are')} at ${thePlace(place)}${part ? `; it is ${part}` : ''}.`);
    const section = sectionAbout(ctx.lore, place);
    if (section !== undefined) {
      const told = firstSentences(section.text, 2);
      if (told !== '') lines.push(told);
    }
  } else {
    const opening = loreSections(ctx.lore)[0];
    const summary = ctx.world?.scene?.summary;
    if (summary !== undefined && summary !== '') lines.push(summary);
    else if (opening !== undefined && opening.text !== '') lines.push(firstSentences(opening.text, 2));
    else lines.push(`${say(ctx.who, 'looks', 'look')} around${part ? ` in the ${part}` : ''}.`);
    if (part !== undefined && lines.length > 0 && !lines[0]!.includes(part)) lines.push(`It is ${part}.`);
  }
  const people = new Set([
    ...(place === undefined ? [] : peopleAt(ctx.rules, ctx.lore, place)),
    ...entitiesAt(ctx.world, place),
  ]);
  if (people.size > 0) lines.push(`${proseList([...people])} ${people.size === 1 ? 'is' : 'are'} here.`);
  const foe = currentFoe(ctx.rules, ctx.state);
  if (foe !== undefined)
    lines.push(
      `${capitalise(withArticle(foe.name))} faces ${ctx.who.second ? 'you' : ctx.who.name}${foe.hp === undefined ? '' : ` (${foe.hp} HP)`}.`,
    );
  const exits = exitsLine(ctx);
  if (exits !== undefined) lines.push(exits);
  return lines.join(' ');
}

function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

function describeInventory(ctx: FreeContext): string {
  const { items, money } = carried(ctx.rules, ctx.state);
  const amounts = money.map(([n, name]) => `${formatValue(n)} ${name}`);
  const carriedText = items.length > 0 ? proseList(items.map(withArticle)) : undefined;
  if (carriedText === undefined && amounts.length === 0)
    return `${say(ctx.who, 'carries', 'carry')} nothing the rules keep track of.`;
  if (carriedText === undefined) return `${say(ctx.who, 'has', 'have')} ${proseList(amounts)}.`;
  const purse = amounts.length === 0 ? '' : `, and ${ctx.who.second ? 'have' : 'has'} ${proseList(amounts)}`;
  return `${say(ctx.who, 'carries', 'carry')} ${carriedText}${purse}.`;
}

function describeExits(ctx: FreeContext): string {
  const line = exitsLine(ctx);
  if (line !== undefined) {
    const place = here(ctx);
    return place === undefined ? line : `${say(ctx.who, 'is', 'are')} at ${thePlace(place)}. ${line}`;
  }
  if (travelEvent(ctx.rules) !== undefined)
    return `${say(ctx.who, 'cannot', 'cannot')} leave from here right now.`;
  return 'The rules of this game keep no map: say where you go, and the story follows.';
}

interface Thing {
  readonly name: string;
  readonly words: readonly string[];
  readonly describe: () => string;
  /** A person (an NPC, a ledger character): what "her", "him" and "them" may mean. */
  readonly person?: boolean;
}

/** Things to examine: the lore's sections, the NPC templates, the ledger's entities, items, the foe. */
function thingsHere(ctx: FreeContext): Thing[] {
  const things: Thing[] = [];
  const add = (name: string, describe: () => string, person = false) =>
    things.push({ name, words: contentWords(name), describe, person });
  const foe = currentFoe(ctx.rules, ctx.state);
  if (foe !== undefined)
    add(foe.name, () => {
      const section = sectionAbout(ctx.lore, foe.name);
      const hp = foe.hp === undefined ? '' : ` It has ${foe.hp} HP left.`;
      return `${capitalise(withArticle(foe.name))} stands before ${ctx.who.second ? 'you' : ctx.who.name}.${hp}${section ? ` ${firstSentences(section.text, 1)}` : ''}`;
    });
  for (const item of carried(ctx.rules, ctx.state).items)
    add(item, () => {
      const section = sectionAbout(ctx.lore, item);
      return `${capitalise(withArticle(item))}, in ${ctx.who.possessive} pack.${section ? ` ${firstSentences(section.text, 1)}` : ''}`;
    });
  for (const entity of ctx.world === undefined ? [] : Object.values(ctx.world.entities).slice(0, 200))
    add(
      entity.name,
      () => (entity.description ? `${entity.name}: ${entity.description}` : `${entity.name} is known here.`),
      PERSON_TYPES.test(entity.entityType ?? ''),
    );
  for (const template of ctx.rules.npcTemplates.values()) {
    if (template.type !== 'name') continue;
    const name = displayName(ctx.lore, template.key);
    add(
      name,
      () => {
        const section = sectionAbout(ctx.lore, name);
        return `${name}: ${section ? firstSentences(section.text, 2) : template.description}`;
      },
      true,
    );
  }
  for (const section of loreSections(ctx.lore))
    add(section.name, () => `${section.name}: ${firstSentences(section.text, 2)}`);
  for (const entry of namedEntries(knownOf(ctx)))
    things.push({ name: entry.name, words: entry.words, describe: () => toldEntry(entry) });
  // The values the rules' descriptions say what they do ("flare burns the foe (4 mana)"); last, so the
  // lore's own entry about one wins a tie.
  for (const event of publicEvents(ctx.rules))
    for (const deed of optionDeeds(event))
      things.push({
        name: deed.option.join(' '),
        words: deed.option,
        describe: () => `${capitalise(deed.told)}.`,
      });
  return things;
}

/** Words that ask to examine rather than name the thing. */
const EXAMINE_WORDS = new Set([
  'look',
  'examine',
  'inspect',
  'study',
  'check',
  'out',
  'tell',
  'about',
  'closely',
  'whats',
  'whos',
  'at',
  'talk',
  'speak',
  'chat',
  'ask',
  'know',
  'with',
]);

/** Ledger entity types that are people. */
const PERSON_TYPES = /^(?:person|people|character|npc|creature)$/i;

/** The thing sharing the most words with `asked` (a whole name a little more), if any. */
function bestThing(
  ctx: FreeContext,
  asked: readonly string[],
  things: readonly Thing[] = thingsHere(ctx),
): Thing | undefined {
  let best: { thing: Thing; score: number } | undefined;
  for (const thing of things) {
    const score = thing.words.filter((w) => asked.some((a) => wordsMatch(a, w))).length;
    if (score === 0) continue;
    const exact = score === thing.words.length ? 0.5 : 0;
    if (best === undefined || score + exact > best.score) {
      best = { thing, score: score + exact };
    }
  }
  return best?.thing;
}

function askedWords(text: string): string[] {
  return contentWords(text).filter((w) => !EXAMINE_WORDS.has(w) && !STOP_WORDS.has(w));
}

function describeThing(ctx: FreeContext, text: string): string {
  const asked = askedWords(text);
  if (asked.length === 0) return describeLook(ctx);
  const thing = bestThing(ctx, asked);
  if (thing !== undefined) return thing.describe();
  // Nothing the lore names: the sentence of the opening, lore or World Info about it.
  const sentence = sentenceAbout(knownOf(ctx), asked);
  if (sentence !== undefined) return sentence;
  // "examine my sword" when the rules keep no sword: what the player does carry.
  if (allWords(text).includes('my'))
    return `${say(ctx.who, 'carries', 'carry')} no “${asked.join(' ')}” the rules keep track of. ${describeInventory(ctx)}`;
  const nothing = `${say(ctx.who, 'sees', 'see')} nothing like “${asked.join(' ')}” here.`;
  // At a place the rules keep, what *is* there ("look at the stalls" at the market: the market, who is
  // in it, the ways out), so the player learns what can be looked at instead.
  return here(ctx) === undefined ? nothing : `${nothing} ${describeLook(ctx)}`;
}

/** The examine answer that found nothing ("You see nothing like “stalls” here."), the scene after it or not. */
const NOTHING_FOUND = /^[^“]* nothing like “[^”]*” here\./;

/** Whether an examine answer found nothing the game knows of what was asked. */
export function foundNothing(answer: string): boolean {
  return NOTHING_FOUND.test(answer);
}

/** Whether it found nothing and told nothing else either (no scene: the rules keep no place). */
export function toldNothing(answer: string): boolean {
  const found = NOTHING_FOUND.exec(answer);
  return found !== null && found[0].length === answer.length;
}

/** A person named by a pronoun ("ask her about it"): told as the pronoun says when no one was named. */
const PERSON_PRONOUNS: ReadonlyMap<string, string> = new Map([
  ['her', 'She'],
  ['him', 'He'],
  ['them', 'They'],
]);

/** How many of the last messages "her", "him" and "them" look back through for the person meant. */
export const PRONOUN_LOOKBACK = 6;

/** The person part and the subject part of a talk line ("ask Wren about the tower"). */
function talkParts(text: string): {
  person: string[];
  pronoun: string | undefined;
  subject: string[];
  about: boolean;
} {
  const words = allWords(text);
  const about = words.lastIndexOf('about');
  const before = about < 0 ? words : words.slice(0, about);
  const person = askedWords(before.join(' ')).filter((w) => !PERSON_PRONOUNS.has(w));
  // "ask her", "talk to them": a pronoun alone names the person ("them" is a stop word elsewhere).
  const pronoun = person.length === 0 ? before.find((w) => PERSON_PRONOUNS.has(w)) : undefined;
  return {
    person,
    pronoun: pronoun === undefined ? undefined : PERSON_PRONOUNS.get(pronoun),
    subject: about < 0 ? [] : askedWords(words.slice(about + 1).join(' ')),
    about: about >= 0,
  };
}

/**
 * Whom "her", "him" or "them" means: newest first among the last PRONOUN_LOOKBACK messages, the person a
 * talk line addressed, or else a person (an NPC, a ledger character) the message names. Undefined when
 * none was named.
 */
function personMeant(ctx: FreeContext): Thing | undefined {
  const recent = ctx.recent ?? (ctx.previous === undefined ? [] : [ctx.previous]);
  const things = thingsHere(ctx);
  const people = things.filter((t) => t.person === true);
  for (let i = recent.length - 1; i >= Math.max(0, recent.length - PRONOUN_LOOKBACK); i--) {
    const line = recent[i]!;
    const addressed = talkParts(line).person;
    const talkedTo = addressed.length === 0 ? undefined : bestThing(ctx, addressed, things);
    if (talkedTo !== undefined && isTalk(line)) return talkedTo;
    const named = bestThing(ctx, askedWords(line), people);
    if (named !== undefined) return named;
  }
  return undefined;
}

/** Whether a line talks to someone (its verb or phrase is the talk action's). */
function isTalk(line: string): boolean {
  const words = allWords(line);
  return words.some((w) => TALK_VERBS.has(w));
}

const TALK_VERBS = new Set(['ask', 'talk', 'speak', 'chat', 'tell', 'greet', 'question']);

/** Ways a person tells what is said of something; the first without a seed. */
const TOLD_AS = [
  (name: string, to: string) => `${name} tells ${to} what is said of it:`,
  (name: string, to: string) => `${name} thinks a moment, then tells ${to}:`,
  (name: string, to: string) => `${name} leans closer and tells ${to}:`,
  (name: string, to: string) => `“Here is what I know,” ${name} tells ${to}:`,
] as const;

const NOTHING_NEW = [
  (who: Voice) => `${say(who, 'talks', 'talk')} for a while; no one says anything new.`,
  (who: Voice) => `${say(who, 'talks', 'talk')} a little; nothing new comes of it.`,
  (who: Voice) => `${say(who, 'passes', 'pass')} a few words; no one has news.`,
] as const;

function seeded<T>(ctx: FreeContext, key: string, options: readonly T[]): T {
  return options[ctx.seed === undefined ? 0 : varietyIndex(ctx.seed, key, options.length)]!;
}

/**
 * "ask Mother Hesk about the chapel", "talk to the bosun": what the game knows about the subject (after
 * "about"), as the person tells it; with no subject, who the person is. "her", "him" and "them" are the
 * person named in the last turns (personMeant). Worded by the seed; nothing is spent.
 */
function answerTalk(ctx: FreeContext, text: string): string {
  const parts = talkParts(text);
  const person = parts.person;
  let subject = parts.subject;
  // "about it", "about that": what the previous line was about.
  if (parts.about && subject.length === 0 && ctx.previous !== undefined)
    subject = askedWords(ctx.previous).filter((w) => !person.includes(w));
  const pronoun = parts.pronoun;
  const who =
    pronoun !== undefined ? personMeant(ctx) : person.length === 0 ? undefined : bestThing(ctx, person);
  const name =
    who?.name ?? pronoun ?? (person.length === 0 ? undefined : capitalise(`the ${person.join(' ')}`));
  if (subject.length === 0)
    return who === undefined ? seeded(ctx, 'talk:nothing', NOTHING_NEW)(ctx.who) : who.describe();
  if (pronoun !== undefined && who !== undefined)
    subject = subject.filter((w) => !who.words.some((n) => wordsMatch(w, n)));
  const thing = bestThing(ctx, subject);
  const told = thing?.describe() ?? sentenceAbout(knownOf(ctx), subject);
  if (told === undefined)
    return `${name ?? 'No one here'} knows nothing about “${subject.join(' ')}” that the story tells.`;
  if (name === undefined) return `What is said of it: ${told}`;
  const to = ctx.who.second ? 'you' : ctx.who.name;
  return `${seeded(ctx, `talk:${name}:${subject.join(' ')}`, TOLD_AS)(name, to)} ${told}`;
}

/** The answer to a free action that changes nothing (look, examine, inventory, exits). */
export function answerFreeAction(kind: FreeActionKind, ctx: FreeContext, text: string): string {
  return inVoice(answerOf(kind, ctx, text), ctx.who);
}

/**
 * The answer in the player's voice. A card loaded without a persona has "Player" where it wrote `{{user}}`
 * (core/cartridge/persona.ts, DEFAULT_PERSONA); a player addressed as "you" reads "you" there, the verb after
 * it agreeing, as the opening reads (applyStoryMacros). A named persona's name is in the text already.
 */
function inVoice(text: string, who: Voice): string {
  if (!who.second || !/\bPlayer\b/.test(text)) return text;
  return applyStoryMacros(text.replace(/\bPlayer\b/g, '{{user}}'), SECOND_PERSON_PERSONA);
}

const SECOND_PERSON_PERSONA: Persona = { ...DEFAULT_PERSONA, name: 'you' };

function answerOf(kind: FreeActionKind, ctx: FreeContext, text: string): string {
  switch (kind) {
    case 'look':
      return describeLook(ctx);
    case 'examine':
      return describeThing(ctx, text);
    case 'talk':
      return answerTalk(ctx, text);
    case 'inventory':
      return describeInventory(ctx);
    case 'exits':
      return describeExits(ctx);
    case 'wait':
      return waitInScene(ctx);
    default: {
      const unreachable: never = kind;
      return String(unreachable);
    }
  }
}

/** Sentences of the scene a wait may tell (no persona macros, not too long). */
const MAX_WAIT_SENTENCE_CHARS = 240;

/**
 * Waiting where the rules keep no time: nothing changes and no turn is spent; a sentence of the place's
 * lore (or the first section's, or the opening's), chosen by the seed, says what the player sees meanwhile.
 */
function waitInScene(ctx: FreeContext): string {
  const place = here(ctx);
  const section =
    (place === undefined ? undefined : sectionAbout(ctx.lore, place)) ?? loreSections(ctx.lore)[0];
  const text = section?.text ?? ctx.known?.opening ?? '';
  const sentences = text
    .split(/(?<=[.!?])\s+/)
    .map((t) => t.trim())
    .filter((t) => /^[A-Z“"]/.test(t) && !t.includes('{{') && t.length <= MAX_WAIT_SENTENCE_CHARS);
  const waited = `${say(ctx.who, 'waits', 'wait')} a while.`;
  if (sentences.length === 0) return `${waited} Nothing changes.`;
  return `${waited} ${seeded(ctx, `wait:${section?.key ?? 'opening'}`, sentences)}`;
}

const UNIT_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  m: ['a minute', 'minutes'],
  h: ['an hour', 'hours'],
  d: ['a day', 'days'],
};

/**
 * What a wait did where the rules keep time: how long, and the part of the day after it ("Time passes
 * (an hour); it is evening now.").
 */
export function timePassed(duration: unknown, gameTimeAfter: unknown): string {
  const m = typeof duration === 'string' ? /^(\d{1,4})([mhd])$/.exec(duration) : null;
  const unit = m === null ? undefined : UNIT_WORDS[m[2]!];
  const long = m === null || unit === undefined ? '' : ` (${m[1] === '1' ? unit[0] : `${m[1]} ${unit[1]}`})`;
  const part = partOfDay(gameTimeAfter);
  return `Time passes${long}${part === undefined ? '' : `; it is ${part} now`}.`;
}

/** How long a wait the words say ("wait an hour", "wait 10 minutes", "until night"); undefined when none. */
export function saidWaitLength(text: string): string | undefined {
  const words = allWords(text);
  const units: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
    minute: 'm',
    minutes: 'm',
    min: 'm',
    mins: 'm',
    hour: 'h',
    hours: 'h',
    hr: 'h',
    hrs: 'h',
    day: 'd',
    days: 'd',
  });
  for (let i = 0; i < words.length; i++) {
    const unit = units[words[i]!];
    if (unit === undefined) continue;
    const before = words[i - 1];
    const n =
      before !== undefined && /^\d{1,4}$/.test(before)
        ? Number(before)
        : before === 'an' || before === 'a'
          ? 1
          : before === 'few'
            ? 3
            : 1;
    return `${Math.max(1, n)}${unit}`;
  }
  for (const word of words) if (/^\d{1,4}[mhd]$/.test(word)) return word;
  if (words.includes('night') || words.includes('morning') || words.includes('dawn')) return '8h';
  return undefined;
}

/** The wait the words say; 15 minutes when no length is said. */
export function waitDuration(text: string): string {
  return saidWaitLength(text) ?? '15m';
}

/** Names of the free actions for /help (the values of an input are shown as prose there). */
export function freeActionHelp(hasClock: boolean): string[] {
  return FREE_ACTIONS.filter((a) => a.kind !== 'wait' || hasClock).map((a) => `${a.command} — ${a.summary}`);
}
