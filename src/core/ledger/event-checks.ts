// The ledger's reference pass: one shape-checked event against the scratch world that already holds the
// batch's earlier events — references, uniqueness, cycles and the write policy. The references every
// event needs come from its table row (`refs`: each must name an existing entity); what is particular
// to a kind is its own checker, chosen by one exhaustive switch.

import type { WorldDraft } from './apply.ts';
import { engineFactId } from './apply.ts';
import { type LedgerError, type LedgerErrorCode, ledgerError } from './errors.ts';
import type { LedgerEvent, LedgerScalar } from './events.ts';
import { ENGINE_FACT_ID_PATTERN } from './limits.ts';
import type { AttributeDecl, LedgerPolicy } from './policy.ts';
import { LEDGER_SPECS, type LedgerEventType } from './spec.ts';
import { assertNever, nameFold, nameSkeleton, quote } from './text.ts';
import {
  type EntityRecord,
  getFact,
  isRelationshipActive,
  lookup,
  relationshipId,
  type Stamp,
  type World,
} from './world.ts';

/**
 * Who proposes the batch. The plausibility rules and per-turn change caps bind the narrator;
 * a cartridge's starting world is authored, not proposed, so only shape, references and rules ownership
 * bind it.
 */
export type BatchSource = 'narrator' | 'cartridge';

export interface CheckContext {
  readonly draft: WorldDraft;
  readonly policy: LedgerPolicy;
  /** The committed world before this batch (per-turn change caps compare against it). */
  readonly before: World;
  readonly at: Stamp;
  readonly source: BatchSource;
}

type EventOf<K extends LedgerEventType> = Extract<LedgerEvent, { type: K }>;
type Problem = LedgerError | null;

/** The first problem with `event` at this point of the batch, or null when it may apply. */
export function checkEvent(ctx: CheckContext, event: LedgerEvent, index: number): Problem {
  return checkRefs(ctx, event, index) ?? checkKind(ctx, event, index);
}

function checkKind(ctx: CheckContext, event: LedgerEvent, index: number): Problem {
  switch (event.type) {
    case 'create_entity':
      return checkCreateEntity(ctx, event, index);
    case 'set_entity_status':
    case 'set_entity_conditions':
    case 'clear_possession':
      // Nothing beyond the row's references: the entity (or item) must exist.
      return null;
    case 'set_entity_attribute':
      return checkAttribute(ctx, event, index);
    case 'set_current_location':
      return checkSetLocation(event, index);
    case 'set_possession':
      return checkSetPossession(ctx, event, index);
    case 'add_fact':
      return checkAddFact(ctx, event, index);
    case 'invalidate_fact':
      return checkInvalidateFact(ctx, event, index);
    case 'add_relationship':
      return checkAddRelationship(ctx, event, index);
    case 'end_relationship':
      return checkEndRelationship(ctx, event, index);
    case 'open_story_thread':
      return checkOpenThread(ctx, event, index);
    case 'resolve_story_thread':
      return checkResolveThread(ctx, event, index);
    case 'set_scene':
      // Its location and each present entity are row references; nothing else to check.
      return null;
    default:
      return assertNever(event);
  }
}

/**
 * The row's `refs`, in table order: each field present must name an entity that exists now (each item of
 * a list field). The full vocabulary's row is used even for a reduced table, whose rows are the same.
 */
function checkRefs(ctx: CheckContext, event: LedgerEvent, index: number): Problem {
  const row = LEDGER_SPECS[event.type];
  if (!row) return null;
  const fields: Readonly<Record<string, unknown>> = { ...event };
  for (const field of row.refs) {
    const value = fields[field];
    const keys = Array.isArray(value) ? value : [value];
    for (const key of keys) {
      if (typeof key === 'string' && !ctx.draft.entity(key)) {
        return ledgerError(
          index,
          'LEDGER_UNKNOWN_REF',
          `${field} ${quote(key)} does not exist; create it first with create_entity`,
          field,
        );
      }
    }
  }
  return null;
}

