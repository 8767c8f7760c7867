// Reading and writing World Info: SillyTavern's World Info file (`{entries: {"<uid>": {key, keysecondary,
// order, disable, position: 0..7, …}}}`), a card's `character_book` (`{entries: [{keys, secondary_keys,
// insertion_order, enabled, position: "before_char", extensions: {…}}]}`), a `lorebook_v3` wrapper, and the
// hybrids found in the wild (Chub writes both names on every entry). Field mapping as SillyTavern does it: in a card book, `extensions.*` carries SillyTavern's exact values and wins
// over the spec's top-level fields; in a World Info file SillyTavern's names win.
//
// What is malformed (a wrong type, an out-of-range enum, entries as a list in a World Info file, too many
// entries) is an issue naming the place (`entries.5.position`); what is read but does not behave as in
// SillyTavern is a note (the import's loss report counts them by name).

import {
  DEFAULT_WI_SCAN_DEPTH,
  DEFAULT_WI_TOKEN_BUDGET,
  MAX_WI_CONTENT_CHARS,
  MAX_WI_ENTRIES,
  MAX_WI_KEY_CHARS,
  MAX_WI_KEYS_PER_ENTRY,
  MAX_WI_MESSAGES_SETTING,
  MAX_WI_RECURSION_STEPS,
  MAX_WI_REGEX_KEYS,
  MAX_WI_SCAN_DEPTH,
  MAX_WI_TOKEN_BUDGET,
} from './world-info-limits.ts';
import { MAX_WHEN_CHARS as MAX_WI_WHEN_CHARS } from './conditions.ts';
import { parseRegexKey, splitRegexKey } from './world-info-regex.ts';
import {
  SELECTIVE_LOGICS,
  type SelectiveLogic,
  WORLD_INFO_POSITIONS,
  WORLD_INFO_ROLES,
  type WorldInfoBook,
  type WorldInfoEntry,
  type WorldInfoIssue,
  type WorldInfoPosition,
  type WorldInfoRole,
  type WorldInfoSettings,
} from './world-info-types.ts';
import { isRecord as isObject } from '../is-record.ts';

/** Something read that does not behave as in SillyTavern: `name` is what the loss report counts by. */
export interface WorldInfoNote {
  readonly name: string;
  readonly path: string;
  readonly message: string;
}

export type WorldInfoParse =
  | { readonly ok: true; readonly book: WorldInfoBook; readonly notes: readonly WorldInfoNote[] }
  | { readonly ok: false; readonly issues: readonly WorldInfoIssue[] };

type Obj = Record<string, unknown>;

/** SillyTavern's decorators: leading `@@name` lines of the content (only these two are honoured). */
const KNOWN_DECORATORS = new Set(['@@activate', '@@dont_activate']);

class Reader {
  readonly issues: WorldInfoIssue[] = [];
  readonly notes: WorldInfoNote[] = [];
  /** `/regex/` keys read so far (MAX_WI_REGEX_KEYS). */
  regexKeys = 0;

  issue(path: string, message: string): void {
    if (this.issues.length < 50) this.issues.push({ path, message });
  }

  note(name: string, path: string, message: string): void {
    this.notes.push({ name, path, message });
  }

  /** The first of `names` present in `sources` (in order), or undefined. */
  pick(
    sources: readonly (Obj | undefined)[],
    names: readonly string[],
  ): { value: unknown; name: string } | undefined {
    for (const source of sources) {
      if (source === undefined) continue;
      for (const name of names) {
        if (Object.hasOwn(source, name) && source[name] !== undefined) return { value: source[name], name };
      }
    }
    return undefined;
  }

  bool(path: string, found: { value: unknown; name: string } | undefined, fallback: boolean): boolean {
    if (found === undefined || found.value === null) return fallback;
    if (typeof found.value === 'boolean') return found.value;
    this.issue(`${path}.${found.name}`, `must be true or false, got ${describe(found.value)}`);
    return fallback;
  }

  nullableBool(path: string, found: { value: unknown; name: string } | undefined): boolean | null {
    if (found === undefined || found.value === null) return null;
    return this.bool(path, found, false);
  }

