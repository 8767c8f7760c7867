// What an action on the Library page came to, shown under its form: nothing yet, working, done (a
// message), or failed (the message and, for a cartridge the server refused, its problems as
// file:line:col). Announced politely; a failure is an alert.
import { ApiFailure, formatProblem, type Problem } from '../lib/errors.ts';

export type Outcome =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'ok'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string; readonly problems: readonly Problem[] };

/** The failed outcome of an error (an ApiFailure brings the server's problems). */
export function failedOutcome(error: unknown): Outcome {
  return {
    kind: 'failed',
    message: error instanceof Error ? error.message : String(error),
    problems: error instanceof ApiFailure ? error.problems : [],
  };
}

export function OutcomeView(props: { outcome: Outcome; testId: string; problemsTestId?: string }) {
  const { outcome } = props;
  return (
    <div aria-live="polite" data-testid={props.testId}>
      {outcome.kind === 'ok' ? <p class="ok">{outcome.message}</p> : null}
      {outcome.kind === 'failed' ? (
        <div role="alert">
          <p class="error">{outcome.message}</p>
          {outcome.problems.length > 0 ? (
            <ul class="problems" data-testid={props.problemsTestId ?? `${props.testId}-problems`}>
              {outcome.problems.map((p, i) => (
                <li key={i}>{formatProblem(p)}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** A labelled one-line text field. */
export function TextField(props: {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  required?: boolean;
}) {
  return (
    <label>
      {props.label}
      <input
        data-testid={props.testId}
        value={props.value}
        {...(props.maxLength === undefined ? {} : { maxLength: props.maxLength })}
        required={props.required === true}
        onInput={(e) => props.onChange((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}
