// An event's inputs from untrusted data (a model's tool call, a request, a `call` step): declared names
// only, typed values coerced, enum values matched case-insensitively, defaults filled in. The one rule
// (docs/yare.md, "Inputs"), whoever proposes the inputs: the Director's and the offline matcher's tool
// calls check them here before anything runs (`checkEventInputs`), and every run (`run-event`, scenarios,
// the studio, a `call` step) prepares them here too (`prepareInputs`).

import { didYouMean } from '../diagnostics-sink.ts';
import { YareError, type YareErrorCode } from '../errors.ts';
import type { EventDef, InputSpec } from '../program.ts';
import { formatValue } from '../python.ts';
import { type Dict, newDict, toValue, type Value } from '../values.ts';
import { CANNOT, tryCoerce } from './coerce.ts';

const NO_INPUTS: Record<string, unknown> = Object.freeze(newDict());

export type EventInputsCheck =
  | { readonly ok: true; readonly inputs: Dict }
  | { readonly ok: false; readonly code: YareErrorCode; readonly message: string };

export interface EventInputsOptions {
  /**
   * The known values of inputs with `values_from`, by input name, from the world as the caller sees it (the
   * turn's state and ledger): a value must be one of them, matched ignoring case, and takes their spelling.
   * An input missing here, or with no known values, takes any string.
   */
  readonly known?: ReadonlyMap<string, readonly string[]>;
}

/**
 * An event's inputs judged before it runs: the inputs it would run with (typed values converted, enum
 * values in the declared spelling, defaults filled in), or why they are refused (`YARE_BAD_INPUT`, or
 * `YARE_OVERFLOW` for an int past ±2^53) with a message naming the input. Pure; `raw` is left untouched.
 */
export function checkEventInputs(
  event: EventDef,
  raw: unknown,
  options: EventInputsOptions = {},
): EventInputsCheck {
  try {
    return { ok: true, inputs: prepareInputs(event, raw, options.known) };
  } catch (error) {
    if (error instanceof YareError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/**
 * The declared enum value `value` names, ignoring case (`"Lamp Oil"` is `"lamp oil"`), or undefined when
 * it names none; an input without an enum takes any value as it is.
 */
export function enumValue(spec: InputSpec, value: Value): Value | undefined {
  if (spec.enumIndex === undefined) return value;
  return spec.enumIndex.get(
    typeof value === 'string' ? value.toLowerCase() : formatValue(value).toLowerCase(),
  );
}

/** Checks and coerces an event's inputs: declared names only, typed values, enum values, defaults. */
export function prepareInputs(
  event: EventDef,
  raw: unknown,
  known?: ReadonlyMap<string, readonly string[]>,
): Dict {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new YareError('YARE_BAD_INPUT', `Inputs of '${event.name}' must be a mapping of name: value.`);
  }
  const given = (raw ?? NO_INPUTS) as Record<string, unknown>;
  // Own keys only (an inherited one is never an input): Object.keys, which V8 answers from a cache.
  const keys = Object.keys(given);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    if (!event.inputs.has(key)) {
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
      const value = coerceInput(event.name, spec, inputValue(event.name, spec.name, v));
      out[spec.name] = spec.valuesFrom === undefined ? value : knownValue(event.name, spec, value, known);
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

/** A `values_from` input's value among the known ones (ignoring case, in their spelling), when there are any. */
function knownValue(
  eventName: string,
  spec: InputSpec,
  value: Value,
  known: ReadonlyMap<string, readonly string[]> | undefined,
): Value {
  const values = known?.get(spec.name);
  if (values === undefined || values.length === 0 || typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  const match = values.find((v) => v.toLowerCase() === lower);
  if (match !== undefined) return match;
  const from = spec.valuesFrom!;
  const source = from.kind === 'state' ? from.path : `ledger.${from.entityType ?? 'entities'}`;
  throw new YareError(
    'YARE_BAD_INPUT',
    `Input '${spec.name}' of '${eventName}' must be one of the values of ${source} (${values.map((v) => formatValue(v)).join(', ')}); got ${formatValue(value)}.${didYouMean(value, values)}`,
  );
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
    const match = enumValue(spec, v);
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
