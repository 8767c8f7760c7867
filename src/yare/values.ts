// Runtime values of YARE. Python semantics: ints and floats are kept apart. An int is a plain JS number
// holding a safe integer; a float is always boxed in `PyFloat` (even 3.0), so `7 / 7` is the float 1.0
// and prints as `1.0`. Durations (`timedelta`) are `Duration`. Dicts are null-prototype objects, so no
// key (`__proto__`, `constructor`) can reach a prototype.
//
// State (what is stored and sent over the wire) is plain JSON: `toStateValue` turns floats into plain
// numbers and durations into ISO-8601 strings before anything is written to `state`.

export class PyFloat {
  constructor(readonly value: number) {}
}

export class Duration {
  /** Whole microseconds, like Python's timedelta resolution. */
  constructor(readonly micros: number) {}
}

export interface Dict {
  [key: string]: Value;
}

export type Value = null | boolean | number | string | PyFloat | Duration | Value[] | Dict;

/** JSON-compatible value as stored in state. */
export type StateValue = null | boolean | number | string | StateValue[] | { [key: string]: StateValue };

export function newDict(): Dict {
  return Object.create(null) as Dict;
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
