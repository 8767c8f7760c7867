// What the explorer knows of the cartridge it explores, worked out once: the cartridge with coverage on
// (a copy of its rules records into the sink), the events it may choose, the fields with bounds, and where
// the notes are (a run that fails there is a note that cannot render).

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { SourcePlace } from '../../../core/diagnostics.ts';
import {
  type CoverageSink,
  type EventDef,
  type FieldSchema,
  newCoverageSink,
  publicEvents,
  type SchemaNode,
  type Step,
  withCoverage,
} from '../../../core/yare/index.ts';
import { clockMode } from '../../../engine/turn/index.ts';

export interface BoundedField {
  readonly path: readonly string[];
  readonly text: string;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly place: SourcePlace;
}

export interface Game {
  /** The cartridge as given (what written scenarios name). */
  readonly original: Cartridge;
  /** The cartridge whose rules record coverage into `sink`. */
  readonly cartridge: Cartridge;
  readonly sink: CoverageSink;
  /** Events a player can ask for (not internal, resolvers or cycle ticks), in declaration order. */
  readonly choices: readonly EventDef[];
  /** The engine keeps `game_time`: time can pass (a `/wait` turn). */
  readonly clock: boolean;
  readonly bounded: readonly BoundedField[];
  /** `file:line:col` of every note step and every expression inside a note. */
  readonly notePlaces: ReadonlySet<string>;
}

export function placeKey(place: SourcePlace | undefined): string {
  return place === undefined ? '' : `${place.file}:${place.line}:${place.col}`;
}

/** `coverage`: run on a copy of the rules that records into the sink (exploring; not shrinking). */
export function prepareGame(cartridge: Cartridge, coverage: boolean): Game {
  const sink = newCoverageSink();
  const rules = coverage ? withCoverage(cartridge.rules, sink) : cartridge.rules;
  const notePlaces = new Set<string>();
  for (const event of cartridge.rules.events.values())
    eachStep(event.steps, (step) => noteOf(step, notePlaces));
  const bounded: BoundedField[] = [];
  boundedFields(cartridge.rules.schema.children, bounded);
  return {
    original: cartridge,
    cartridge: coverage ? { ...cartridge, rules } : cartridge,
    sink,
    choices: publicEvents(cartridge.rules),
    clock: clockMode(cartridge.rules) === 'engine',
    bounded,
    notePlaces,
  };
}

function noteOf(step: Step, out: Set<string>): void {
  if (step.kind !== 'note') return;
  out.add(placeKey(step.place));
  for (const part of step.parts)
    if (typeof part !== 'string' && part.kind === 'expr') out.add(placeKey(part.place));
}

/** Visits every step, nested ones (branch arms, foreach bodies) after their parent. */
export function eachStep(steps: readonly Step[], visit: (step: Step) => void): void {
  for (const step of steps) {
    visit(step);
    if (step.kind === 'branch') for (const arm of step.arms) eachStep(arm.steps, visit);
    else if (step.kind === 'foreach') eachStep(step.steps, visit);
  }
}

function boundedFields(children: ReadonlyMap<string, SchemaNode>, out: BoundedField[]): void {
  for (const node of children.values()) {
    if (node.kind === 'domain') boundedFields(node.children, out);
    else if (isBounded(node))
      out.push({
        path: node.path,
        text: `state.${node.path.join('.')}`,
        min: node.min,
        max: node.max,
        place: node.place,
      });
  }
}

function isBounded(field: FieldSchema): boolean {
  return field.min !== undefined || field.max !== undefined;
}
