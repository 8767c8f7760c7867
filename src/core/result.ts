// The answer of a check that either gives a value or says, in one message, why it could not: the one
// declaration of that shape for every module that returns it.

export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/**
 * A whole-number option: `value` (or `fallback` when it is absent) when it is a safe integer from `min` to
 * `max`; else the sentence saying so, naming the option and its limit (`runs must be a whole number from 1
 * to 10000 (MAX_EXPLORE_RUNS), got 10001`). One rule for every bounded integer option.
 */
export function checkedInt(
  name: string,
  value: number | undefined,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly limit: string },
): Checked<number> {
  const n = value ?? fallback;
  if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return { ok: true, value: n };
  return {
    ok: false,
    message: `${name} must be a whole number from ${range.min} to ${range.max} (${range.limit}), got ${String(value)}`,
  };
}
