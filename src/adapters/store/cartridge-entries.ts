// Principals' cartridge libraries (migration 0003). A stored version is shared by content hash; an entry
// says that an owner has it under a name. Names resolve within the operator's entries (owner '', the
// cartridges the server registers at start) and then the caller's own, so one principal's upload never
// changes what another's name means. Entries count their bytes against their owner's quota.

import { sql } from 'kysely';
import type { StorageUsage } from './library-records.ts';
import type { StoreContext } from './context.ts';
import type {
  CartridgeAccess,
  CartridgeVersionSummary,
  DeleteCartridgeResult,
  OwnedCartridgeSummary,
} from './repository.ts';
import { inTransaction } from './transaction.ts';
import { checkId, checkName, checkTimestamp } from './validate.ts';

/** The owner id of the operator's entries. */
export const OPERATOR_OWNER = '';

export function checkOwner(place: string, value: unknown): string {
  return value === OPERATOR_OWNER ? OPERATOR_OWNER : checkId(place, value);
}

export async function addCartridgeEntry(
  ctx: StoreContext,
  input: { ownerId: string; versionId: string; name: string; bytes: number; createdAt?: number },
): Promise<void> {
  const row = {
    owner_id: checkOwner('addCartridgeEntry.ownerId', input.ownerId),
    version_id: checkId('addCartridgeEntry.versionId', input.versionId),
    name: checkName('addCartridgeEntry.name', input.name),
    bytes: Math.max(0, Math.trunc(input.bytes)),
    created_at: checkTimestamp('addCartridgeEntry.createdAt', input.createdAt ?? ctx.now()),
  };
  await inTransaction(ctx.db, ctx.dialect, async (trx) => {
    // The cartridge's own row (metadata, visibility) exists from its first version on: the operator's
    // cartridges are offered to everyone, a principal's are private until its owner says otherwise.
    await trx
      .insertInto('cartridges')
      .values({
        id: ctx.newId(),
        owner_id: row.owner_id,
        name: row.name,
        title: row.name,
        description: '',
        genre: '',
        tags: '[]',
        visibility: row.owner_id === OPERATOR_OWNER ? 'public' : 'private',
        archived_at: null,
        created_at: row.created_at,
        updated_at: row.created_at,
      })
      .onConflict((oc) => oc.columns(['owner_id', 'name']).doNothing())
      .execute();
    // Adding again re-stamps the entry: the server's start-up registration makes its cartridges the newest.
    await trx
      .insertInto('cartridge_entries')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['owner_id', 'version_id']).doUpdateSet({ created_at: row.created_at, name: row.name }),
      )
      .execute();
  });
}

const ENTRY_COLUMNS = [
  'e.owner_id as owner_id',
  'e.name as name',
  'e.created_at as created_at',
  'v.id as id',
  'v.content_hash as content_hash',
] as const;

/**
 * The entries the viewer may start (the operator's public ones and their own, neither archived; of one name
 * when given), by name, then precedence (the operator's first), then newest first.
 */
/**
 * Entries as `e` joined to their cartridge as `c`, neither archived: what may be started or is offered to
 * others.
 */
export function listedEntries(db: StoreContext['db']) {
  return db
    .selectFrom('cartridge_entries as e')
    .innerJoin('cartridges as c', (join) =>
      join.onRef('c.owner_id', '=', 'e.owner_id').onRef('c.name', '=', 'e.name'),
    )
    .where('e.archived_at', 'is', null)
    .where('c.archived_at', 'is', null);
}

function entriesOf(ctx: StoreContext, ownerId: string, name?: string) {
  const owner = checkOwner('ownerId', ownerId);
  let query = listedEntries(ctx.db)
    .innerJoin('cartridge_versions as v', 'v.id', 'e.version_id')
    .select(ENTRY_COLUMNS)
    .where((eb) =>
      eb.or([
        eb.and([eb('e.owner_id', '=', OPERATOR_OWNER), eb('c.visibility', '=', 'public')]),
        eb('e.owner_id', '=', owner),
      ]),
    );
  if (name !== undefined) query = query.where('e.name', '=', name);
  return query
    .orderBy('e.name')
    .orderBy(sql`case when e.owner_id = ${OPERATOR_OWNER} then 0 else 1 end`)
    .orderBy('e.created_at', 'desc')
    .orderBy('v.id', 'desc');
}