  number(
    path: string,
    found: { value: unknown; name: string } | undefined,
    fallback: number,
    min: number,
    max: number,
  ): number {
    if (found === undefined || found.value === null) return fallback;
    const value = found.value;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.issue(`${path}.${found.name}`, `must be a number, got ${describe(value)}`);
      return fallback;
    }
    if (value < min || value > max) {
      this.issue(`${path}.${found.name}`, `${value} is out of range ${min}..${max}`);
      return fallback;
    }
    return value;
  }

  string(
    path: string,
    found: { value: unknown; name: string } | undefined,
    fallback: string,
    max: number,
  ): string {
    if (found === undefined || found.value === null) return fallback;
    if (typeof found.value !== 'string') {
      this.issue(`${path}.${found.name}`, `must be text, got ${describe(found.value)}`);
      return fallback;
    }
    if (found.value.length > max) {
      this.issue(`${path}.${found.name}`, `is ${found.value.length} characters; the limit is ${max}`);
      return fallback;
    }
    return found.value;
  }

  keys(path: string, found: { value: unknown; name: string } | undefined): string[] {
    if (found === undefined || found.value === null) return [];
    let list = found.value;
    // RisuAI and some editors write keys as one comma-separated string.
    if (typeof list === 'string') list = list.split(',');
    if (!Array.isArray(list)) {
      this.issue(`${path}.${found.name}`, `must be a list of keys, got ${describe(list)}`);
      return [];
    }
    if (list.length > MAX_WI_KEYS_PER_ENTRY) {
      this.issue(
        `${path}.${found.name}`,
        `has ${list.length} keys; the limit is ${MAX_WI_KEYS_PER_ENTRY} (MAX_WI_KEYS_PER_ENTRY)`,
      );
      return [];
    }
    const out: string[] = [];
    list.forEach((key, i) => {
      const read = this.key(`${path}.${found.name}.${i}`, key);
      if (read !== undefined) out.push(read);
    });
    return out;
  }

  /** One key, trimmed; undefined (with an issue, if it is one) when it is not kept. */
  private key(at: string, key: unknown): string | undefined {
    if (typeof key !== 'string') {
      this.issue(at, `must be text, got ${describe(key)}`);
      return undefined;
    }
    if (key.length > MAX_WI_KEY_CHARS) {
      this.issue(at, `is ${key.length} characters; the limit is ${MAX_WI_KEY_CHARS} (MAX_WI_KEY_CHARS)`);
      return undefined;
    }
    const trimmed = key.trim();
    if (trimmed === '') return undefined;
    if (splitRegexKey(trimmed) === undefined) return trimmed;
    // Compiling is the costly part of reading a book: the count is checked first.
    this.regexKeys++;
    if (this.regexKeys > MAX_WI_REGEX_KEYS) {
      if (this.regexKeys === MAX_WI_REGEX_KEYS + 1)
        this.issue(
          at,
          `is regex key number ${this.regexKeys}; a book may have ${MAX_WI_REGEX_KEYS} (MAX_WI_REGEX_KEYS)`,
        );
      return undefined;
    }
    const regex = parseRegexKey(trimmed);
    if (regex.kind === 'refused')
      this.note('regex key refused', at, `${trimmed}: ${regex.reason}; it never matches`);
    return trimmed;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** Splits leading `@@decorator` lines off the content (SillyTavern strips them all, known or not). */
export function splitDecorators(content: string): { content: string; decorators: string[] } {
  const lines = content.split('\n');
  const decorators: string[] = [];
  let at = 0;
  while (at < lines.length && lines[at]!.startsWith('@@')) {
    decorators.push(lines[at]!.trim());
    at++;
  }
  if (at === 0) return { content, decorators };
  return { content: lines.slice(at).join('\n').replace(/^\n+/, ''), decorators };
}

type Shape = 'world' | 'book';

function readEntry(
  r: Reader,
  raw: unknown,
  path: string,
  shape: Shape,
  fallbackUid: number,
): WorldInfoEntry | undefined {
  if (!isObject(raw)) {
    r.issue(path, `an entry must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const ext = isObject(raw.extensions) ? raw.extensions : undefined;
  // A World Info file: SillyTavern's names first. A card book: extensions (SillyTavern's exact values), then
  // the spec's fields.
  const stFirst: (Obj | undefined)[] = shape === 'world' ? [raw, ext] : [ext, raw];
  const before = r.issues.length;
  const e: EntryRead = { r, raw, ext, path, shape, stFirst };
  const entry = entryOf(e, fallbackUid);
  const mnesos = ext !== undefined && isObject(ext.mnesos) ? ext.mnesos : undefined;
  const when = r.string(`${path}.extensions.mnesos`, r.pick([mnesos], ['when']), '', MAX_WI_WHEN_CHARS);
  if (r.issues.length > before) return undefined;
  if (when.trim() !== '') return { ...entry, when: when.trim() };
  notesOfEntry(e, entry);
  return entry;
}

/** The entry's fields, read in the order their issues are reported. */
function entryOf(e: EntryRead, fallbackUid: number): WorldInfoEntry {
  const { r, raw, path, shape, stFirst } = e;
  const { uid, keys, secondaryKeys, content, forceActivate, forceSkip } = entryTextOf(e, fallbackUid);
  const disable = disabledOf(e);
  const order = r.number(
    path,
    r.pick([raw], shape === 'world' ? ['order', 'insertion_order'] : ['insertion_order', 'order']),
    100,
    -1e9,
    1e9,
  );
  const { position, unplaced } = positionOf(e);
  const selectiveLogic = selectiveLogicOf(e);
  const role = roleOf(e);
  const groupText = r.string(path, r.pick(stFirst, ['group']), '', 1_000);
  const delayUntilRecursion = delayUntilRecursionOf(e);
  return {
    uid,
    keys,
    secondaryKeys,
    selective: r.bool(path, r.pick([raw], ['selective']), shape === 'world'),
    selectiveLogic,
    comment: r.string(path, r.pick([raw], ['comment', 'name']), '', 10_000),
    content,
    constant: r.bool(path, r.pick([raw], ['constant']), false),
    disable: disable || unplaced,
    order,
    position,
    depth: r.number(path, r.pick(stFirst, ['depth']), 4, 0, MAX_WI_MESSAGES_SETTING),
    role,
    outletName: r.string(path, r.pick(stFirst, ['outletName', 'outlet_name']), '', 200),
    ...chanceAndGroupsOf(e, groupText),
    ...scanOptionsOf(e),
    delayUntilRecursion,
    ...timingOf(e),
    forceActivate,
    forceSkip,
  };
}

/** The uid, the keys and the content with its decorators taken off. */
function entryTextOf(
  e: EntryRead,
  fallbackUid: number,
): Pick<WorldInfoEntry, 'uid' | 'keys' | 'secondaryKeys' | 'content' | 'forceActivate' | 'forceSkip'> {
  const { r, raw, path, shape } = e;
  const uid = uidOf(r, raw, fallbackUid);
  const keys = r.keys(path, r.pick([raw], shape === 'world' ? ['key', 'keys'] : ['keys', 'key']));
  const secondaryKeys = r.keys(
    path,
    r.pick(
      [raw],
      shape === 'world' ? ['keysecondary', 'secondary_keys'] : ['secondary_keys', 'keysecondary'],
    ),
  );
  const rawContent = r.string(path, r.pick([raw], ['content']), '', MAX_WI_CONTENT_CHARS);
  const { content, decorators } = splitDecorators(rawContent);
  return { uid, keys, secondaryKeys, content, ...forcedBy(r, path, decorators) };
}

/** Probability and inclusion groups. */
function chanceAndGroupsOf(
  { r, path, stFirst }: EntryRead,
  groupText: string,
): Pick<
  WorldInfoEntry,
  'probability' | 'useProbability' | 'groups' | 'groupOverride' | 'groupWeight' | 'useGroupScoring'
> {
  return {
    probability: r.number(path, r.pick(stFirst, ['probability']), 100, 0, 100),
    useProbability: r.bool(path, r.pick(stFirst, ['useProbability', 'use_probability']), true),
    groups: groupText
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== ''),
    groupOverride: r.bool(path, r.pick(stFirst, ['groupOverride', 'group_override']), false),
    groupWeight: r.number(path, r.pick(stFirst, ['groupWeight', 'group_weight']), 100, 0, 1e9),
    useGroupScoring: r.nullableBool(path, r.pick(stFirst, ['useGroupScoring', 'use_group_scoring'])),
  };
}

/** How the entry's keys are scanned: depth, case, whole words, recursion. */
function scanOptionsOf({
  r,
  raw,
  ext,
  path,
  shape,
  stFirst,
}: EntryRead): Pick<
  WorldInfoEntry,
  'scanDepth' | 'caseSensitive' | 'matchWholeWords' | 'excludeRecursion' | 'preventRecursion'
> {
  const scanFound = r.pick(stFirst, ['scanDepth', 'scan_depth']);
  return {
    scanDepth:
      scanFound === undefined || scanFound.value === null
        ? null
        : r.number(path, scanFound, 0, 0, MAX_WI_SCAN_DEPTH),
    caseSensitive: r.nullableBool(
      path,
      r.pick(shape === 'world' ? [raw, ext] : [ext], ['caseSensitive', 'case_sensitive']),
    ),
    matchWholeWords: r.nullableBool(path, r.pick(stFirst, ['matchWholeWords', 'match_whole_words'])),
    excludeRecursion: r.bool(path, r.pick(stFirst, ['excludeRecursion', 'exclude_recursion']), false),
    preventRecursion: r.bool(path, r.pick(stFirst, ['preventRecursion', 'prevent_recursion']), false),
  };
}

/** Sticky, cooldown and delay (in messages), the budget exemption and the generation types. */
function timingOf({
  r,
  path,
  stFirst,
}: EntryRead): Pick<WorldInfoEntry, 'sticky' | 'cooldown' | 'delay' | 'ignoreBudget' | 'triggers'> {
  const timed = (name: string): number =>
    r.number(path, r.pick(stFirst, [name]), 0, 0, MAX_WI_MESSAGES_SETTING);
  return {
    sticky: timed('sticky'),
    cooldown: timed('cooldown'),
    delay: timed('delay'),
    ignoreBudget: r.bool(path, r.pick(stFirst, ['ignoreBudget', 'ignore_budget']), false),
    triggers: r.keys(path, r.pick(stFirst, ['triggers'])),
  };
}

/** One raw entry being read: the reader, the object, its extensions, where it is, which format it is in. */
interface EntryRead {
  readonly r: Reader;
  readonly raw: Obj;
  readonly ext: Obj | undefined;
  readonly path: string;
  readonly shape: Shape;
  /** Where SillyTavern's own fields are looked for first (see readEntry). */
  readonly stFirst: (Obj | undefined)[];
}

/** A whole number (or a string of digits) in uid/id; otherwise the entry's place in the file. */
function uidOf(r: Reader, raw: Obj, fallbackUid: number): number {
  const uidFound = r.pick([raw], ['uid', 'id']);
  let uid = fallbackUid;
  if (
    uidFound !== undefined &&
    typeof uidFound.value === 'number' &&
    Number.isSafeInteger(uidFound.value) &&
    uidFound.value >= 0
  )
    uid = uidFound.value;
  else if (uidFound !== undefined && typeof uidFound.value === 'string' && /^\d{1,9}$/.test(uidFound.value))
    uid = Number(uidFound.value);
  return uid;
}

/** `@@activate` and `@@dont_activate`; any other unknown decorator is noted as removed. */
function forcedBy(
  r: Reader,
  path: string,
  decorators: readonly string[],
): { forceActivate: boolean; forceSkip: boolean } {
  let forceActivate = false;
  let forceSkip = false;
  for (const decorator of decorators) {
    const name = decorator.split(/\s/)[0]!;
    if (name === '@@activate') forceActivate = true;
    else if (name === '@@dont_activate') forceSkip = true;
    else if (!KNOWN_DECORATORS.has(name))
      r.note(
        `decorator ${name.startsWith('@@@') ? '@@@ (fallback)' : name}`,
        `${path}.content`,
        `${decorator}: not supported; removed from the content`,
      );
  }
  return { forceActivate, forceSkip };
}

function disabledOf({ r, raw, path, shape }: EntryRead): boolean {
  let disable: boolean;
  const disableFound = r.pick([raw], ['disable']);
  const enabledFound = r.pick([raw], ['enabled']);
  if (shape === 'world' && disableFound !== undefined) disable = r.bool(path, disableFound, false);
  else if (enabledFound !== undefined) disable = !r.bool(path, enabledFound, true);
  else disable = r.bool(path, disableFound, false);
  return disable;
}

function positionOf({ r, ext, path, shape, stFirst }: EntryRead): {
  position: WorldInfoPosition;
  unplaced: boolean;
} {
  let position: WorldInfoPosition = 'before_char';
  /** A position SillyTavern has no slot for: it never inserts the entry, so it is kept, disabled. */
  let unplaced = false;
  const posFound = r.pick(stFirst, ['position']);
  if (posFound !== undefined && posFound.value !== null) {
    const value = posFound.value;
    const where =
      posFound.name === 'position' && ext !== undefined && ext.position === value && shape === 'book'
        ? `${path}.extensions.position`
        : `${path}.position`;
    if (typeof value === 'number') {
      const named = Number.isInteger(value) ? WORLD_INFO_POSITIONS[value] : undefined;
      if (named === undefined) {
        unplaced = true;
        r.note(
          `position ${String(value).slice(0, 20)}`,
          where,
          'not a SillyTavern position (0..7: before_char, after_char, an_top, an_bottom, at_depth, em_top, em_bottom, outlet); SillyTavern never inserts such an entry, so it is kept disabled',
        );
      } else position = named;
    } else if (value === 'before_char' || value === 'after_char') position = value;
    else if (typeof value === 'string' && shape === 'book') {
      // SillyTavern's import: anything but "before_char" is after the character.
      position = 'after_char';
      r.note(
        `position "${value.slice(0, 40)}"`,
        where,
        'not a card-spec position; placed after the character (as SillyTavern does)',
      );
    } else r.issue(where, `must be 0..7 or "before_char"/"after_char", got ${describe(value)}`);
  } else if (shape === 'book') {
    position = 'after_char';
  }
  return { position, unplaced };
}

function selectiveLogicOf({ r, path, stFirst }: EntryRead): SelectiveLogic {
  const logicFound = r.pick(stFirst, ['selectiveLogic', 'selective_logic']);
  let selectiveLogic: SelectiveLogic = 'and_any';
  if (logicFound !== undefined && logicFound.value !== null) {
    const n = logicFound.value;
    const named = typeof n === 'number' && Number.isInteger(n) ? SELECTIVE_LOGICS[n] : undefined;
    if (named === undefined)
      r.issue(
        `${path}.${logicFound.name}`,
        `must be 0..3 (AND ANY, NOT ALL, NOT ANY, AND ALL), got ${describe(n)}`,
      );
    else selectiveLogic = named;
  }
  return selectiveLogic;
}

function roleOf({ r, path, stFirst }: EntryRead): WorldInfoRole {
  const roleFound = r.pick(stFirst, ['role']);
  let role: WorldInfoRole = 'system';
  if (roleFound !== undefined && roleFound.value !== null) {
    const n = roleFound.value;
    const named =
      typeof n === 'number' && Number.isInteger(n)
        ? WORLD_INFO_ROLES[n]
        : typeof n === 'string' && (WORLD_INFO_ROLES as readonly string[]).includes(n)
          ? (n as WorldInfoRole)
          : undefined;
    if (named === undefined)
      r.issue(`${path}.role`, `must be 0 (system), 1 (user) or 2 (assistant), got ${describe(n)}`);
    else role = named;
  }
  return role;
}

function delayUntilRecursionOf({ r, path, stFirst }: EntryRead): number {
  const delayRecursion = r.pick(stFirst, ['delayUntilRecursion', 'delay_until_recursion']);
  let delayUntilRecursion = 0;
  if (delayRecursion !== undefined && delayRecursion.value !== null) {
    if (typeof delayRecursion.value === 'boolean') delayUntilRecursion = delayRecursion.value ? 1 : 0;
    else delayUntilRecursion = r.number(path, delayRecursion, 0, 0, MAX_WI_RECURSION_STEPS);
  }
  return delayUntilRecursion;
}

/** Options SillyTavern has that are read but not honoured here: their names (both spellings) and why. */
const UNSUPPORTED_OPTIONS: readonly (readonly [readonly string[], string])[] = [
  [['vectorized'], 'vector (semantic) activation is not supported; the entry activates by its keys'],
  [['automationId', 'automation_id'], 'Quick Reply automations do not exist here'],
  [['matchPersonaDescription', 'match_persona_description'], 'the persona description is not scanned'],
  [['matchCharacterDescription', 'match_character_description'], 'the character description is not scanned'],
  [['matchCharacterPersonality', 'match_character_personality'], 'the character personality is not scanned'],
  [['matchCharacterDepthPrompt', 'match_character_depth_prompt'], "the Character's Note is not scanned"],
  [['matchScenario', 'match_scenario'], 'the scenario is not scanned'],
  [['matchCreatorNotes', 'match_creator_notes'], 'the creator notes are not scanned'],
];

/** Options read but not honoured, by name. */
function notesOfEntry(e: EntryRead, entry: WorldInfoEntry): void {
  const { r, raw, ext, path, shape } = e;
  for (const [names, why] of UNSUPPORTED_OPTIONS) {
    const found = firstSetOption([raw, ext], names);
    if (found !== undefined) r.note(found, `${path}.${found}`, why);
  }
  const filter = raw.characterFilter ?? ext?.character_filter;
  if (
    isObject(filter) &&
    ((Array.isArray(filter.names) && filter.names.length > 0) ||
      (Array.isArray(filter.tags) && filter.tags.length > 0))
  )
    r.note(
      'characterFilter',
      `${path}.characterFilter`,
      'character filters do not apply: a cartridge has one character',
    );
  const placement = placementNote(entry.position);
  if (placement !== undefined) r.note(placement.name, `${path}.position`, placement.why);
  if (shape === 'book' && raw.priority !== undefined && raw.priority !== null)
    r.note(
      'priority',
      `${path}.priority`,
      'as in SillyTavern, the budget follows insertion_order, not priority',
    );
  for (const trigger of entry.triggers) {
    if (!['normal', 'continue', 'swipe', 'regenerate'].includes(trigger))
      r.note(`trigger ${trigger}`, `${path}.triggers`, `generation type '${trigger}' never happens here`);
  }
}

/** The first of `names` set (true, non-empty text or list) in `sources`, in order. */
function firstSetOption(sources: readonly (Obj | undefined)[], names: readonly string[]): string | undefined {
  for (const source of sources) {
    if (source === undefined) continue;
    for (const name of names) {
      const v = source[name];
      if (v === true || (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0))
        return name;
    }
  }
  return undefined;
}

/** A position read but placed elsewhere here: the note's name and why, if the position is one. */
function placementNote(position: WorldInfoPosition): { name: string; why: string } | undefined {
  switch (position) {
    case 'an_top':
    case 'an_bottom':
      return {
        name: `position ${position}`,
        why: "there is no Author's Note; the entry is placed after the character",
      };
    case 'em_top':
    case 'em_bottom':
      return {
        name: `position ${position}`,
        why: 'the entry is placed after the character, not among the example messages',
      };
    case 'outlet':
      return {
        name: 'position outlet',
        why: 'there is no {{outlet}} macro; the entry is placed after the character',
      };
    default:
      return undefined;
  }
}

function readSettings(r: Reader, book: Obj, path: string): WorldInfoSettings {
  const p = (name: string) => r.pick([book], [name]);
  const budget = p('token_budget');
  return {
    scanDepth: r.number(path, p('scan_depth'), DEFAULT_WI_SCAN_DEPTH, 0, MAX_WI_SCAN_DEPTH),
    tokenBudget:
      budget === undefined || budget.value === null
        ? DEFAULT_WI_TOKEN_BUDGET
        : r.number(path, budget, DEFAULT_WI_TOKEN_BUDGET, 1, MAX_WI_TOKEN_BUDGET),
    recursive: r.bool(path, p('recursive_scanning'), true),
    maxRecursionSteps: r.number(path, p('max_recursion_steps'), 0, 0, MAX_WI_RECURSION_STEPS),
    caseSensitive: r.bool(path, p('case_sensitive'), false),
    matchWholeWords: r.bool(path, p('match_whole_words'), true),
    groupScoring: r.bool(path, p('group_scoring'), false),
  };
}

function readEntries(r: Reader, entries: unknown, path: string, shape: Shape): WorldInfoEntry[] {
  const out: WorldInfoEntry[] = [];
  const list: [string, unknown][] = Array.isArray(entries)
    ? entries.map((e, i) => [String(i), e])
    : isObject(entries)
      ? Object.entries(entries)
      : [];
  if (list.length > MAX_WI_ENTRIES) {
    r.issue(path, `has ${list.length} entries; the limit is ${MAX_WI_ENTRIES} (MAX_WI_ENTRIES)`);
    return out;
  }
  const seen = new Set<number>();
  list.forEach(([key, raw], index) => {
    const fallback = Array.isArray(entries) ? index : /^\d+$/.test(key) ? Number(key) : index;
    const entry = readEntry(r, raw, `${path}.${key}`, shape, fallback);
    if (entry === undefined) return;
    let uid = entry.uid;
    while (seen.has(uid)) uid++;
    seen.add(uid);
    out.push(uid === entry.uid ? entry : { ...entry, uid });
  });
  return out;
}

/**
 * A standalone World Info file: SillyTavern's `{entries: {uid: …}}` (optionally with `name`, `originalData`,
 * Chub's book-level settings) or `{spec: "lorebook_v3", data: book}`.
 */
export function parseWorldInfoFile(value: unknown, fallbackName: string): WorldInfoParse {
  const r = new Reader();
  if (!isObject(value))
    return {
      ok: false,
      issues: [{ path: '(root)', message: `a World Info file is a JSON object, got ${describe(value)}` }],
    };
  if (value.spec === 'lorebook_v3') {
    if (!isObject(value.data))
      return { ok: false, issues: [{ path: 'data', message: 'a lorebook_v3 file needs a data object' }] };
    return parseCharacterBook(value.data, fallbackName, 'data');
  }
  if (!('entries' in value))
    return {
      ok: false,
      issues: [{ path: 'entries', message: 'missing: a World Info file is {"entries": {"<uid>": {…}}}' }],
    };
  if (Array.isArray(value.entries)) {
    return {
      ok: false,
      issues: [
        {
          path: 'entries',
          message:
            'is a list; a SillyTavern World Info file keys its entries by uid: {"entries": {"0": {…}}}',
        },
      ],
    };
  }
  if (!isObject(value.entries))
    return {
      ok: false,
      issues: [
        { path: 'entries', message: `must be an object keyed by uid, got ${describe(value.entries)}` },
      ],
    };
  const entries = readEntries(r, value.entries, 'entries', 'world');
  const settings = readSettings(r, value, '(root)');
  if (r.issues.length > 0) return { ok: false, issues: r.issues };
  const name = typeof value.name === 'string' && value.name.trim() !== '' ? value.name : fallbackName;
  return { ok: true, book: { name, entries, settings }, notes: r.notes };
}

/** A card's `character_book` (V2 or V3 shape): entries as a list, SillyTavern's values in `extensions`. */
export function parseCharacterBook(
  value: unknown,
  fallbackName: string,
  path = 'character_book',
): WorldInfoParse {
  const r = new Reader();
  if (!isObject(value))
    return { ok: false, issues: [{ path, message: `must be an object, got ${describe(value)}` }] };
  if (!Array.isArray(value.entries) && !isObject(value.entries))
    return {
      ok: false,
      issues: [
        { path: `${path}.entries`, message: `must be a list of entries, got ${describe(value.entries)}` },
      ],
    };
  const entries = readEntries(
    r,
    value.entries,
    `${path}.entries`,
    Array.isArray(value.entries) ? 'book' : 'world',
  );
  const settings = readSettings(r, value, path);
  if (r.issues.length > 0) return { ok: false, issues: r.issues };
  const name = typeof value.name === 'string' && value.name.trim() !== '' ? value.name : fallbackName;
  return { ok: true, book: { name, entries, settings }, notes: r.notes };
}

function positionNumber(position: WorldInfoPosition): number {
  return WORLD_INFO_POSITIONS.indexOf(position);
}

/** SillyTavern's options to scan more than the messages, all off (none is honoured here). */
const NOTHING_ELSE_SCANNED = {
  matchPersonaDescription: false,
  matchCharacterDescription: false,
  matchCharacterPersonality: false,
  matchCharacterDepthPrompt: false,
  matchScenario: false,
  matchCreatorNotes: false,
} as const;

/** One entry in SillyTavern's World Info field names (all of them, so SillyTavern reads it back losslessly). */
function worldEntryOf(entry: WorldInfoEntry, displayIndex: number): Obj {
  return {
    uid: entry.uid,
    key: [...entry.keys],
    keysecondary: [...entry.secondaryKeys],
    comment: entry.comment,
    content: decoratedContent(entry),
    constant: entry.constant,
    vectorized: false,
    selective: entry.selective,
    selectiveLogic: SELECTIVE_LOGICS.indexOf(entry.selectiveLogic),
    addMemo: entry.comment !== '',
    order: entry.order,
    position: positionNumber(entry.position),
    disable: entry.disable,
    ignoreBudget: entry.ignoreBudget,
    excludeRecursion: entry.excludeRecursion,
    preventRecursion: entry.preventRecursion,
    ...NOTHING_ELSE_SCANNED,
    delayUntilRecursion:
      entry.delayUntilRecursion === 1
        ? true
        : entry.delayUntilRecursion === 0
          ? false
          : entry.delayUntilRecursion,
    probability: entry.probability,
    useProbability: entry.useProbability,
    depth: entry.depth,
    outletName: entry.outletName,
    group: entry.groups.join(','),
    groupOverride: entry.groupOverride,
    groupWeight: entry.groupWeight,
    scanDepth: entry.scanDepth,
    caseSensitive: entry.caseSensitive,
    matchWholeWords: entry.matchWholeWords,
    useGroupScoring: entry.useGroupScoring,
    automationId: '',
    role: WORLD_INFO_ROLES.indexOf(entry.role),
    sticky: entry.sticky === 0 ? null : entry.sticky,
    cooldown: entry.cooldown === 0 ? null : entry.cooldown,
    delay: entry.delay === 0 ? null : entry.delay,
    triggers: [...entry.triggers],
    displayIndex,
    characterFilter: { isExclude: false, names: [], tags: [] },
    ...(entry.when === undefined ? {} : { extensions: { mnesos: { when: entry.when } } }),
  };
}

function decoratedContent(entry: WorldInfoEntry): string {
  const lines: string[] = [];
  if (entry.forceActivate) lines.push('@@activate');
  if (entry.forceSkip) lines.push('@@dont_activate');
  return lines.length === 0 ? entry.content : `${lines.join('\n')}\n${entry.content}`;
}

/** The book as a SillyTavern World Info file (what `mnesos export --world` writes). */
export function toWorldInfoFile(book: WorldInfoBook): Obj {
  const entries: Obj = {};
  book.entries.forEach((entry, i) => {
    entries[String(entry.uid)] = worldEntryOf(entry, i);
  });
  return {
    name: book.name,
    scan_depth: book.settings.scanDepth,
    token_budget: book.settings.tokenBudget,
    recursive_scanning: book.settings.recursive,
    entries,
  };
}

/** The book as a card's `character_book` (SillyTavern's `convertWorldInfoToCharacterBook` mapping). */
export function toCharacterBook(book: WorldInfoBook): Obj {
  return {
    name: book.name,
    scan_depth: book.settings.scanDepth,
    token_budget: book.settings.tokenBudget,
    recursive_scanning: book.settings.recursive,
    extensions: {},
    entries: book.entries.map((entry, i) => ({
      id: entry.uid,
      keys: [...entry.keys],
      secondary_keys: [...entry.secondaryKeys],
      comment: entry.comment,
      content: decoratedContent(entry),
      constant: entry.constant,
      selective: entry.selective,
      insertion_order: entry.order,
      enabled: !entry.disable,
      position: entry.position === 'before_char' ? 'before_char' : 'after_char',
      use_regex: true,
      extensions: {
        position: positionNumber(entry.position),
        exclude_recursion: entry.excludeRecursion,
        prevent_recursion: entry.preventRecursion,
        delay_until_recursion: entry.delayUntilRecursion,
        display_index: i,
        probability: entry.probability,
        useProbability: entry.useProbability,
        depth: entry.depth,
        selectiveLogic: SELECTIVE_LOGICS.indexOf(entry.selectiveLogic),
        outlet_name: entry.outletName,
        group: entry.groups.join(','),
        group_override: entry.groupOverride,
        group_weight: entry.groupWeight,
        scan_depth: entry.scanDepth,
        case_sensitive: entry.caseSensitive,
        match_whole_words: entry.matchWholeWords,
        use_group_scoring: entry.useGroupScoring,
        automation_id: '',
        role: WORLD_INFO_ROLES.indexOf(entry.role),
        vectorized: false,
        sticky: entry.sticky === 0 ? null : entry.sticky,
        cooldown: entry.cooldown === 0 ? null : entry.cooldown,
        delay: entry.delay === 0 ? null : entry.delay,
        triggers: [...entry.triggers],
        ignore_budget: entry.ignoreBudget,
        ...(entry.when === undefined ? {} : { mnesos: { when: entry.when } }),
      },
    })),
  };
}
