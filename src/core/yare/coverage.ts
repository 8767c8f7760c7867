// Coverage of a cartridge's rules: which events ran, which steps were reached and which branch arms were
// taken. Off by default and free then: a sink is attached to a copy of the rules (`withCoverage`), and
// only that copy is lowered with markers (run/lower.ts); every other runner of the rules runs the plain
// closures it always did. The explorer (tools/authoring/explore) reads the sink.

import type { BranchArm, CompiledRules, Step } from './program.ts';

/** A note shown with a placeholder that had nothing to show (`{state.names[0]}` of an empty list: None). */
export interface UnrenderedNote {
  readonly step: Extract<Step, { kind: 'note' }>;
  /** The placeholder's expression as written. */
  readonly placeholder: string;
  /** The note as it was shown. */
  readonly text: string;
}

/** What ran, by identity: the step and arm objects of the compiled program. */
export interface CoverageSink {
  readonly events: Set<string>;
  readonly steps: Set<Step>;
  readonly arms: Set<BranchArm>;
  /** Notes shown with a None placeholder, in order; the reader empties it as it reads. */
  readonly unrendered: UnrenderedNote[];
}

export function newCoverageSink(): CoverageSink {
  return { events: new Set(), steps: new Set(), arms: new Set(), unrendered: [] };
}

const sinks = new WeakMap<CompiledRules, CoverageSink>();

/**
 * A copy of `rules` whose runs record into `sink` (every runner, turn and scenario given the copy). The
 * copy shares the events, steps and schema of `rules`: coverage is told by those objects.
 */
export function withCoverage(rules: CompiledRules, sink: CoverageSink): CompiledRules {
  const copy: CompiledRules = { ...rules };
  sinks.set(copy, sink);
  return copy;
}

/** The sink attached to these rules, if they are a `withCoverage` copy. */
export function coverageSinkOf(rules: CompiledRules): CoverageSink | undefined {
  return sinks.get(rules);
}