function checkCreateEntity(ctx: CheckContext, event: EventOf<'create_entity'>, index: number): Problem {
  const { draft } = ctx;
  if (draft.entity(event.entity)) {
    return ledgerError(
      index,
      'LEDGER_DUPLICATE',
      `entity ${quote(event.entity)} already exists; refer to it instead`,
      'entity',
    );
  }
  if (draft.fact(event.entity)) {
    return ledgerError(
      index,
      'LEDGER_KEY_COLLISION',
      `${quote(event.entity)} is already a fact id; pick another key`,
      'entity',
    );
  }
  if (ENGINE_FACT_ID_PATTERN.test(event.entity)) {
    return ledgerError(
      index,
      'LEDGER_BAD_KEY',
      `${quote(event.entity)} has the shape of an engine fact id (f_<n>_<n>)`,
      'entity',
    );
  }
  return checkConfusable(ctx, event, index);
}

function checkSetLocation(event: EventOf<'set_current_location'>, index: number): Problem {
  return event.entity === event.location
    ? ledgerError(
        index,
        'LEDGER_SELF_REFERENCE',
        `${quote(event.entity)} cannot be located inside itself`,
        'location',
      )
    : null;
}

/** Bounds the walk up a chain of holders; a longer chain than any world holds ends it. */
const MAX_HOLDER_STEPS = 10_000;

function checkSetPossession(ctx: CheckContext, event: EventOf<'set_possession'>, index: number): Problem {
  const { draft } = ctx;
  if (event.item === event.owner) {
    return ledgerError(index, 'LEDGER_SELF_REFERENCE', `${quote(event.item)} cannot hold itself`, 'owner');
  }
  // Walk the owner's holders: giving a bag to the coin inside it would make possession circular.
  let holder = draft.entity(event.owner)?.holder;
  for (let steps = 0; holder !== undefined && steps < MAX_HOLDER_STEPS; steps++) {
    if (holder === event.item) {
      return ledgerError(
        index,
        'LEDGER_POSSESSION_CYCLE',
        `${quote(event.owner)} is itself held by ${quote(event.item)}`,
        'owner',
      );
    }
    holder = draft.entity(holder)?.holder;
  }
  return checkPlausibleGrant(ctx, event.item, event.owner, index);
}

function checkAddFact(ctx: CheckContext, event: EventOf<'add_fact'>, index: number): Problem {
  const { draft } = ctx;
  const err = (code: LedgerErrorCode, field: string, message: string): LedgerError =>
    ledgerError(index, code, message, field);
  if (event.fact_id !== undefined) {
    if (draft.fact(event.fact_id)) {
      return err(
        'LEDGER_DUPLICATE',
        'fact_id',
        `fact ${quote(event.fact_id)} already exists; use a new fact_id`,
      );
    }
    if (draft.entity(event.fact_id)) {
      return err(
        'LEDGER_KEY_COLLISION',
        'fact_id',
        `${quote(event.fact_id)} is an entity key; fact ids and entity keys share one namespace`,
      );
    }
    if (ENGINE_FACT_ID_PATTERN.test(event.fact_id)) {
      return err(
        'LEDGER_BAD_KEY',
        'fact_id',
        `${quote(event.fact_id)} has the shape of an engine fact id (f_<n>_<n>); omit fact_id to get one`,
      );
    }
  } else if (draft.fact(engineFactId(ctx.at.turn, index))) {
    return err(
      'LEDGER_DUPLICATE',
      'fact_id',
      `turn ${ctx.at.turn} already assigned fact ${engineFactId(ctx.at.turn, index)}`,
    );
  }
  // `object` is the row's entity-or-fact reference (refsEntityOrFact); a fact cannot be its own object.
  if (event.object !== undefined) {
    if (event.object === event.fact_id) {
      return err('LEDGER_SELF_REFERENCE', 'object', `fact ${quote(event.object)} cannot be its own object`);
    }
    if (!draft.entity(event.object) && !draft.fact(event.object)) {
      return err(
        'LEDGER_UNKNOWN_REF',
        'object',
        `object ${quote(event.object)} is neither an entity nor a fact`,
      );
    }
  }
  return null;
}

