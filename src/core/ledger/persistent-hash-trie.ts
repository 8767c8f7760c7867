// A persistent (structurally shared) string-keyed table, so applying a batch costs O(batch), not O(world).
//
// Layout: a two-level hash trie of fixed width — FANOUT directories of FANOUT buckets, each bucket a Map.
// A writer copies the top directory once, each directory and bucket it writes once, so one write costs
// O(2·FANOUT + size / FANOUT²) whatever the world size: about 130 pointer copies at 100 records and at
// 10,000 alike. Measured in bench/ledger.ts: a one-level directory of 256 buckets still grew 2.8× from
// 100 to 10,000 entities (each bucket copy carried ~40 records); a full HAMT is O(log n) but needs node
// bitmaps and collision nodes for no gain at the sizes the ledger limits allow.
//
// A world's tables stay plain-looking objects for every reader (`world.entities[key]`, `lookup`, `for…in`,
// `Object.keys`, `JSON.stringify`): `tableView` wraps a PersistentHashTrie in a read-only Proxy. Key order is the
// order a plain object would give: array-index keys first in ascending numeric order, then every other
// key in first-insertion order (a record replaced later keeps its place), so summaries, JSON and snapshots
// are byte-identical to what the plain tables produced.

const FANOUT = 64;
const SHIFT = 6;

interface Slot<T> {
  readonly value: T;
  /** First-insertion sequence number: the key's place in iteration order. */
  readonly seq: number;
}

type Bucket<T> = Map<string, Slot<T>>;
type Directory<T> = (Bucket<T> | undefined)[];
type Top<T> = (Directory<T> | undefined)[];

/** FNV-1a of the key's UTF-16 units: the low SHIFT bits pick the directory, the next SHIFT the bucket. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function bucketIn<T>(top: Top<T>, key: string): Bucket<T> | undefined {
  const hash = hashOf(key);
  return top[hash & (FANOUT - 1)]?.[(hash >>> SHIFT) & (FANOUT - 1)];
}

/** A canonical array index ("0", "17"; not "01" or "4294967295"), which plain objects list first. */
function arrayIndex(key: string): number | undefined {
  if (key.length === 0 || key.length > 10) return undefined;
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && n < 4294967295 && String(n) === key ? n : undefined;
}

/**
 * How a table's key order follows from an earlier table's: those keys, then the keys added since (new
 * named keys come after every older one). Kept instead of the order itself until someone reads it, so a
 * batch costs O(keys it adds), not a copy of the order.
 */
interface PendingOrder {
  readonly keys: readonly string[];
  readonly added: readonly string[];
}

/** Keys added since the last table whose order was read, past which a table is ordered from scratch. */
const MAX_PENDING_KEYS = 1_024;

export class PersistentHashTrie<T> {
  private orderedKeys: readonly string[] | undefined;
  private orderedValues: readonly T[] | undefined;
  private pending: PendingOrder | undefined;

  constructor(
    /** Never mutated once a PersistentHashTrie holds it. */
    readonly top: Readonly<Top<T>>,
    readonly size: number,
    readonly nextSeq: number,
    /** How the order follows from an earlier table's, when the writer knew (see TableWriter.finish). */
    pending?: PendingOrder,
  ) {
    this.pending = pending;
  }

  static empty<T>(): PersistentHashTrie<T> {
    return new PersistentHashTrie<T>(new Array(FANOUT).fill(undefined), 0, 0, { keys: [], added: [] });
  }

  get(key: string): T | undefined {
    return bucketIn(this.top as Top<T>, key)?.get(key)?.value;
  }

  has(key: string): boolean {
    return bucketIn(this.top as Top<T>, key)?.has(key) ?? false;
  }

  /** Every key in plain-object order; computed once per table (tables never change). */
  keys(): readonly string[] {
    if (this.orderedKeys === undefined) {
      if (this.pending !== undefined) {
        this.orderedKeys =
          this.pending.added.length === 0 ? this.pending.keys : this.pending.keys.concat(this.pending.added);
        this.pending = undefined;
      } else this.order();
    }
    return this.orderedKeys!;
  }

  /** What a table written from this one can derive its order from (undefined: it sorts when read). */
  orderBasis(): PendingOrder | undefined {
    return this.orderedKeys !== undefined ? { keys: this.orderedKeys, added: [] } : this.pending;
  }

  /** Every value, in the order of `keys()`. */
  values(): readonly T[] {
    if (this.orderedValues === undefined) {
      const keys = this.orderedKeys ?? (this.pending !== undefined ? this.keys() : undefined);
      if (keys === undefined) this.order();
      else this.orderedValues = keys.map((key) => this.get(key)!);
    }
    return this.orderedValues!;
  }

