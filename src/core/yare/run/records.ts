// The ids a create step makes (docs/yare.md, "Collections of records"): the collection's prefix and a
// number past every number used so far, kept in the engine's `_next_ids` field. (A record written whole is
// made a record of its collection by run/coerce.ts.)

import type { RecordSchema } from '../program.ts';
import type { Dict, Value } from '../values.ts';

/** The engine's own field counting the ids each collection's create steps have made, by collection path. */
export const NEXT_IDS_KEY = '_next_ids';

/**
 * The number of the next id of a collection: past the count kept in `_next_ids` and past every id of the
 * form prefix + number the collection holds (so a state written by hand, or without `_next_ids`, never
 * gets an id twice).
 */
export function nextIdNumber(records: Dict, record: RecordSchema, kept: Value): number {
  let next = typeof kept === 'number' && Number.isSafeInteger(kept) && kept > 0 ? kept : 0;
  const prefix = record.idPrefix;
  for (const id of Object.keys(records)) {
    if (!id.startsWith(prefix)) continue;
    const digits = id.slice(prefix.length);
    if (digits === '' || digits.length > 15 || !/^\d+$/.test(digits)) continue;
    const n = Number(digits);
    if (n >= next) next = n + 1;
  }
  return next;
}
