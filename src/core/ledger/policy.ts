// The write policy: which attributes a narrator batch may write. An allowlist of event
// types is not enough — "set my gold to 9999" is a perfectly valid `set_entity_attribute` — so every name
// the rules (YARE `state_schema`) own is refused to the ledger, whatever the entity, and a cartridge may
// declare narrator-owned attributes with a type and bounds in the optional `ledger:` section of yare.yaml.

import type { LedgerEvent } from './events.ts';
import {
  KEY_PATTERN,
  MAX_DECLARED_ATTRIBUTES,
  MAX_LABELS,
  MAX_THREAD_REQUIREMENTS,
  MAX_VALUE_TEXT_LENGTH,
  MAX_WORLD_EVENTS,
  RESERVED_KEYS,
} from './limits.ts';
import { textProblem } from './text.ts';
import { isRecord } from '../is-record.ts';

export type AttributeType = 'string' | 'int' | 'float' | 'bool';

export interface AttributeDecl {
  readonly type: AttributeType;
  /** Allowed strings (type string only). */
  readonly enum?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** Largest |new − old| in one turn (int/float only); checked against the value before the batch. */
  readonly maxChange?: number;
}

export type ThreadRequirement =
  | { readonly kind: 'fact'; readonly fact: string }
  | { readonly kind: 'status'; readonly entity: string; readonly status: string };

export interface LedgerPolicy {
  /** Attribute names the rules own: never writable by `set_entity_attribute`, on any entity. */
  readonly rulesOwned: ReadonlySet<string>;
  /** Narrator-owned attributes the cartridge declared, with their types and bounds. */
  readonly attributes: ReadonlyMap<string, AttributeDecl>;
  /** What an attribute neither rules-owned nor declared gets: stored as narrative data, or refused. */
  readonly undeclaredAttributes: 'allow' | 'reject';
  /** The player's entity key, for the possession plausibility rule; null turns the rule off. */
  readonly player: string | null;
  /** Items a narrator may hand to the player from anywhere. */
  readonly grantableItems: ReadonlySet<string>;
  /** Threads that only resolve when their conditions hold in the ledger. */
  readonly threadRequirements: ReadonlyMap<string, readonly ThreadRequirement[]>;
  /** Whether `add_relationship` may tie an entity to itself. */
  readonly allowSelfRelationships: boolean;
}

export const DEFAULT_PLAYER_KEY = 'player';

export const DEFAULT_POLICY: LedgerPolicy = Object.freeze({
  rulesOwned: new Set<string>(),
  attributes: new Map<string, AttributeDecl>(),
  undeclaredAttributes: 'allow',
  player: DEFAULT_PLAYER_KEY,
  grantableItems: new Set<string>(),
  threadRequirements: new Map<string, readonly ThreadRequirement[]>(),
  allowSelfRelationships: false,
});

/**
 * Every name the rules' state could mean, lower-cased, from the path of each domain and field the
 * cartridge declares (the compiled state_schema says which is which: yare's `declaredStatePaths`): each
 * name at any level, each `domain_field` spelling, and each underscore suffix of a name
 * (`player_credits` → `credits`). Deliberately broad: a narrator attribute called like any rules value
 * would show the model a second, contradicting number, so the ledger refuses it on every entity.
 */
export function rulesOwnedNames(statePaths: Iterable<readonly string[]>): Set<string> {
  const names = new Set<string>();
  for (const path of statePaths) {
    const name = path.at(-1);
    if (name === undefined) continue;
    const parts = name
      .toLowerCase()
      .split('_')
      .filter((p) => p.length > 0);
    for (let i = 0; i < parts.length; i++) names.add(parts.slice(i).join('_'));
    names.add(name.toLowerCase());
    names.add(path.join('_').toLowerCase());
  }
  return names;
}

/** The policy of a cartridge whose rules declare these state paths and that has no `ledger:` section. */
export function policyFromStatePaths(statePaths: Iterable<readonly string[]>): LedgerPolicy {
  return { ...DEFAULT_POLICY, rulesOwned: rulesOwnedNames(statePaths) };
}

export interface SectionIssue {
  /** From the root of yare.yaml: `['ledger', 'attributes', 'trust', 'min']`. */
  readonly path: ReadonlyArray<string | number>;
  readonly code: string;
  readonly message: string;
}

export interface LedgerSection {
  readonly policy: LedgerPolicy;
  /** The starting world's events, validated in order from an empty world (apply them at turn 0). */
  readonly world: readonly LedgerEvent[];
}

export type SectionResult = { ok: true; value: LedgerSection } | { ok: false; issues: SectionIssue[] };

const SECTION_KEYS = [
  'player',
  'undeclared_attributes',
  'attributes',
  'grantable_items',
  'threads',
  'allow_self_relationships',
  'world',
] as const;
const ATTRIBUTE_KEYS = ['type', 'enum', 'min', 'max', 'max_change'] as const;
const ATTRIBUTE_TYPES: readonly AttributeType[] = ['string', 'int', 'float', 'bool'];

