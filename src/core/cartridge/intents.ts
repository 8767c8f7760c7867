// `intents.yaml`: the inputs an intent phrase implies. A rule event lists phrases a player might say
// (`intents:` in yare.yaml); some of them name what the event needs without naming an input value
// ("return to the inn" is `travel` with `destination: tallow rest`). This file says so, per event:
//
//   travel:
//     "return to the inn": { destination: tallow rest }
//
// The offline matcher uses it (a phrase said in full fills those inputs) and counts each phrase as an
// intent of its event. Checked against the compiled rules at load: the event must exist and be one a
// player can ask for, each input must be declared, each value must fit the input's type and enum.

import type { Document, LineCounter } from 'yaml';
import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import type { Checked } from '../result.ts';
import {
  type CompiledRules,
  type EventDef,
  enumValue,
  formatValue,
  type InputSpec,
  type Value,
} from '../yare/index.ts';
import { cartError } from './diagnostics.ts';
import { MAX_INTENT_PHRASE_CHARS, MAX_INTENT_PHRASES } from './limits.ts';
import { codePointLength } from './text.ts';
import { placeAtPath } from './yaml.ts';
import { isRecord } from '../is-record.ts';

/** One phrase and the inputs it implies (values in the spelling the rules declare). */
export interface ImpliedIntent {
  readonly phrase: string;
  readonly inputs: Readonly<Record<string, string | number | boolean>>;
}

/** Implied inputs by event name (null-prototype: keys are cartridge text). */
export type IntentInputs = Readonly<Record<string, readonly ImpliedIntent[]>>;

export const NO_INTENT_INPUTS: IntentInputs = Object.freeze(Object.create(null) as IntentInputs);

export interface IntentsSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  /** The document as plain data (`toPlain`). */
  readonly plain: unknown;
}

/**
 * Lower case, letters and digits only, single spaces: how phrases are compared with each other here and
 * with the player's words by the offline matcher (turn/offline/choose.ts), so both agree on what "the same" is.
 */
export function phraseKey(phrase: string): string {
  return phrase
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Why the event cannot take implied inputs, or undefined when it can. */
function refusal(event: EventDef): string | undefined {
  if (event.internal) return 'is internal (a player cannot ask for it)';
  if (event.resolver) return "is a mini-game's resolver_event (only the mini-game runs it)";
  if (event.triggerOn !== undefined) return `runs on ${event.triggerOn} (a player cannot ask for it)`;
  return undefined;
}

/** The value as the input declares it, or a message saying why it does not fit. */
function fitValue(spec: InputSpec, value: unknown): Checked<string | number | boolean> {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return { ok: false, message: 'must be a single value (text, a number or true/false)' };
  }
  switch (spec.type) {
    case 'int':
      if (!Number.isSafeInteger(value)) return { ok: false, message: 'must be a whole number (type int)' };
      break;
    case 'float':
      if (typeof value !== 'number') return { ok: false, message: 'must be a number (type float)' };
      break;
    case 'bool':
      if (typeof value !== 'boolean') return { ok: false, message: 'must be true or false (type bool)' };
      break;
    case 'string':
      if (typeof value !== 'string') return { ok: false, message: 'must be text (type string)' };
      break;
    case 'list':
    case 'dict':
      return { ok: false, message: `cannot be implied: the input takes a ${spec.type}` };
    case undefined:
      break;
    default: {
      const unreachable: never = spec.type;
      return { ok: false, message: `has an unknown type ${String(unreachable)}` };
    }
  }
  if (spec.enumIndex !== undefined) {
    const declared: Value | undefined = enumValue(spec, value);
    if (declared === undefined) {
      const options = [...spec.enumIndex.values()].map((v) => formatValue(v)).join(', ');
      return { ok: false, message: `must be one of: ${options}` };
    }
    if (typeof declared === 'string' || typeof declared === 'number' || typeof declared === 'boolean') {
      return { ok: true, value: declared };
    }
  }
  return { ok: true, value };
}

/** Checks `intents.yaml` against the rules; every problem is reported with its `file:line:col`. */
export function validateIntentInputs(
  source: IntentsSource,
  rules: CompiledRules,
): { intents: IntentInputs; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const at = (path: readonly (string | number)[], where: 'key' | 'value' = 'value') =>
    placeAtPath(source.doc, path, source.file, source.lineCounter, where);
  const out: Record<string, ImpliedIntent[]> = Object.create(null);
  if (source.plain === null || source.plain === undefined) return { intents: out, diagnostics };
  if (!isRecord(source.plain)) {
    diagnostics.push(
      cartError(
        'CART_NOT_A_MAPPING',
        'intents.yaml must be a mapping of event name → { "phrase": { input: value } }.',
        at([]),
      ),
    );
    return { intents: out, diagnostics };
  }
  const reader: IntentsRead = { rules, at, diagnostics, seen: new Map(), count: 0 };
  for (const eventName of Object.keys(source.plain)) {
    const phrases = phrasesOf(reader, eventName, source.plain[eventName]);
    if (phrases === undefined) continue;
    const event = rules.events.get(eventName)!;
    for (const phrase of Object.keys(phrases)) {
      if (++reader.count > MAX_INTENT_PHRASES) {
        diagnostics.push(
          cartError(
            'CART_BAD_FIELD',
            `intents.yaml has more than ${MAX_INTENT_PHRASES} phrases (MAX_INTENT_PHRASES).`,
            at([eventName, phrase], 'key'),
          ),
        );
        return { intents: out, diagnostics };
      }
      const inputs = impliedInputs(reader, event, eventName, phrase, phrases[phrase]);
      if (inputs === undefined) continue;
      const list = out[eventName] ?? [];
      list.push({ phrase, inputs });
      out[eventName] = list;
    }
  }
  return { intents: out, diagnostics };
}

