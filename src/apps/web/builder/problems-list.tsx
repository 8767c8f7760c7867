// The last check's problems, each a button that moves the cursor to its file:line:col.
import { formatProblem } from '../lib/errors.ts';
import type { Finding } from './draft-session.ts';

export function ProblemsList(props: {
  checked: boolean;
  findings: readonly Finding[];
  onGo: (p: Finding) => void;
}) {
  return (
    <section class="card" aria-labelledby="problems-h">
      <h2 id="problems-h">Problems</h2>
      <ul class="problems" data-testid="problem-list">
        {props.findings.map((p, i) => (
          <li key={i}>
            <button
              type="button"
              class={`problem-link ${p.severity}`}
              onClick={() => props.onGo(p)}
              data-testid="problem"
            >
              {p.severity === 'warning' ? 'warning: ' : ''}
              {formatProblem(p)}
              {p.code ? ` [${p.code}]` : ''}
            </button>
          </li>
        ))}
        {props.checked && props.findings.length === 0 ? <li class="ok">No problems.</li> : null}
      </ul>
    </section>
  );
}