  private order(): void {
    const indexed: [number, string, T][] = [];
    const named: [number, string, T][] = [];
    for (const directory of this.top) {
      if (!directory) continue;
      for (const bucket of directory) {
        if (!bucket) continue;
        for (const [key, slot] of bucket) {
          const n = arrayIndex(key);
          if (n === undefined) named.push([slot.seq, key, slot.value]);
          else indexed.push([n, key, slot.value]);
        }
      }
    }
    indexed.sort((a, b) => a[0] - b[0]);
    named.sort((a, b) => a[0] - b[0]);
    const keys: string[] = [];
    const values: T[] = [];
    for (const [, key, value] of indexed) {
      keys.push(key);
      values.push(value);
    }
    for (const [, key, value] of named) {
      keys.push(key);
      values.push(value);
    }
    this.orderedKeys = keys;
    this.orderedValues = values;
  }
}

/** Changes a PersistentHashTrie without touching it: the directory and each bucket are copied on first write. */
export class TableWriter<T> {
  private top: Top<T>;
  private size: number;
  private nextSeq: number;
  private ownsTop = false;
  /** Directories (by index) and buckets (by FANOUT·directory + bucket) this writer has copied. */
  private readonly ownedDirectories = new Set<number>();
  private readonly ownedBuckets = new Set<number>();
  private frozen: PersistentHashTrie<T> | undefined;
  /** The table the writes since the last finish apply to, and the keys they added, in order. */
  private base: PersistentHashTrie<T>;
  private added: string[] = [];
  private addedIndex = false;

  constructor(base: PersistentHashTrie<T>) {
    this.top = base.top as Top<T>;
    this.size = base.size;
    this.nextSeq = base.nextSeq;
    this.frozen = base;
    this.base = base;
  }

  get(key: string): T | undefined {
    return bucketIn(this.top, key)?.get(key)?.value;
  }

  set(key: string, value: T): void {
    const hash = hashOf(key);
    const d = hash & (FANOUT - 1);
    const b = (hash >>> SHIFT) & (FANOUT - 1);
    if (!this.ownsTop) {
      this.top = this.top.slice();
      this.ownsTop = true;
    }
    let directory = this.top[d];
    if (!this.ownedDirectories.has(d)) {
      directory = directory ? directory.slice() : new Array(FANOUT).fill(undefined);
      this.top[d] = directory;
      this.ownedDirectories.add(d);
    }
    let bucket = directory![b];
    if (!this.ownedBuckets.has(d * FANOUT + b)) {
      bucket = bucket ? new Map(bucket) : new Map();
      directory![b] = bucket;
      this.ownedBuckets.add(d * FANOUT + b);
    }
    const old = bucket!.get(key);
    if (old) bucket!.set(key, { value, seq: old.seq });
    else {
      bucket!.set(key, { value, seq: this.nextSeq++ });
      this.size++;
      this.added.push(key);
      if (arrayIndex(key) !== undefined) this.addedIndex = true;
    }
    this.frozen = undefined;
  }

  /** The table as it is now. Later writes copy again, so the returned table never changes. */
  finish(): PersistentHashTrie<T> {
    if (this.frozen) return this.frozen;
    // A new named key goes after every key the base has (it has the highest sequence number), so when the
    // base's order is known (or derivable) this table's is that plus the added keys, kept pending until
    // read: no sort and no copy per batch, and a table read in order after every batch (GET /world at the
    // head) never sorts. An array-index key has its numeric place, so that table sorts when first read.
    const basis = this.base.orderBasis();
    const keys =
      basis === undefined || this.addedIndex || basis.added.length + this.added.length > MAX_PENDING_KEYS
        ? undefined
        : { keys: basis.keys, added: this.added.length === 0 ? basis.added : basis.added.concat(this.added) };
    this.frozen = new PersistentHashTrie(this.top, this.size, this.nextSeq, keys);
    this.base = this.frozen;
    this.added = [];
    this.addedIndex = false;
    this.ownsTop = false;
    this.ownedDirectories.clear();
    this.ownedBuckets.clear();
    return this.frozen;
  }
}

/** Views handed out, so a world table read back can be written again without rebuilding it. */
const tableOfView = new WeakMap<object, PersistentHashTrie<unknown>>();

function readOnly(): never {
  throw new TypeError('world tables are immutable; apply a ledger batch to change the world');
}

function plainCopy<T>(table: PersistentHashTrie<T>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  const keys = table.keys();
  const values = table.values();
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!;
  return out;
}

