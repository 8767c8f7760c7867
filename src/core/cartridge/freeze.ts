// Deep freeze without recursion (compiled rules can be deep and can share sub-objects). Maps and Sets are
// frozen as objects and their entries are frozen too; their own `set`/`add` still work, which is why the
// cartridge's types expose them as ReadonlyMap/ReadonlySet.

export function deepFreeze<T>(value: T): T {
  const seen = new WeakSet<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if ((typeof item !== 'object' && typeof item !== 'function') || item === null) continue;
    if (seen.has(item)) continue;
    seen.add(item);
    if (ArrayBuffer.isView(item)) continue; // typed arrays cannot be frozen while they have elements
    Object.freeze(item);
    if (item instanceof Map) {
      for (const [k, v] of item) stack.push(k, v);
    } else if (item instanceof Set) {
      for (const v of item) stack.push(v);
    }
    for (const key of Reflect.ownKeys(item)) {
      const descriptor = Object.getOwnPropertyDescriptor(item, key);
      if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
    }
  }
  return value;
}
