// Quantities and waste, offline (issue 32, item 5). A number in the player's line ("buy 3 crates", "buy
// two oil") reaches the event's one number input; when the event has none, the player is told plainly that
// it happens once. An event that would spend something for nothing — a tonic drunk at full health: the
// field it raises is already at its `max`, while other fields (an item, coins) still change — is named
// before anything is spent, from a try on a copy of the state (nothing kept). Pure.

import {
  type CompiledRules,
  DiceRoller,
  type Dict,
  diffStates,
  type EventDef,
  EventRunner,
  type InputSpec,
  type StateChange,
  type Step,
  type Value,
} from '../../../core/yare/index.ts';
import { fieldAt } from './numbers.ts';
import { valueAt } from './place.ts';
import { allWords } from './words.ts';

/** Largest quantity read from a line (a bigger number is not a quantity a player means). */
export const MAX_SAID_QUANTITY = 999;
/** Steps one waste try may run (as a try of available actions: far above a real event). */
const TRY_STEPS = 5_000;

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].map(
    (w, i) => [w, i + 1],
  ),
);

/** The quantity the line says ("buy 3 crates", "two oil"), from 1 to MAX_SAID_QUANTITY, if any. */
export function saidQuantity(text: string): number | undefined {
  for (const word of allWords(text)) {
    const n = /^\d{1,4}$/.test(word) ? Number(word) : NUMBER_WORDS.get(word);
    if (n !== undefined && n >= 1 && n <= MAX_SAID_QUANTITY) return n;
  }
  return undefined;
}

/** The event's one whole-number input a quantity fills (no enum), or undefined when it has none or several. */
export function quantityInput(event: EventDef): InputSpec | undefined {
  const numbers = event.inputList.filter(
    (s) => (s.type === 'int' || s.type === 'float') && s.enum === undefined,
  );
  return numbers.length === 1 ? numbers[0] : undefined;
}

/** What the player is told when they asked for several and the event does one: undefined for one. */
export function onceNotice(event: EventDef, quantity: number | undefined): string | undefined {
  if (quantity === undefined || quantity <= 1 || quantityInput(event) !== undefined) return undefined;
  const what = event.name.replaceAll('_', ' ');
  return `(You asked for ${quantity}; “${what}” happens one at a time, so once now.)`;
}

/** The state fields the event's own steps raise with `mutate … add` (the benefit it gives). */
function raisedFields(steps: readonly Step[], out: string[][]): string[][] {
  for (const step of steps) {
    if (
      step.kind === 'mutate' &&
      step.op === 'add' &&
      step.target.kind === 'static' &&
      step.target.root === 'state'
    )
      out.push([...step.target.path]);
    else if (step.kind === 'branch') for (const arm of step.arms) raisedFields(arm.steps, out);
  }
  return out;
}

function withValue(state: Dict, path: readonly string[], value: number): Dict {
  const copy = structuredClone(state) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return copy as Dict;
}

/** A change the player gains by: a number that rises, a list that grows (the clock's own fields aside). */
function isGain(change: StateChange): boolean {
  if (change.op !== 'set' || change.path.at(-1)!.startsWith('_') || change.path[0] === 'game_time')
    return false;
  const { before, after } = change;
  if (typeof before === 'number' && typeof after === 'number') return after > before;
  return Array.isArray(before) && Array.isArray(after) && after.length > before.length;
}

function changesOf(rules: CompiledRules, state: Dict, event: EventDef, args: Record<string, Value>) {
  const result = new EventRunner(rules, state, DiceRoller.fromSeed(0), TRY_STEPS).run(event.name, args);
  return result.ok ? diffStates(state, result.state) : undefined;
}

/**
 * A warning before a wasteful event: a field it would raise here is already at its max (the same try one
 * below the max raises it, so this path of the event is the one that gives it), and running it would still
 * change something else (spend an item, coins, time) with no other gain. Undefined when nothing would be
 * wasted, or the rules do not make it knowable (no bound, no raise, or a try fails).
 */
export function wasteWarning(
  rules: CompiledRules,
  state: Dict,
  event: EventDef,
  args: Record<string, Value>,
): string | undefined {
  const atMax = raisedFields(event.steps, []).flatMap((path) => {
    const max = fieldAt(rules.schema, path)?.max;
    return max !== undefined && valueAt(state, path) === max ? [{ path, max }] : [];
  });
  if (atMax.length === 0) return undefined;
  const changes = changesOf(rules, state, event, args);
  if (changes === undefined || changes.length === 0) return undefined;
  const wasted = atMax.filter(({ path, max }) => {
    const lower = changesOf(rules, withValue(state, path, max - 1), event, args);
    return lower?.some((c) => c.path.join('.') === path.join('.')) === true;
  });
  if (wasted.length === 0) return undefined;
  // Another gain (a number that rises, a list that grows) means the event is not wasted.
  if (changes.some(isGain)) return undefined;
  const what = wasted.map((w) => `${w.path.join(' ').replaceAll('_', ' ')} is already ${w.max}, its most`);
  const lost = changes.map((c) => c.path.join(' ').replaceAll('_', ' '));
  return `${what.join('; ')}: ${event.name.replaceAll('_', ' ')} would change ${lost.join(', ')} for nothing. (Type /${event.name} to do it anyway.)`;
}
