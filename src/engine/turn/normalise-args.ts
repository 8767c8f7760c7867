// Input normalisation: the one rule for what counts as the same input value, applied to a model's (or the
// offline matcher's) arguments as its own step before the input validator. Weak models write "Tallow Rest",
// " brine  market" or "the inn" for the declared `tallow rest`; the validator should judge what they meant,
// not their spacing. Only top-level string arguments of an object are touched (event inputs are flat): a
// value matching a declared enum option with whitespace normalised and case folded (or ignoring
// punctuation, `phraseKey`) becomes that option; a value that is an intents.yaml phrase of this event
// implying this input becomes the implied value; an optional input sent as null is left out. Anything else — free text included, whose line breaks may
// matter — is left exactly as sent, for the validator to judge.

import { type ImpliedIntent, phraseKey } from '../../core/cartridge/index.ts';
import type { JsonSchema } from '../../adapters/llm/index.ts';
import { isRecord } from '../../core/is-record.ts';

/** Surrounding whitespace trimmed, runs of whitespace as one space. */
export function normaliseInputText(value: string): string {
  return value.trim().replace(/\s+/gu, ' ');
}

/** How two input values are compared: whitespace normalised, case folded. */
export function inputKey(value: string): string {
  return normaliseInputText(value).toLowerCase();
}

/** Whether `actual` is the input value `expected` names, by the rule above (numbers and booleans exactly). */
export function sameInputValue(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string' && typeof actual === 'string')
    return inputKey(expected) === inputKey(actual);
  if (typeof expected === 'number' && typeof actual === 'number') return expected === actual;
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object')
    return expected === actual;
  return JSON.stringify(expected) === JSON.stringify(actual);
}

function enumOf(schema: JsonSchema, key: string): readonly unknown[] | undefined {
  const properties = schema.properties;
  if (!isRecord(properties) || !Object.hasOwn(properties, key)) return undefined;
  const property = properties[key];
  return isRecord(property) && Array.isArray(property.enum) ? property.enum : undefined;
}

/** The arguments with string values normalised (a null-prototype copy); anything not an object as given. */
export function normaliseArgs(
  schema: JsonSchema,
  args: unknown,
  implied: readonly ImpliedIntent[] = [],
): unknown {
  if (!isRecord(args)) return args;
  const out: Record<string, unknown> = Object.create(null);
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  for (const key of Object.keys(args)) {
    const value = args[key];
    // An optional input sent as null is an input left out (strict tool schemas make every input required,
    // with null for the optional ones: openai-wire.ts `strictSchema`).
    if (value === null && !required.includes(key)) continue;
    out[key] = typeof value === 'string' ? normaliseValue(value, enumOf(schema, key), key, implied) : value;
  }
  return out;
}

function normaliseValue(
  raw: string,
  options: readonly unknown[] | undefined,
  key: string,
  implied: readonly ImpliedIntent[],
): unknown {
  const value = normaliseInputText(raw);
  if (value === raw && options === undefined && implied.length === 0) return raw;
  if (options !== undefined) {
    const folded = inputKey(value);
    const exact = options.find((o) => typeof o === 'string' && inputKey(o) === folded);
    if (exact !== undefined) return exact;
  }
  const phrase = phraseKey(value);
  if (phrase !== '') {
    for (const intent of implied) {
      if (Object.hasOwn(intent.inputs, key) && phraseKey(intent.phrase) === phrase) return intent.inputs[key];
    }
    if (options !== undefined) {
      const loose = options.find((o) => typeof o === 'string' && phraseKey(o) === phrase);
      if (loose !== undefined) return loose;
    }
  }
  return raw;
}