function checkInvalidateFact(ctx: CheckContext, event: EventOf<'invalidate_fact'>, index: number): Problem {
  const fact = ctx.draft.fact(event.fact_id);
  if (!fact) {
    return ledgerError(index, 'LEDGER_UNKNOWN_REF', `fact ${quote(event.fact_id)} does not exist`, 'fact_id');
  }
  if (fact.invalidated) {
    return ledgerError(
      index,
      'LEDGER_ALREADY_CLOSED',
      `fact ${quote(event.fact_id)} was already invalidated at turn ${fact.invalidated.turn}`,
      'fact_id',
    );
  }
  return null;
}

function checkAddRelationship(ctx: CheckContext, event: EventOf<'add_relationship'>, index: number): Problem {
  if (event.source === event.target && !ctx.policy.allowSelfRelationships) {
    return ledgerError(
      index,
      'LEDGER_SELF_REFERENCE',
      'a relationship needs two different entities',
      'target',
    );
  }
  const existing = ctx.draft.relationship(relationshipId(event.source, event.target, event.relationship));
  if (existing && isRelationshipActive(existing)) {
    return ledgerError(
      index,
      'LEDGER_DUPLICATE',
      `${quote(event.source)} already ${quote(event.relationship)} ${quote(event.target)}`,
      'relationship',
    );
  }
  return null;
}

function checkEndRelationship(ctx: CheckContext, event: EventOf<'end_relationship'>, index: number): Problem {
  const existing = ctx.draft.relationship(relationshipId(event.source, event.target, event.relationship));
  if (!existing) {
    return ledgerError(
      index,
      'LEDGER_UNKNOWN_REF',
      `no relationship ${quote(event.relationship)} from ${quote(event.source)} to ${quote(event.target)}`,
      'relationship',
    );
  }
  if (!isRelationshipActive(existing)) {
    return ledgerError(
      index,
      'LEDGER_ALREADY_CLOSED',
      `relationship ${quote(event.relationship)} already ended`,
      'relationship',
    );
  }
  return null;
}

function checkOpenThread(ctx: CheckContext, event: EventOf<'open_story_thread'>, index: number): Problem {
  return ctx.draft.thread(event.thread)
    ? ledgerError(index, 'LEDGER_DUPLICATE', `thread ${quote(event.thread)} already exists`, 'thread')
    : null;
}

function checkResolveThread(
  ctx: CheckContext,
  event: EventOf<'resolve_story_thread'>,
  index: number,
): Problem {
  const thread = ctx.draft.thread(event.thread);
  if (!thread) {
    return ledgerError(index, 'LEDGER_UNKNOWN_REF', `thread ${quote(event.thread)} does not exist`, 'thread');
  }
  if (thread.resolved) {
    return ledgerError(
      index,
      'LEDGER_ALREADY_CLOSED',
      `thread ${quote(event.thread)} was resolved at turn ${thread.resolved.turn}`,
      'thread',
    );
  }
  return checkThreadConditions(ctx, event.thread, index);
}

/** A new name that only *looks* like an existing one ("Mаra" with a Cyrillic а) is refused. */
function checkConfusable(
  ctx: CheckContext,
  event: EventOf<'create_entity'>,
  index: number,
): LedgerError | null {
  // Kept with the world and current with this batch's earlier creates (name-index.ts).
  const names = ctx.draft.nameIndex();
  const mine = [event.name, ...(event.aliases ?? [])];
  for (const name of mine) {
    const fold = nameFold(name);
    for (const other of names.lookalikes(nameSkeleton(name))) {
      // The same name written the same way (two "Guard"s) is allowed; a look-alike spelling is not.
      if (other.fold !== fold) {
        return ledgerError(
          index,
          'LEDGER_CONFUSABLE_NAME',
          `${quote(name)} looks like ${quote(other.name)} of entity ${quote(other.key)} but is spelled with different characters; reuse key ${quote(other.key)}`,
          name === event.name ? 'name' : 'aliases',
        );
      }
    }
  }
  return null;
}

