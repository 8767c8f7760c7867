// An event's inputs from untrusted data (a model's tool call, a request, a `call` step): declared names
// only, typed values coerced, enum values matched case-insensitively, defaults filled in.

import { didYouMean } from '../diagnostics-sink.ts';
import { YareError } from '../errors.ts';
import type { EventDef, InputSpec } from '../program.ts';
import { formatValue } from '../python.ts';
import { type Dict, newDict, toValue, type Value } from '../values.ts';
import { CANNOT, tryCoerce } from './coerce.ts';

const NO_INPUTS: Record<string, unknown> = Object.freeze(newDict());

/** Checks and coerces an event's inputs: declared names only, typed values, enum values, defaults. */
export function prepareInputs(event: EventDef, raw: unknown): Dict {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new YareError('YARE_BAD_INPUT', `Inputs of '${event.name}' must be a mapping of name: value.`);
  }
  const given = (raw ?? NO_INPUTS) as Record<string, unknown>;
  for (const key in given) {
    if (!event.inputs.has(key) && Object.hasOwn(given, key)) {
      const declared = [...event.inputs.keys()];
      throw new YareError(
        'YARE_BAD_INPUT',
        `'${event.name}' has no input '${key}'${declared.length ? ` (inputs: ${declared.join(', ')})` : ' (it takes none)'}.${didYouMean(key, declared)}`,
      );
    }
  }
  const out = newDict();
  const specs = event.inputList;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const v = Object.hasOwn(given, spec.name) ? given[spec.name] : undefined;
    if (v !== undefined && v !== null) {
      out[spec.name] = coerceInput(event.name, spec, inputValue(event.name, spec.name, v));
    } else if (spec.hasDefault) {
      out[spec.name] = spec.default;
    } else if (spec.type === undefined) {
      out[spec.name] = null;
    } else {
      throw new YareError(
        'YARE_BAD_INPUT',
        `'${event.name}' needs the input '${spec.name}'${spec.description ? ` (${spec.description})` : ''}.`,
      );
    }
  }
  return out;
}

/** One input value from untrusted data: primitives as they are, containers converted (null-prototype dicts). */
function inputValue(event: string, name: string, v: unknown): Value {
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  try {
    return toValue(v);
  } catch (error) {
    // `toValue` refuses what JSON cannot hold with a TypeError; anything else is a bug.
    if (!(error instanceof TypeError)) throw error;
    throw new YareError(
      'YARE_BAD_INPUT',
      `Input '${name}' of '${event}' is not plain data: ${error.message}.`,
    );
  }
}

function coerceInput(eventName: string, spec: InputSpec, value: Value): Value {
  const v = tryCoerce(value, spec.type);
  if (v === CANNOT) {
    throw new YareError(
      'YARE_BAD_INPUT',
      `Input '${spec.name}' of '${eventName}' must be ${spec.type}, got ${formatValue(value)}.`,
    );
  }
  if (spec.enumIndex) {
    const match = spec.enumIndex.get(typeof v === 'string' ? v.toLowerCase() : formatValue(v).toLowerCase());
    if (match === undefined) {
      throw new YareError(
        'YARE_BAD_INPUT',
        `Input '${spec.name}' of '${eventName}' must be one of ${(spec.enum ?? []).map((e) => formatValue(e)).join(', ')}; got ${formatValue(v)}.`,
      );
    }
    return match;
  }
  return v;
}
