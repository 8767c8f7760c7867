// Random valid inputs for an event, drawn from its compiled input specs: an enum's declared values, a
// typed value of the declared type (small numbers around zero and the default, booleans, short strings),
// an optional input left out now and then. Whatever is drawn is judged by the one input rule
// (`checkEventInputs`) before the event runs: what it refuses is drawn again, then left at defaults.

import {
  checkEventInputs,
  type DiceRoller,
  type EventDef,
  type InputSpec,
  toStateValue,
  type Value,
} from '../../../core/yare/index.ts';

/** Draws for one event before giving up on random values and trying its defaults alone. */
const INPUT_ATTEMPTS = 4;

const STRINGS = ['', 'x', 'none'] as const;

function pick<T>(rng: DiceRoller, items: readonly T[]): T {
  return items[rng.draw(0, items.length - 1)]!;
}

function drawValue(rng: DiceRoller, spec: InputSpec): Value {
  if (spec.enum !== undefined && spec.enum.length > 0) return pick(rng, spec.enum);
  const near = spec.hasDefault && typeof spec.default === 'number' ? spec.default : 0;
  switch (spec.type) {
    case 'int':
      return pick(rng, [0, 1, -1, near, near + rng.draw(1, 10), rng.draw(-5, 50)]);
    case 'float':
      return pick(rng, [0, 0.5, -1, near, rng.draw(-10, 100) / 4]);
    case 'bool':
      return rng.draw(0, 1) === 1;
    case 'string':
      return spec.hasDefault && typeof spec.default === 'string' && rng.draw(0, 1) === 0
        ? spec.default
        : pick(rng, STRINGS);
    case 'list':
      return [];
    case 'dict':
      return spec.hasDefault ? spec.default : {};
    case undefined:
      return spec.hasDefault ? spec.default : null;
  }
}

/**
 * Inputs `event` accepts, as plain JSON, or undefined when even its defaults are refused (a required
 * input the explorer cannot make).
 */
export function drawInputs(rng: DiceRoller, event: EventDef): Record<string, unknown> | undefined {
  for (let attempt = 0; attempt < INPUT_ATTEMPTS; attempt++) {
    const inputs: Record<string, unknown> = {};
    for (const spec of event.inputList) {
      // An input with a default is left out one time in three: the default is a path worth taking too.
      if (spec.hasDefault && rng.draw(0, 2) === 0) continue;
      inputs[spec.name] = toStateValue(drawValue(rng, spec));
    }
    if (checkEventInputs(event, inputs).ok) return inputs;
  }
  return checkEventInputs(event, {}).ok ? {} : undefined;
}
