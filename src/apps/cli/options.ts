// Parsers for repeated command-line options.
import { InvalidArgumentError } from 'commander';

/** `--input k=v`: the value is JSON when it parses as JSON (`3`, `true`, `"x"`, `[1]`), else the text itself. */
export function collectKeyValue(raw: string, previous: Record<string, unknown>): Record<string, unknown> {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value, got '${raw}'`);
  const key = raw.slice(0, eq);
  const text = raw.slice(eq + 1);
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  const out = Object.assign(Object.create(null) as Record<string, unknown>, previous);
  out[key] = value;
  return out;
}

export function parseSeed(raw: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError(`the seed must be a non-negative integer, got '${raw}'`);
  }
  return Number(raw);
}
