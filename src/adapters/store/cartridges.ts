// Content-addressed cartridge versions: a session pins one version id and always plays exactly it.

import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { encodeJson } from './json.ts';
import { MAX_CARTRIDGE_BYTES } from './limits.ts';
import type { CartridgeSummary, CartridgeVersion } from './library-records.ts';
import { toCartridgeSummary, toCartridgeVersion } from './rows.ts';
import { checkContentHash, checkName, checkTimestamp } from './validate.ts';

const SUMMARY_COLUMNS = ['id', 'name', 'content_hash', 'created_at'] as const;

export async function putCartridgeVersion(
  ctx: StoreContext,
  input: { name: string; contentHash: string; files: unknown; createdAt?: number },
): Promise<CartridgeVersion> {
  const row = {
    id: ctx.newId(),
    name: checkName('putCartridgeVersion.name', input.name),
    content_hash: checkContentHash('putCartridgeVersion.contentHash', input.contentHash),
    files: encodeJson('putCartridgeVersion.files', input.files, MAX_CARTRIDGE_BYTES, 'MAX_CARTRIDGE_BYTES'),
    created_at: checkTimestamp('putCartridgeVersion.createdAt', input.createdAt ?? ctx.now()),
  };
  // ON CONFLICT DO NOTHING makes two processes storing the same content at once agree on one row.
  await ctx.db
    .insertInto('cartridge_versions')
    .values(row)
    .onConflict((oc) => oc.column('content_hash').doNothing())
    .execute();
  const stored = await ctx.db
    .selectFrom('cartridge_versions')
    .selectAll()
    .where('content_hash', '=', row.content_hash)
    .executeTakeFirstOrThrow();
  if (stored.name !== row.name) {
    throw new StoreInputError(
      'putCartridgeVersion.contentHash',
      `${row.content_hash} is already stored as cartridge '${stored.name}', not '${row.name}' (the hash must cover the name)`,
    );
  }
  return toCartridgeVersion(stored);
}

export async function getCartridgeVersion(
  ctx: StoreContext,
  idOrHash: string,
): Promise<CartridgeVersion | undefined> {
  const row = await ctx.db
    .selectFrom('cartridge_versions')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrHash), eb('content_hash', '=', idOrHash)]))
    .executeTakeFirst();
  return row && toCartridgeVersion(row);
}

export async function listCartridges(ctx: StoreContext): Promise<CartridgeSummary[]> {
  const rows = await ctx.db
    .selectFrom('cartridge_versions')
    .select(SUMMARY_COLUMNS)
    .orderBy('name')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const byName = new Map<string, CartridgeSummary>();
  for (const row of rows) {
    const seen = byName.get(row.name);
    if (seen === undefined)
      byName.set(row.name, { name: row.name, latest: toCartridgeSummary(row), versionCount: 1 });
    else seen.versionCount += 1;
  }
  return [...byName.values()];
}