function attributeTypeOf(value: LedgerScalar): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

/** The write policy for `set_entity_attribute`. */
function checkAttribute(ctx: CheckContext, event: EventOf<'set_entity_attribute'>, index: number): Problem {
  const { policy } = ctx;
  const { attribute, value } = event;
  const err = (code: LedgerErrorCode, message: string): LedgerError =>
    ledgerError(index, code, message, 'attribute');
  if (policy.rulesOwned.has(attribute)) {
    return err(
      'LEDGER_RULES_OWNED',
      `attribute ${quote(attribute)} is owned by the game rules; the narrator cannot set it`,
    );
  }
  const decl = policy.attributes.get(attribute);
  if (!decl) {
    return policy.undeclaredAttributes === 'reject'
      ? err(
          'LEDGER_UNDECLARED_ATTRIBUTE',
          `attribute ${quote(attribute)} is not declared; declared: ${[...policy.attributes.keys()].join(', ') || 'none'}`,
        )
      : null;
  }
  const valueErr = (code: LedgerErrorCode, message: string): LedgerError =>
    ledgerError(index, code, message, 'value');
  // null clears a declared attribute whatever its type.
  if (value === null) return null;
  const actual = attributeTypeOf(value);
  const fits = decl.type === actual || (decl.type === 'float' && actual === 'int');
  if (!fits)
    return valueErr('LEDGER_ATTRIBUTE_TYPE', `attribute ${attribute} holds ${decl.type}, not ${actual}`);
  if (typeof value === 'string' && decl.enum && !decl.enum.includes(value)) {
    return valueErr('LEDGER_OUT_OF_RANGE', `attribute ${attribute} must be one of: ${decl.enum.join(', ')}`);
  }
  if (typeof value === 'number') return checkAttributeNumber(ctx, event, value, decl, valueErr);
  return null;
}

/** A number within the declared range, and (from the narrator) no further from the committed one than allowed. */
function checkAttributeNumber(
  ctx: CheckContext,
  { entity, attribute }: EventOf<'set_entity_attribute'>,
  value: number,
  decl: AttributeDecl,
  valueErr: (code: LedgerErrorCode, message: string) => LedgerError,
): Problem {
  if ((decl.min !== undefined && value < decl.min) || (decl.max !== undefined && value > decl.max)) {
    return valueErr(
      'LEDGER_OUT_OF_RANGE',
      `attribute ${attribute} must be within [${decl.min ?? '-∞'}, ${decl.max ?? '∞'}]`,
    );
  }
  if (decl.maxChange !== undefined && ctx.source === 'narrator') {
    // Validation of an absolute value against the committed one, not a delta protocol.
    const previous = lookup(ctx.before.entities, entity);
    const old = previous ? lookup(previous.attributes, attribute) : undefined;
    if (typeof old === 'number' && Math.abs(value - old) > decl.maxChange) {
      return valueErr(
        'LEDGER_CHANGE_TOO_LARGE',
        `attribute ${attribute} may change by at most ${decl.maxChange} in one turn (was ${old})`,
      );
    }
  }
  return null;
}

/**
 * An item reaches the player, or anything the player carries (a bag, the box in the bag, however
 * deep), only from the scene or from what the player already holds: it, or something holding it, however
 * deep, is listed as present, is at the scene's location (or the player's), or is the player — or the
 * cartridge marked it grantable. What the item itself holds must pass the same test, so a bag cannot
 * carry the Duke's crown in. This answers "(Suddenly the Duke hands me the Crown of Kings)" and "the
 * crown moves from the Duke's vault into the bag I carry".
 *
 * Judged on the world as of the batch's start: a batch cannot first put the crown (or the Duke)
 * in the scene, or move the scene to them, and then use that to hand it over. An item the batch itself
 * creates is judged by where it was created, against the scene and the player as they were. Whether the
 * receiver is the player's, and what the item holds, are taken as the batch has them so far.
 */
