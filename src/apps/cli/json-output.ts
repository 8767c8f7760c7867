// JSON for the terminal and for `--json`: YARE floats keep their Python form (`3.0`), so an author sees
// exactly the value the rules computed.

import { Duration, formatValue, PyFloat } from '../../core/yare/index.ts';

export function toJsonText(value: unknown, indent = 0): string {
  const json = JSON.stringify(
    value,
    (_key, v) => {
      if (v instanceof PyFloat) return { __float__: v.value };
      if (v instanceof Duration) return formatValue(v);
      return v;
    },
    indent || undefined,
  );
  // A float is written with a fractional part, as Python's json would.
  return json.replace(/\{\s*"__float__":\s*(-?[0-9.eE+-]+)\s*\}/g, (_m, n: string) =>
    /[.eE]/.test(n) ? n : `${n}.0`,
  );
}
