// The difference between two states as a list of changes, deletions included, so a stored delta can be
// replayed exactly (the original's top-level merge lost deletions inside nested dicts).

import type { StateValue } from './values.ts';

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
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function diffStates(before: unknown, after: unknown, path: string[] = []): StateChange[] {
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

/** Applies changes to a state without mutating it. */
export function applyChanges(state: unknown, changes: readonly StateChange[]): StateValue {
  let root = clone(state as StateValue);
  for (const change of changes) {
    if (change.path.length === 0) {
      root = change.op === 'set' ? clone(change.after) : null;
      continue;
    }
    let node = root as Obj;
    for (const key of change.path.slice(0, -1)) {
      if (!isObj(node[key])) node[key] = Object.create(null) as Obj;
      node = node[key] as Obj;
    }
    const last = change.path[change.path.length - 1]!;
    if (change.op === 'set') node[last] = clone(change.after);
    else delete node[last];
  }
  return root;
}

function clone(v: StateValue): StateValue {
  if (Array.isArray(v)) return v.map(clone);
  if (isObj(v)) {
    const out = Object.create(null) as Obj;
    for (const k of Object.keys(v)) out[k] = clone(v[k] as StateValue);
    return out;
  }
  return v;
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