function isKey(value: unknown): value is string {
  return typeof value === 'string' && KEY_PATTERN.test(value) && !RESERVED_KEYS.has(value);
}

/**
 * A world validator injected by `validateLedgerSection`'s caller-facing wrapper in validate.ts, which
 * would otherwise import this module in a cycle.
 */
export type WorldEventsCheck = (
  events: unknown,
  policy: LedgerPolicy,
) =>
  | { ok: true; events: LedgerEvent[] }
  | { ok: false; errors: ReadonlyArray<{ index: number; field?: string; code: string; message: string }> };

/**
 * Checks the `ledger:` section of yare.yaml (absent is fine) against the rules-owned names of the state
 * the rules declare (`statePaths`, see `rulesOwnedNames`).
 */
export function checkLedgerSection(
  raw: unknown,
  statePaths: Iterable<readonly string[]>,
  checkWorld: WorldEventsCheck,
): SectionResult {
  const issues: SectionIssue[] = [];
  const issue = (path: ReadonlyArray<string | number>, code: string, message: string): void => {
    issues.push({ path: ['ledger', ...path], code, message });
  };
  const rulesOwned = rulesOwnedNames(statePaths);
  if (raw === undefined || raw === null) {
    return { ok: true, value: { policy: { ...DEFAULT_POLICY, rulesOwned }, world: [] } };
  }
  if (!isRecord(raw)) {
    return {
      ok: false,
      issues: [{ path: ['ledger'], code: 'LEDGER_BAD_TYPE', message: 'ledger must be a mapping' }],
    };
  }
  for (const key of Object.keys(raw)) {
    if (!(SECTION_KEYS as readonly string[]).includes(key)) {
      issue(
        [key],
        'LEDGER_UNKNOWN_FIELD',
        `unknown key ${JSON.stringify(key)}; allowed: ${SECTION_KEYS.join(', ')}`,
      );
    }
  }

  const player = playerOf(raw, issue);
  const undeclaredAttributes = undeclaredAttributesOf(raw, issue);
  const allowSelfRelationships = allowSelfRelationshipsOf(raw, issue);
  const attributes = attributesOf(raw, rulesOwned, issue);
  const grantableItems = grantableItemsOf(raw, issue);
  const threadRequirements = threadRequirementsOf(raw, issue);
  const policy: LedgerPolicy = {
    rulesOwned,
    attributes,
    undeclaredAttributes,
    player,
    grantableItems,
    threadRequirements,
    allowSelfRelationships,
  };
  const world = worldOf(raw, policy, checkWorld, issues.length === 0, issue);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { policy, world } };
}

type Report = (path: ReadonlyArray<string | number>, code: string, message: string) => void;

type Section = Record<string, unknown>;

function playerOf(raw: Section, issue: Report): string | null {
  let player: string | null = DEFAULT_PLAYER_KEY;
  if (raw.player === null) player = null;
  else if (raw.player !== undefined) {
    if (isKey(raw.player)) player = raw.player;
    else
      issue(
        ['player'],
        'LEDGER_BAD_KEY',
        'player must be an entity key (a-z, 0-9, _; starting with a letter) or null',
      );
  }
  return player;
}

function undeclaredAttributesOf(raw: Section, issue: Report): 'allow' | 'reject' {
  let undeclaredAttributes: 'allow' | 'reject' = 'allow';
  if (raw.undeclared_attributes !== undefined) {
    if (raw.undeclared_attributes === 'allow' || raw.undeclared_attributes === 'reject') {
      undeclaredAttributes = raw.undeclared_attributes;
    } else
      issue(['undeclared_attributes'], 'LEDGER_BAD_VALUE', 'undeclared_attributes must be allow or reject');
  }
  return undeclaredAttributes;
}

function allowSelfRelationshipsOf(raw: Section, issue: Report): boolean {
  let allowSelfRelationships = false;
  if (raw.allow_self_relationships !== undefined) {
    if (typeof raw.allow_self_relationships === 'boolean')
      allowSelfRelationships = raw.allow_self_relationships;
    else
      issue(
        ['allow_self_relationships'],
        'LEDGER_BAD_TYPE',
        'allow_self_relationships must be true or false',
      );
  }
  return allowSelfRelationships;
}