/** One check of intents.yaml: where things are, what was found, and the phrases seen so far. */
interface IntentsRead {
  readonly rules: CompiledRules;
  readonly at: (path: readonly (string | number)[], where?: 'key' | 'value') => SourcePlace;
  readonly diagnostics: Diagnostic[];
  /** Each phrase's key (its words) → the event that claimed it first. */
  readonly seen: Map<string, string>;
  count: number;
}

/** An event's phrases, if the event exists, may imply inputs, and its entry is a mapping. */
function phrasesOf(
  read: IntentsRead,
  eventName: string,
  phrases: unknown,
): Record<string, unknown> | undefined {
  const { at, diagnostics } = read;
  const event = read.rules.events.get(eventName);
  if (event === undefined) {
    diagnostics.push(
      cartError(
        'CART_INTENT_EVENT',
        `intents.yaml names event '${eventName}', which yare.yaml does not declare.`,
        at([eventName], 'key'),
      ),
    );
    return undefined;
  }
  const refused = refusal(event);
  if (refused !== undefined) {
    diagnostics.push(
      cartError(
        'CART_INTENT_EVENT',
        `Event '${eventName}' ${refused}; intent phrases cannot imply its inputs.`,
        at([eventName], 'key'),
      ),
    );
    return undefined;
  }
  if (!isRecord(phrases)) {
    diagnostics.push(
      cartError(
        'CART_NOT_A_MAPPING',
        `intents.yaml: '${eventName}' must be a mapping of "phrase": { input: value }.`,
        at([eventName]),
      ),
    );
    return undefined;
  }
  return phrases;
}

/** The inputs one phrase implies, if the phrase is new, has words, fits, and every input fits its spec. */
function impliedInputs(
  read: IntentsRead,
  event: EventDef,
  eventName: string,
  phrase: string,
  implied: unknown,
): Record<string, string | number | boolean> | undefined {
  const { at, diagnostics, seen } = read;
  const key = phraseKey(phrase);
  if (key === '' || codePointLength(phrase) > MAX_INTENT_PHRASE_CHARS) {
    diagnostics.push(
      cartError(
        'CART_BAD_FIELD',
        key === ''
          ? `intents.yaml: a phrase of '${eventName}' has no words.`
          : `intents.yaml: a phrase of '${eventName}' has ${codePointLength(phrase)} characters; the limit is ${MAX_INTENT_PHRASE_CHARS} (MAX_INTENT_PHRASE_CHARS).`,
        at([eventName, phrase], 'key'),
      ),
    );
    return undefined;
  }
  const earlier = seen.get(key);
  if (earlier !== undefined) {
    diagnostics.push(
      cartError(
        'CART_INTENT_DUPLICATE',
        `intents.yaml: the phrase "${phrase}" is already given for '${earlier}'; a phrase can imply only one event.`,
        at([eventName, phrase], 'key'),
      ),
    );
    return undefined;
  }
  seen.set(key, eventName);
  if (!isRecord(implied)) {
    diagnostics.push(
      cartError(
        'CART_NOT_A_MAPPING',
        `intents.yaml: "${phrase}" must map input names to values, like { ${event.inputList[0]?.name ?? 'input'}: … }.`,
        at([eventName, phrase]),
      ),
    );
    return undefined;
  }
  return fittedInputs(read, event, eventName, phrase, implied);
}

/** Each implied input fitted to its spec; undefined (with a diagnostic for each problem) if any does not fit. */
function fittedInputs(
  { at, diagnostics }: IntentsRead,
  event: EventDef,
  eventName: string,
  phrase: string,
  implied: Record<string, unknown>,
): Record<string, string | number | boolean> | undefined {
  const inputs: Record<string, string | number | boolean> = Object.create(null);
  let good = true;
  for (const inputName of Object.keys(implied)) {
    const spec = event.inputs.get(inputName);
    if (spec === undefined) {
      const declared = event.inputList.map((s) => s.name).join(', ') || 'none';
      diagnostics.push(
        cartError(
          'CART_INTENT_INPUT',
          `intents.yaml: '${eventName}' has no input '${inputName}' (its inputs: ${declared}).`,
          at([eventName, phrase, inputName], 'key'),
        ),
      );
      good = false;
      continue;
    }
    const fitted = fitValue(spec, implied[inputName]);
    if (!fitted.ok) {
      diagnostics.push(
        cartError(
          'CART_INTENT_VALUE',
          `intents.yaml: ${eventName}.${inputName} for "${phrase}" ${fitted.message}.`,
          at([eventName, phrase, inputName]),
        ),
      );
      good = false;
      continue;
    }
    inputs[inputName] = fitted.value;
  }
  return good ? inputs : undefined;
}
