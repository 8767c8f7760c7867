// The state a run starts from, as the interpreter holds it: dicts that inherit nothing (values.ts). A state
// given as plain data is converted on every run, except one that is frozen all the way down, like a
// cartridge's initial state (a loaded cartridge is frozen): such an object can never change again, so its
// conversion is made once, frozen in turn (runs copy what they write, and a caller that changed a shared
// part of a result in place would fail loudly instead of changing the next run's start), and reused by
// every run given that object (`run-event`, scenarios, the explorer, the benchmarks).

import { type Dict, inheritsNothing, isDict, toValue } from '../values.ts';

const converted = new WeakMap<object, Dict>();

/** The run's root state for `state`. */
export function rootState(state: unknown): Dict {
  if (inheritsNothing(state) && isDict(state)) return state;
  if (typeof state !== 'object' || state === null || !Object.isFrozen(state)) {
    return toValue(state ?? {}) as Dict;
  }
  const known = converted.get(state);
  if (known !== undefined) return known;
  const root = toValue(state) as Dict;
  if (frozenThroughout(state)) converted.set(state, freezeThroughout(root));
  return root;
}

/** Whether every object and array inside `value` (itself included) is frozen; iterative, any depth. */
function frozenThroughout(value: object): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Object.isFrozen(node)) return false;
    for (const child of Object.values(node)) stack.push(child);
  }
  return true;
}

function freezeThroughout<T extends object>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}