/** Declared attributes (at most MAX_DECLARED_ATTRIBUTES); a rules-owned name is refused. */
function attributesOf(
  raw: Section,
  rulesOwned: ReadonlySet<string>,
  issue: Report,
): Map<string, AttributeDecl> {
  const attributes = new Map<string, AttributeDecl>();
  if (raw.attributes !== undefined) {
    if (!isRecord(raw.attributes)) issue(['attributes'], 'LEDGER_BAD_TYPE', 'attributes must be a mapping');
    else {
      const entries = Object.entries(raw.attributes);
      if (entries.length > MAX_DECLARED_ATTRIBUTES) {
        issue(
          ['attributes'],
          'LEDGER_TOO_BIG',
          `at most ${MAX_DECLARED_ATTRIBUTES} attributes may be declared`,
        );
      }
      for (const [name, decl] of entries.slice(0, MAX_DECLARED_ATTRIBUTES)) {
        const at = ['attributes', name];
        if (!isKey(name)) {
          issue(
            at,
            'LEDGER_BAD_KEY',
            `attribute ${JSON.stringify(name)} must be a key (a-z, 0-9, _; starting with a letter)`,
          );
          continue;
        }
        if (rulesOwned.has(name)) {
          // A cartridge cannot hand a rules-owned name to the narrator.
          issue(
            at,
            'LEDGER_RULES_OWNED',
            `attribute ${name} is owned by the rules (state_schema); the narrator cannot own it`,
          );
          continue;
        }
        const parsed = parseAttributeDecl(decl, (path, code, message) =>
          issue([...at, ...path], code, message),
        );
        if (parsed) attributes.set(name, parsed);
      }
    }
  }
  return attributes;
}

function grantableItemsOf(raw: Section, issue: Report): Set<string> {
  const grantableItems = new Set<string>();
  if (raw.grantable_items !== undefined) {
    if (!Array.isArray(raw.grantable_items))
      issue(['grantable_items'], 'LEDGER_BAD_TYPE', 'grantable_items must be a list of keys');
    else
      raw.grantable_items.forEach((item, i) => {
        if (isKey(item)) grantableItems.add(item);
        else issue(['grantable_items', i], 'LEDGER_BAD_KEY', 'each grantable item must be an entity key');
      });
  }
  return grantableItems;
}

function threadRequirementsOf(raw: Section, issue: Report): Map<string, readonly ThreadRequirement[]> {
  const threadRequirements = new Map<string, readonly ThreadRequirement[]>();
  if (raw.threads !== undefined) {
    if (!isRecord(raw.threads))
      issue(['threads'], 'LEDGER_BAD_TYPE', 'threads must be a mapping of thread key to {requires: [...]}');
    else {
      for (const [thread, decl] of Object.entries(raw.threads)) {
        const at = ['threads', thread];
        if (!isKey(thread)) {
          issue(at, 'LEDGER_BAD_KEY', `thread ${JSON.stringify(thread)} must be a key`);
          continue;
        }
        const reqs = parseThreadDecl(decl, (path, code, message) => issue([...at, ...path], code, message));
        if (reqs) threadRequirements.set(thread, reqs);
      }
    }
  }
  return threadRequirements;
}

/** The starting world's events, checked only when the rest of the section is clean (they need its policy). */
function worldOf(
  raw: Section,
  policy: LedgerPolicy,
  checkWorld: WorldEventsCheck,
  clean: boolean,
  issue: Report,
): LedgerEvent[] {
  let world: LedgerEvent[] = [];
  if (raw.world !== undefined) {
    if (!Array.isArray(raw.world))
      issue(['world'], 'LEDGER_BAD_TYPE', 'world must be a list of ledger events');
    else if (raw.world.length > MAX_WORLD_EVENTS) {
      issue(
        ['world'],
        'LEDGER_BATCH_TOO_LARGE',
        `world has ${raw.world.length} events; at most ${MAX_WORLD_EVENTS}`,
      );
    } else if (clean) {
      const checked = checkWorld(raw.world, policy);
      if (checked.ok) world = checked.events;
      else
        for (const e of checked.errors) {
          const path: Array<string | number> = e.index >= 0 ? ['world', e.index] : ['world'];
          if (e.field !== undefined) path.push(e.field);
          issue(path, e.code, e.message);
        }
    }
  }
  return world;
}

function finiteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function parseAttributeDecl(decl: unknown, report: Report): AttributeDecl | null {
  if (!isRecord(decl)) {
    report([], 'LEDGER_BAD_TYPE', 'an attribute declaration must be a mapping with a type');
    return null;
  }
  let ok = true;
  for (const key of Object.keys(decl)) {
    if (!(ATTRIBUTE_KEYS as readonly string[]).includes(key)) {
      report(
        [key],
        'LEDGER_UNKNOWN_FIELD',
        `unknown key ${JSON.stringify(key)}; allowed: ${ATTRIBUTE_KEYS.join(', ')}`,
      );
      ok = false;
    }
  }
  const type = decl.type;
  if (typeof type !== 'string' || !(ATTRIBUTE_TYPES as readonly string[]).includes(type)) {
    report(['type'], 'LEDGER_BAD_VALUE', `type must be one of ${ATTRIBUTE_TYPES.join(', ')}`);
    return null;
  }
  const out: AttributeDeclDraft = { type: type as AttributeType };
  const boundsOk = readAttributeBounds(decl, out, report);
  const enumOk = readAttributeEnum(decl, out, report);
  return ok && boundsOk && enumOk ? out : null;
}

