// The state a run starts from when a caller gives one (a `--state` file, a scenario's `state:` or save, the
// builder's Try, explore's start, a model-eval case): the rules' initial state with the given state laid
// over it. Only domains are merged, key by key, so a partial state names just the fields that matter;
// every field — a `dict`, a `list`, a collection of records — is a value and is taken whole. So a full
// state, as `run-event --json` prints it, reads back as exactly that state: a key a `dict_delete` removed
// from a dict whose default has it stays removed (issue 38 item 7).

import type { CompiledRules, DomainSchema } from './program.ts';
import { type Dict, isDict, newDict, toValue, type Value } from './values.ts';

/** `over` laid on `base` along the schema: domains merge key by key, fields (and unknown keys) are replaced. */
export function overlayState(schema: DomainSchema, base: Dict, over: Dict): Dict {
  const out = newDict();
  for (const key of Object.keys(base)) out[key] = base[key] as Value;
  for (const key of Object.keys(over)) {
    const node = schema.children.get(key);
    const below = out[key];
    const given = over[key] as Value;
    out[key] =
      node?.kind === 'domain' && isDict(below) && isDict(given) ? overlayState(node, below, given) : given;
  }
  return out;
}

/**
 * The rules' initial state with `over` (plain JSON: part of a state, or a whole one) laid on it; `undefined`
 * gives the initial state. Throws a TypeError saying what is wrong when `over` is not a JSON object.
 */
export function startingState(rules: CompiledRules, over: unknown): Dict {
  const initial = toValue(rules.initialState) as Dict;
  if (over === undefined) return initial;
  const value = toValue(over);
  if (!isDict(value)) throw new TypeError('a state must be a JSON object');
  return overlayState(rules.schema, initial, value);
}
