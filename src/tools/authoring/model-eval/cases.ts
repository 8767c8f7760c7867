// The cases a model is scored on: a player line, what the Director should do with it, and where the case
// came from (a suite file's `file:line:col`, the cartridge's intents, a scenario, or the shipped general
// suite). See docs/models.md, "Choosing a model".

import type { SourcePlace } from '../../../core/diagnostics.ts';

/** What the Director should do: run `event` (with at least `inputs`), or run no rule event at all. */
export type ExpectedChoice =
  | { readonly kind: 'event'; readonly event: string; readonly inputs: Readonly<Record<string, unknown>> }
  /** The right answer is no event: a question back to the player, or a refusal. */
  | { readonly kind: 'none' };

export type CaseOrigin = 'suite' | 'intents' | 'scenario' | 'general';

export interface EvalCase {
  /** Stable within a suite: `<origin>:<n>` or the suite file's `id:`. */
  readonly id: string;
  readonly input: string;
  readonly expect: ExpectedChoice;
  /** The state the case starts from: fields laid over the initial state (domains merged, fields whole), as a scenario's `state:`. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** The story before the line (oldest first); default: the cartridge's first message. */
  readonly history?: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[];
  readonly origin: CaseOrigin;
  readonly place?: SourcePlace;
}

/** The expected choice as one short label, the key of the confusion table. */
export function choiceLabel(choice: ExpectedChoice | { readonly kind: 'error' }): string {
  switch (choice.kind) {
    case 'event':
      return choice.event;
    case 'none':
      return '(none)';
    case 'error':
      return '(error)';
    default: {
      const never: never = choice;
      throw new Error(`unhandled choice ${JSON.stringify(never)}`);
    }
  }
}
