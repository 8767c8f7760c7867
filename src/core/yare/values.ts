// Runtime values of YARE. Python semantics: ints and floats are kept apart. An int is a plain JS number
// holding a safe integer; a float is always boxed in `PyFloat` (even 3.0), so `7 / 7` is the float 1.0
// and prints as `1.0`. Durations (`timedelta`) are `Duration`, exact over Python's whole range. Dicts inherit nothing (see `DICT_PROTOTYPE`), so no
// key (`__proto__`, `constructor`) can reach a prototype.
//
// State (what is stored and sent over the wire) is plain JSON: `toStateValue` turns floats into plain
// numbers and durations into ISO-8601 strings before anything is written to `state`.

export class PyFloat {
  constructor(readonly value: number) {}
}

export class Duration {
  /**
   * Whole microseconds, like Python's timedelta resolution, as a big integer: Python's range
   * (±999,999,999 days) is about 2^66 microseconds, far past what one JS number holds exactly.
   */
  readonly micros: bigint;
  constructor(micros: number | bigint) {
    this.micros = BigInt(micros);
  }
}

export interface Dict {
  [key: string]: Value;
}

export type Value = null | boolean | number | string | PyFloat | Duration | Value[] | Dict;

/** JSON-compatible value as stored in state. */
export type StateValue = null | boolean | number | string | StateValue[] | { [key: string]: StateValue };

/**
 * The prototype of every dict: empty, frozen, and itself without a prototype. A dict therefore inherits
 * nothing (`constructor`, `toString`, `__proto__` are ordinary keys, and `__proto__` has no setter to
 * hijack), yet V8 keeps it in fast property mode — `Object.create(null)` objects are dictionary-mode and
 * several times slower to copy and read, which the copy-on-write interpreter does on every write.
 */
export const DICT_PROTOTYPE: object = Object.freeze(Object.create(null));

export function newDict(): Dict {
  return Object.create(DICT_PROTOTYPE) as Dict;
}

/** Whether an object inherits no properties at all (a dict of ours, or a null-prototype object). */
export function inheritsNothing(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === DICT_PROTOTYPE;
}

export function isDict(v: unknown): v is Dict {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof PyFloat) &&
    !(v instanceof Duration)
  );
}

/** A deep copy of a value: its lists and dicts new, so writing into the copy leaves the original. */
export function cloneValue(v: Value): Value {
  if (Array.isArray(v)) return v.map(cloneValue);
  if (isDict(v)) {
    const d = newDict();
    for (const k of Object.keys(v)) d[k] = cloneValue(v[k] as Value);
    return d;
  }
  return v;
}

/**
 * Untrusted plain data (JSON from a file, a request or a model) as a YARE value: dicts become
 * null-prototype objects, so a `__proto__` key is just a key. Throws on what JSON cannot hold.
 */
export function toValue(input: unknown, depth = 0): Value {
  if (depth > 64) throw new TypeError('value nested deeper than 64 levels');
  if (input === null || input === undefined) return null;
  switch (typeof input) {
    case 'boolean':
    case 'string':
      return input;
    case 'number':
      if (!Number.isFinite(input)) throw new TypeError(`non-finite number ${input}`);
      return input;
    case 'object': {
      if (input instanceof PyFloat || input instanceof Duration) return input;
      if (Array.isArray(input)) return input.map((item) => toValue(item, depth + 1));
      const dict = newDict();
      for (const key of Object.keys(input))
        dict[key] = toValue((input as Record<string, unknown>)[key], depth + 1);
      return dict;
    }
    default:
      throw new TypeError(`unsupported value of type ${typeof input}`);
  }
}