/** A read-only, plain-object-looking view of a table (null prototype, enumerable own data properties). */
export function tableView<T>(table: PersistentHashTrie<T>): Readonly<Record<string, T>> {
  const target = Object.create(null) as Record<string, T>;
  const handler: ProxyHandler<Record<string, T>> = {
    get: (_t, key) => {
      if (typeof key !== 'string') return undefined;
      // JSON.stringify asks every object for `toJSON`: answering with a plain copy (same keys, same
      // order, so the same bytes) lets it encode without a trap per record — 3.5× faster at 10,000
      // entities. Only when the table has no record of that name (world keys are lower-case anyway).
      if (key === 'toJSON' && !table.has(key)) return () => plainCopy(table);
      return table.get(key);
    },
    has: (_t, key) => typeof key === 'string' && table.has(key),
    ownKeys: () => table.keys() as string[],
    getOwnPropertyDescriptor: (_t, key) => {
      if (typeof key !== 'string') return undefined;
      const value = table.get(key);
      // configurable: a proxy may not report a non-configurable property its (empty) target lacks.
      return value === undefined && !table.has(key)
        ? undefined
        : { value, writable: false, enumerable: true, configurable: true };
    },
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
    setPrototypeOf: readOnly,
    preventExtensions: readOnly,
  };
  const view = new Proxy(target, handler);
  tableOfView.set(view, table as PersistentHashTrie<unknown>);
  return view;
}

/**
 * The PersistentHashTrie behind a world table: free for a view from `tableView`; a plain object (a world built
 * by hand or by an older decoder) is read once, in its own key order.
 */
export function hashTrieOf<T>(table: Readonly<Record<string, T>>): PersistentHashTrie<T> {
  const shared = tableOfView.get(table);
  if (shared) return shared as PersistentHashTrie<T>;
  const writer = new TableWriter<T>(PersistentHashTrie.empty());
  for (const key of Object.keys(table)) writer.set(key, table[key] as T);
  return writer.finish();
}

/** A plain-looking table holding `table`'s records, sharing its structure when it already is one. */
export function sharedView<T>(table: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return tableOfView.has(table) ? table : tableView(hashTrieOf(table));
}

/** A table's keys in plain-object order, without going through the view's traps when it is one. */
export function tableKeys(table: Readonly<Record<string, unknown>>): readonly string[] {
  return tableOfView.get(table)?.keys() ?? Object.keys(table);
}

/** A table's values in the order of `tableKeys`. */
export function tableValues<T>(table: Readonly<Record<string, T>>): readonly T[] {
  const shared = tableOfView.get(table);
  if (shared) return shared.values() as readonly T[];
  return Object.keys(table).map((key) => table[key] as T);
}

/**
 * Own-property lookup in a world table, straight from the shared table behind a view (one WeakMap hit
 * instead of two proxy traps); never reaches a prototype, whatever the key.
 */
export function tableGet<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  const shared = tableOfView.get(table);
  if (shared) return shared.get(key) as T | undefined;
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Calls `visit` for every key whose record differs between two tables (added, replaced or gone), in no
 * particular order. Two shared tables are compared trie node by trie node: a directory or bucket both
 * hold (the same object) is skipped unread, so tables one batch apart cost about 2·FANOUT comparisons
 * plus the changed buckets, whatever their size. A plain table on either side is compared key by key.
 */
export function diffTables<T>(
  before: Readonly<Record<string, T>>,
  after: Readonly<Record<string, T>>,
  visit: (key: string, old: T | undefined, now: T | undefined) => void,
): void {
  if (before === after) return;
  const a = tableOfView.get(before) as PersistentHashTrie<T> | undefined;
  const b = tableOfView.get(after) as PersistentHashTrie<T> | undefined;
  if (a !== undefined && b !== undefined) {
    diffShared(a, b, visit);
    return;
  }
  for (const key of tableKeys(before)) {
    const old = tableGet(before, key);
    const now = tableGet(after, key);
    if (old !== now) visit(key, old, now);
  }
  const had = (key: string): boolean => (a !== undefined ? a.has(key) : Object.hasOwn(before, key));
  for (const key of tableKeys(after)) if (!had(key)) visit(key, undefined, tableGet(after, key));
}

function diffShared<T>(
  a: PersistentHashTrie<T>,
  b: PersistentHashTrie<T>,
  visit: (key: string, old: T | undefined, now: T | undefined) => void,
): void {
  if (a.top === b.top) return;
  for (let d = 0; d < FANOUT; d++) {
    const da = a.top[d];
    const db = b.top[d];
    if (da === db) continue;
    for (let i = 0; i < FANOUT; i++) {
      const ba = da?.[i];
      const bb = db?.[i];
      if (ba === bb) continue;
      if (ba !== undefined)
        for (const [key, slot] of ba) {
          const now = bb?.get(key);
          if (now === undefined || now.value !== slot.value) visit(key, slot.value, now?.value);
        }
      if (bb !== undefined)
        for (const [key, slot] of bb) if (!ba?.has(key)) visit(key, undefined, slot.value);
    }
  }
}
