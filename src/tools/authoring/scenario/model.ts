// A parsed scenario file: every part keeps the place it was written, so a failure names `file:line:col`.

import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { ModelScriptInput } from '../../../adapters/llm/index.ts';

/** A bound of `between`: a number, or an expression evaluated against the state. */
export type Bound = number | string;

export type Expectation = { readonly place: SourcePlace } & (
  | { readonly kind: 'equals'; readonly path: string; readonly value: unknown }
  | { readonly kind: 'between'; readonly path: string; readonly low: Bound; readonly high: Bound }
  | { readonly kind: 'check'; readonly expr: string }
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'no_note'; readonly text: string }
  | { readonly kind: 'narration'; readonly text: string }
  | { readonly kind: 'refused'; readonly code: string }
  | { readonly kind: 'not_refused'; readonly code: string }
  | { readonly kind: 'ran'; readonly event: string }
  | { readonly kind: 'entity'; readonly key: string }
  | {
      readonly kind: 'fact';
      readonly predicate: string;
      readonly subject?: string;
      readonly object?: string;
    }
  | { readonly kind: 'thread'; readonly key: string }
);

export type ExpectationKind = Expectation['kind'];

export interface MinigameResult {
  readonly minigame_id: string;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly metrics?: Readonly<Record<string, string | number | boolean>>;
  readonly data?: Readonly<Record<string, unknown>>;
}

export type ScenarioStep = {
  readonly place: SourcePlace;
  readonly seed: number | undefined;
  readonly expect: readonly Expectation[];
} & (
  | { readonly kind: 'event'; readonly event: string; readonly inputs: Record<string, unknown> }
  | { readonly kind: 'turn'; readonly input: string; readonly script: ModelScriptInput | undefined }
  | {
      readonly kind: 'minigame';
      readonly result: MinigameResult;
      readonly script: ModelScriptInput | undefined;
    }
);

export type Start =
  | { readonly kind: 'defaults' }
  | { readonly kind: 'state'; readonly state: Record<string, unknown> }
  | { readonly kind: 'save'; readonly name: string; readonly place: SourcePlace };

export interface Scenario {
  readonly name: string;
  readonly place: SourcePlace;
  readonly seed: number;
  readonly start: Start;
  readonly steps: readonly ScenarioStep[];
  readonly expect: readonly Expectation[];
  readonly transcript: boolean;
}

export interface PropertyCheck {
  readonly name: string;
  readonly place: SourcePlace;
  readonly seeds: { readonly first: number; readonly last: number };
  readonly start: Start;
  readonly steps: readonly ScenarioStep[];
  readonly always: readonly Expectation[];
}

export interface ScenarioFile {
  readonly file: string;
  readonly scenarios: readonly Scenario[];
  readonly properties: readonly PropertyCheck[];
}
