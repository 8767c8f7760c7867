// Author mode's trace of one turn: for the first message its cartridge and seed; for an event run by hand
// its dice and notes; for a played turn the invariants it left broken, the tool calls with arguments and
// results, dice and notes, the state diff, the prompt sections with their token counts and why each was
// included, token use and latency per role, the narration's fidelity, warnings and scene directives.
import type { SessionRecord } from '../../../../engine/session/index.ts';
import { Notes, Rolls } from '../../ui/rolls-and-notes.tsx';

type PlayedTurn = Extract<SessionRecord, { readonly kind: 'turn' }>;

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

export function TurnTrace({ record }: { record: SessionRecord }) {
  switch (record.kind) {
    case 'genesis':
      return (
        <p data-testid="trace-genesis">
          The first message of {record.cartridge.name} (version {record.cartridge.contentHash.slice(0, 12)}),
          seed {record.seed}.
        </p>
      );
    case 'author-event':
      return (
        <div>
          <p>
            Event <code>{record.event}</code> run by hand, seed {record.seed}.
          </p>
          <Rolls rolls={record.rolls} />
          <Notes notes={record.notes} />
        </div>
      );
    case 'turn':
      return <PlayedTurnTrace record={record} />;
    default: {
      const unreachable: never = record;
      return <pre class="json">{json(unreachable)}</pre>;
    }
  }
}

function PlayedTurnTrace({ record }: { record: PlayedTurn }) {
  return (
    <div>
      <p>
        {record.mode === 'offline' ? 'Offline turn' : 'Model turn'}, seed{' '}
        <span data-testid="trace-seed">{record.seed}</span>
        {record.time.advancedSeconds > 0 ? `, time ${record.time.before} → ${record.time.after}` : ''}.
      </p>
      {record.invariants !== undefined && record.invariants.length > 0 ? (
        <BrokenInvariants record={record} />
      ) : null}
      <ToolCalls record={record} />
      <Rolls rolls={record.rolls} />
      <Notes notes={record.notes} />
      <StateDiff record={record} />
      <Prompts record={record} />
      <Usage record={record} />
      {record.fidelity !== undefined && record.fidelity.outcome !== 'clean' ? (
        <>
          <h3>Narration fidelity: {record.fidelity.outcome}</h3>
          <ul data-testid="trace-fidelity">
            {record.fidelity.found.map((c, i) => (
              <li key={i}>
                “{c.sentence}” says {c.said}; {c.fact}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {record.warnings.length > 0 ? (
        <>
          <h3>Warnings</h3>
          <ul>
            {record.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </>
      ) : null}
      <details>
        <summary>Scene directives</summary>
        <pre class="json">{record.directives}</pre>
      </details>
    </div>
  );
}

/** The invariants an event left broken, each at its place, first (they are what an author fixes). */
function BrokenInvariants({ record }: { record: PlayedTurn }) {
  return (
    <div class="alert" role="alert" data-testid="trace-invariants">
      <h3>Invariants broken</h3>
      <ul>
        {(record.invariants ?? []).map((b, i) => (
          <li key={i}>
            <code>
              {b.place.file}:{b.place.line}:{b.place.col}
            </code>{' '}
            {b.message}, after <code>{b.event}</code> (rule call {b.call})
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Each tool call of the Director: its round, name, time, arguments and result. */
function ToolCalls({ record }: { record: PlayedTurn }) {
  return (
    <>
      <h3>Tool calls</h3>
      {record.tools.length === 0 ? <p class="muted">None.</p> : null}
      {record.tools.map((t) => (
        <details key={t.id} data-testid="trace-tool">
          <summary>
            {t.ok ? '✔' : '✘'} round {t.round}: <code>{t.name}</code> ({Math.round(t.durationMs)} ms)
          </summary>
          <pre class="json">{json(t.args ?? t.rawArgs)}</pre>
          <pre class="json">{t.content}</pre>
        </details>
      ))}
    </>
  );
}

/** What the turn changed in the state, path by path. */
function StateDiff({ record }: { record: PlayedTurn }) {
  return (
    <>
      <h3>State diff</h3>
      {record.delta.length === 0 ? <p class="muted">No change.</p> : null}
      <table class="data" data-testid="trace-delta">
        <tbody>
          {record.delta.map((d, i) => (
            <tr key={i}>
              <td>
                <code>{d.path.join('.')}</code>
              </td>
              <td>
                {d.op === 'set'
                  ? `${JSON.stringify(d.before ?? null)} → ${JSON.stringify(d.after)}`
                  : `deleted (was ${JSON.stringify(d.before)})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Each model call's prompt: its sections with their tokens and why each is there, with their receipts. */
function Prompts({ record }: { record: PlayedTurn }) {
  return (
    <>
      <h3>Prompts</h3>
      {record.prompts.length === 0 ? <p class="muted">No model was called.</p> : null}
      {record.prompts.map((p, i) => (
        <details key={i}>
          <summary>
            {p.role} call {p.call}: {p.tokens}/{p.budget} tokens
          </summary>
          <table class="data">
            <thead>
              <tr>
                <th>section</th>
                <th>tokens</th>
                <th>why</th>
              </tr>
            </thead>
            <tbody>{p.sections.flatMap(sectionRows)}</tbody>
          </table>
        </details>
      ))}
    </>
  );
}

/** A prompt section's row, then its receipts: each piece (lore, World Info, fact, message), what became of it and why. */
function sectionRows(s: PlayedTurn['prompts'][number]['sections'][number]) {
  return [
    <tr key={s.id} class={s.included ? '' : 'muted'}>
      <td>
        {s.included ? '' : '(left out) '}
        {s.id}
      </td>
      <td>{s.tokens}</td>
      <td>{s.reason}</td>
    </tr>,
    ...(s.items ?? []).map((item) => (
      <tr
        key={`${s.id}/${item.id}`}
        class={item.status === 'included' ? 'receipt' : 'receipt muted'}
        data-testid="prompt-receipt"
      >
        <td>
          ↳ {item.status === 'included' ? '' : `(${item.status.replace('_', ' ')}) `}
          {item.id}
        </td>
        <td>{item.tokens}</td>
        <td>{item.why}</td>
      </tr>
    )),
  ];
}

/** Token use per role with the models, and the time each phase took. */
function Usage({ record }: { record: PlayedTurn }) {
  return (
    <>
      <h3>Usage and latency</h3>
      <table class="data" data-testid="trace-usage">
        <thead>
          <tr>
            <th>role</th>
            <th>model</th>
            <th>calls</th>
            <th>in</th>
            <th>out</th>
            <th>cached</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(record.usage).map(([role, u]) => (
            <tr key={role}>
              <td>{role}</td>
              <td>{record.models[role as keyof typeof record.models] ?? '—'}</td>
              <td>{u.calls}</td>
              <td>{u.inputTokens}</td>
              <td>{u.outputTokens}</td>
              <td>{u.cachedInputTokens}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">
        {Object.entries(record.timings)
          .map(([phase, ms]) => `${phase} ${Math.round(ms ?? 0)} ms`)
          .join(' · ')}
      </p>
    </>
  );
}
