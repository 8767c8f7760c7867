// The difference between two states as a list of changes, deletions included (the original's top-level
// merge lost deletions inside nested dicts): the turn record's delta and `run-event`'s printed diff.

import type { StateValue } from './values.ts';
import { isRecord } from '../is-record.ts';

export type StateChange =
  | {
      readonly op: 'set';
      readonly path: readonly string[];
      readonly before?: StateValue;
      readonly after: StateValue;
    }
  | { readonly op: 'delete'; readonly path: readonly string[]; readonly before: StateValue };

type Obj = { [key: string]: StateValue };

function isObj(v: unknown): v is Obj {
  return isRecord(v);
}

export function diffStates(before: unknown, after: unknown, path: string[] = []): StateChange[] {
  // Runs write copy-on-write (run/paths.ts): a part of the state no step wrote is the same object.
  if (before === after) return [];
  if (isObj(before) && isObj(after)) {
    const out: StateChange[] = [];
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key))
        out.push({ op: 'set', path: [...path, key], after: after[key] as StateValue });
      else out.push(...diffStates(before[key], after[key], [...path, key]));
    }
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(after, key))
        out.push({ op: 'delete', path: [...path, key], before: before[key] as StateValue });
    }
    return out;
  }
  if (deepEqual(before, after)) return [];
  return [{ op: 'set', path, before: before as StateValue, after: after as StateValue }];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
