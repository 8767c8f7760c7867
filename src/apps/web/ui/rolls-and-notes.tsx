// A rule run's dice and notes, as the author's trace, the event console and the builder's "try it" pane
// show them.
import { describeRollLabel } from '../../../engine/turn/browser.ts';

/** A run's dice rolls (the trace, the event console, the builder's "try it"). */
export function Rolls({
  rolls,
}: {
  rolls: readonly {
    expr: string;
    dice: string;
    faces: readonly number[];
    total: number;
    label?: Parameters<typeof describeRollLabel>[0];
  }[];
}) {
  return (
    <>
      <h3>Dice</h3>
      {rolls.length === 0 ? <p class="muted">No rolls.</p> : null}
      <ul data-testid="trace-rolls">
        {rolls.map((r, i) => (
          <li key={i} data-testid="trace-roll">
            <code>{r.expr}</code>: {r.dice} → [{r.faces.join(', ')}] = <strong>{r.total}</strong>
            {r.label === undefined ? null : <span class="muted"> — {describeRollLabel(r.label)}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

/** A run's notes for the Narrator. */
export function Notes({ notes }: { notes: readonly string[] }) {
  return (
    <>
      <h3>Notes</h3>
      {notes.length === 0 ? <p class="muted">None.</p> : null}
      <ul data-testid="trace-notes">
        {notes.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
    </>
  );
}