function summaryOf(row: { id: string; name: string; content_hash: string; created_at: number }) {
  return { id: row.id, name: row.name, contentHash: row.content_hash, createdAt: Number(row.created_at) };
}

/** The newest version of `name` the owner may start: the operator's name wins over the owner's own. */
export async function resolveCartridgeName(
  ctx: StoreContext,
  ownerId: string,
  name: string,
): Promise<string | undefined> {
  const row = await entriesOf(ctx, ownerId, name).executeTakeFirst();
  return row?.id;
}

export async function listOwnedCartridges(
  ctx: StoreContext,
  ownerId: string,
): Promise<OwnedCartridgeSummary[]> {
  const rows = await entriesOf(ctx, ownerId).execute();
  const byName = new Map<string, OwnedCartridgeSummary>();
  for (const row of rows) {
    const seen = byName.get(row.name);
    if (seen === undefined) {
      byName.set(row.name, {
        name: row.name,
        latest: summaryOf(row),
        versionCount: 1,
        owner: row.owner_id === OPERATOR_OWNER ? 'operator' : 'self',
      });
    } else seen.versionCount += 1;
  }
  return [...byName.values()];
}

export async function listOwnedCartridgeVersions(
  ctx: StoreContext,
  ownerId: string,
  name: string,
): Promise<CartridgeVersionSummary[]> {
  const rows = await entriesOf(ctx, ownerId, name).execute();
  const seen = new Set<string>();
  const out: CartridgeVersionSummary[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    out.push(summaryOf(row));
  }
  return out;
}

/**
 * How a principal may read a version; undefined when it may not see it at all. Their own entry (archived or
 * not) makes them its owner; a listed entry of a public cartridge shows it to everyone; a session of theirs
 * that plays it keeps it readable after it is archived or deleted.
 */
export async function cartridgeAccess(
  ctx: StoreContext,
  principalId: string,
  versionId: string,
): Promise<CartridgeAccess | undefined> {
  const owner = checkOwner('cartridgeAccess.principalId', principalId);
  const own = await ctx.db
    .selectFrom('cartridge_entries')
    .select('owner_id')
    .where('version_id', '=', versionId)
    .where('owner_id', '=', owner)
    .executeTakeFirst();
  if (own !== undefined) return 'owner';
  // A listed entry of a public cartridge; the operator's first (it says who offers the version).
  const listed = await listedEntries(ctx.db)
    .select('e.owner_id as owner_id')
    .where('e.version_id', '=', versionId)
    .where('c.visibility', '=', 'public')
    .orderBy(sql`case when e.owner_id = ${OPERATOR_OWNER} then 0 else 1 end`)
    .limit(1)
    .executeTakeFirst();
  if (listed !== undefined) return listed.owner_id === OPERATOR_OWNER ? 'operator' : 'public';
  const session = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('principal_id', '=', owner)
    .where('cartridge_version_id', '=', versionId)
    .limit(1)
    .executeTakeFirst();
  return session === undefined ? undefined : 'player';
}

/**
 * What the owner stores, in bytes, all of it counted against the quota: cartridge entries, cover images,
 * builder drafts (files and transcript) and turns' pictures; `bytes` is their sum. And the owner's versions.
 */