/** An attribute declaration as it is read. */
type AttributeDeclDraft = {
  type: AttributeType;
  enum?: string[];
  min?: number;
  max?: number;
  maxChange?: number;
};

/** `min`, `max` and `max_change` (numbers only) into `out`; false when one is wrong. */
function readAttributeBounds(
  decl: Record<string, unknown>,
  out: AttributeDeclDraft,
  report: Report,
): boolean {
  const { type } = out;
  let ok = true;
  const numeric = type === 'int' || type === 'float';
  for (const bound of ['min', 'max', 'max_change'] as const) {
    const v = decl[bound];
    if (v === undefined) continue;
    if (!numeric) {
      report([bound], 'LEDGER_BAD_VALUE', `${bound} applies to int and float attributes only`);
      ok = false;
    } else if (
      !finiteNumber(v) ||
      (type === 'int' && !Number.isSafeInteger(v)) ||
      (bound === 'max_change' && v < 0)
    ) {
      report(
        [bound],
        'LEDGER_BAD_VALUE',
        `${bound} must be a finite ${type === 'int' ? 'integer' : 'number'}${bound === 'max_change' ? ' ≥ 0' : ''}`,
      );
      ok = false;
    } else if (bound === 'max_change') out.maxChange = v;
    else out[bound] = v;
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    report(['min'], 'LEDGER_BAD_VALUE', `min ${out.min} is greater than max ${out.max}`);
    ok = false;
  }
  return ok;
}

/** `enum` (strings only) into `out`; false when it is wrong. */
function readAttributeEnum(decl: Record<string, unknown>, out: AttributeDeclDraft, report: Report): boolean {
  if (decl.enum === undefined) return true;
  if (out.type !== 'string') {
    report(['enum'], 'LEDGER_BAD_VALUE', 'enum applies to string attributes only');
    return false;
  }
  if (!Array.isArray(decl.enum) || decl.enum.length === 0 || decl.enum.length > MAX_LABELS * 4) {
    report(['enum'], 'LEDGER_BAD_VALUE', `enum must be a list of 1 to ${MAX_LABELS * 4} strings`);
    return false;
  }
  let ok = true;
  const values: string[] = [];
  decl.enum.forEach((v, i) => {
    if (typeof v !== 'string' || v.length > MAX_VALUE_TEXT_LENGTH || textProblem(v, false) !== null) {
      report(
        ['enum', i],
        'LEDGER_BAD_VALUE',
        `each enum value must be one line of text of at most ${MAX_VALUE_TEXT_LENGTH} characters`,
      );
      ok = false;
    } else values.push(v.normalize('NFC'));
  });
  out.enum = values;
  return ok;
}

function parseThreadDecl(decl: unknown, report: Report): ThreadRequirement[] | null {
  if (!isRecord(decl) || !Array.isArray(decl.requires) || Object.keys(decl).some((k) => k !== 'requires')) {
    report(
      [],
      'LEDGER_BAD_TYPE',
      'a thread declaration must be {requires: [{fact: id} | {entity: key, status: text}]}',
    );
    return null;
  }
  if (decl.requires.length === 0 || decl.requires.length > MAX_THREAD_REQUIREMENTS) {
    report(['requires'], 'LEDGER_BAD_VALUE', `requires must list 1 to ${MAX_THREAD_REQUIREMENTS} conditions`);
    return null;
  }
  const out: ThreadRequirement[] = [];
  let ok = true;
  decl.requires.forEach((req, i) => {
    if (isRecord(req) && Object.keys(req).length === 1 && isKey(req.fact)) {
      out.push({ kind: 'fact', fact: req.fact });
    } else if (
      isRecord(req) &&
      Object.keys(req).length === 2 &&
      isKey(req.entity) &&
      typeof req.status === 'string' &&
      textProblem(req.status, false) === null
    ) {
      out.push({ kind: 'status', entity: req.entity, status: req.status.normalize('NFC') });
    } else {
      report(['requires', i], 'LEDGER_BAD_VALUE', 'a condition is {fact: id} or {entity: key, status: text}');
      ok = false;
    }
  });
  return ok ? out : null;
}

/** Names for the tool schema's hints (spec.ts `recordWorldChangesJsonSchema`). */
export function schemaHints(policy: LedgerPolicy): {
  rulesOwnedAttributes: string[];
  declaredAttributes: string[];
} {
  return {
    rulesOwnedAttributes: [...policy.rulesOwned].sort(),
    declaredAttributes: [...policy.attributes.keys()].sort(),
  };
}