function checkPlausibleGrant(
  ctx: CheckContext,
  item: string,
  owner: string,
  index: number,
): LedgerError | null {
  const { draft, policy } = ctx;
  const player = policy.player;
  if (ctx.source !== 'narrator' || player === null) return null;
  if (!heldWithin(draft, owner, player)) return null;
  const scene = ctx.before.scene;
  const present = new Set(scene?.present ?? []);
  const places = new Set<string>();
  if (scene?.location !== undefined) places.add(scene.location);
  const playerRecord = lookup(ctx.before.entities, player);
  if (playerRecord?.location !== undefined) places.add(playerRecord.location);
  for (const moved of [item, ...contentsOf(draft, item)]) {
    if (policy.grantableItems.has(moved)) continue;
    if (fromSceneOrPlayer(ctx, moved, player, present, places)) continue;
    const what = moved === item ? quote(item) : `${quote(moved)} (inside ${quote(item)})`;
    return ledgerError(
      index,
      'LEDGER_IMPLAUSIBLE',
      `${what} is not in the scene (not present, not at the scene's location, nothing holding it is there) and not already the player's, so it cannot pass to ${quote(owner)}`,
      'item',
    );
  }
  return null;
}

/** `key` is `holder`, or held by it through any chain of holders (as the batch has them so far). */
function heldWithin(draft: WorldDraft, key: string, holder: string): boolean {
  let current: string | undefined = key;
  for (let steps = 0; current !== undefined && steps < MAX_HOLDER_STEPS; steps++) {
    if (current === holder) return true;
    current = draft.entity(current)?.holder;
  }
  return false;
}

/** Everything `item` holds, however deep (as the batch has it so far). */
function contentsOf(draft: WorldDraft, item: string): string[] {
  const children = new Map<string, string[]>();
  for (const [key, record] of Object.entries(draft.entities())) {
    if (record.holder === undefined) continue;
    const list = children.get(record.holder);
    if (list === undefined) children.set(record.holder, [key]);
    else list.push(key);
  }
  const out: string[] = [];
  const seen = new Set([item]);
  const queue = [item];
  while (queue.length > 0 && out.length < MAX_HOLDER_STEPS) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * As of the batch's start: `key`, or something holding it however deep, is present in the scene, is at
 * one of `places`, or is the player.
 */
function fromSceneOrPlayer(
  ctx: CheckContext,
  key: string,
  player: string,
  present: ReadonlySet<string>,
  places: ReadonlySet<string>,
): boolean {
  let current: string | undefined = key;
  for (let steps = 0; current !== undefined && steps < MAX_HOLDER_STEPS; steps++) {
    if (current === player || present.has(current)) return true;
    const record: EntityRecord | undefined =
      lookup(ctx.before.entities, current) ?? ctx.draft.entity(current);
    if (record?.location !== undefined && places.has(record.location)) return true;
    current = record?.holder;
  }
  return false;
}

/**
 * A thread the cartridge gave conditions resolves only when they hold in the ledger, as of the
 * batch's start: a batch cannot add the fact (or set the status) it needs and resolve the thread with it.
 */
function checkThreadConditions(ctx: CheckContext, thread: string, index: number): LedgerError | null {
  if (ctx.source !== 'narrator') return null;
  const requirements = ctx.policy.threadRequirements.get(thread);
  if (!requirements) return null;
  for (const req of requirements) {
    switch (req.kind) {
      case 'fact': {
        const fact = getFact(ctx.before, req.fact);
        if (!fact || fact.invalidated) {
          return ledgerError(
            index,
            'LEDGER_CONDITIONS_UNMET',
            `thread ${thread} needs the fact ${req.fact} to hold`,
            'thread',
          );
        }
        break;
      }
      case 'status':
        if (lookup(ctx.before.entities, req.entity)?.status !== req.status) {
          return ledgerError(
            index,
            'LEDGER_CONDITIONS_UNMET',
            `thread ${thread} needs ${req.entity} to have status ${quote(req.status)}`,
            'thread',
          );
        }
        break;
      default:
        return assertNever(req);
    }
  }
  return null;
}