export async function cartridgeUsage(ctx: StoreContext, ownerId: string): Promise<StorageUsage> {
  const owner = checkOwner('cartridgeUsage.ownerId', ownerId);
  const row = await ctx.db
    .selectFrom('cartridge_entries')
    .select([sql<number | string | null>`sum(bytes)`.as('bytes'), sql<number | string>`count(*)`.as('n')])
    .where('owner_id', '=', owner)
    .executeTakeFirst();
  const covers = await ctx.db
    .selectFrom('cartridge_covers as k')
    .innerJoin('cartridges as c', 'c.id', 'k.cartridge_id')
    .select(sql<number | string | null>`sum(k.bytes)`.as('bytes'))
    .where('c.owner_id', '=', owner)
    .executeTakeFirst();
  // octet_length reads the size from the row's header on both databases (SQLite 3.43+, PostgreSQL's TOAST
  // header), never the text: `length(cast(… as blob))` read every draft whole on each save, ~1 ms per
  // megabyte on the request thread (100 generated drafts: 86–144 ms per save on an unloaded machine).
  const textBytes = (column: 'files' | 'transcript') =>
    sql<number>`coalesce(octet_length(${sql.ref(column)}), 0)`;
  const drafts = await ctx.db
    .selectFrom('drafts')
    .select(sql<number | string | null>`sum(${textBytes('files')} + ${textBytes('transcript')})`.as('bytes'))
    .where('principal_id', '=', owner)
    .executeTakeFirst();
  const pictures = await ctx.db
    .selectFrom('turn_pictures')
    .select(sql<number | string | null>`sum(bytes)`.as('bytes'))
    .where('owner_id', '=', owner)
    .executeTakeFirst();
  const cartridgeBytes = Number(row?.bytes ?? 0);
  const coverBytes = Number(covers?.bytes ?? 0);
  const draftBytes = Number(drafts?.bytes ?? 0);
  const pictureBytes = Number(pictures?.bytes ?? 0);
  return {
    bytes: cartridgeBytes + coverBytes + draftBytes + pictureBytes,
    cartridgeBytes,
    coverBytes,
    draftBytes,
    pictureBytes,
    versions: Number(row?.n ?? 0),
  };
}

/** Sessions (anyone's: a public cartridge is played by every principal) that play the version. */
export async function sessionsPlaying(db: StoreContext['db'], versionId: string): Promise<number> {
  const playing = await db
    .selectFrom('sessions')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('cartridge_version_id', '=', versionId)
    .executeTakeFirst();
  return Number(playing?.n ?? 0);
}

/**
 * Removes one entry and, when nothing refers to it any more, the stored version; the cartridge's row goes
 * with its last entry. Runs inside the caller's transaction. True when the stored version was deleted.
 */
export async function removeEntry(
  trx: StoreContext['db'],
  owner: string,
  name: string,
  versionId: string,
): Promise<boolean> {
  await trx
    .deleteFrom('cartridge_entries')
    .where('owner_id', '=', owner)
    .where('version_id', '=', versionId)
    .execute();
  const sibling = await trx
    .selectFrom('cartridge_entries')
    .select('version_id')
    .where('owner_id', '=', owner)
    .where('name', '=', name)
    .limit(1)
    .executeTakeFirst();
  if (sibling === undefined)
    await trx.deleteFrom('cartridges').where('owner_id', '=', owner).where('name', '=', name).execute();
  const others = await trx
    .selectFrom('cartridge_entries')
    .select('owner_id')
    .where('version_id', '=', versionId)
    .limit(1)
    .executeTakeFirst();
  const sessions = await trx
    .selectFrom('sessions')
    .select('id')
    .where('cartridge_version_id', '=', versionId)
    .limit(1)
    .executeTakeFirst();
  const versionDeleted = others === undefined && sessions === undefined;
  if (versionDeleted) await trx.deleteFrom('cartridge_versions').where('id', '=', versionId).execute();
  return versionDeleted;
}

/**
 * Removes the owner's entry. A version a session plays is kept (`in-use`) unless its entry is archived:
 * then the entry goes and the stored version stays for those sessions. The stored version itself goes when
 * no entry and no session refers to it any more.
 */
export async function deleteCartridgeEntry(
  ctx: StoreContext,
  ownerId: string,
  versionId: string,
): Promise<DeleteCartridgeResult> {
  const owner = checkOwner('deleteCartridgeEntry.ownerId', ownerId);
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const entry = await trx
      .selectFrom('cartridge_entries')
      .select(['version_id', 'name', 'archived_at'])
      .where('owner_id', '=', owner)
      .where('version_id', '=', versionId)
      .executeTakeFirst();
    if (entry === undefined) return { ok: false, reason: 'not-found' };
    if (entry.archived_at === null) {
      const playing = await sessionsPlaying(trx, versionId);
      if (playing > 0) return { ok: false, reason: 'in-use', sessions: playing };
    }
    const versionDeleted = await removeEntry(trx, owner, entry.name, versionId);
    return { ok: true, versionDeleted };
  });
}
