// The state panel: the player-facing state laid out by the cartridge schema (bars for bounded numbers).
import { barPercent, labelOf, type PanelEntry, type SchemaFieldView, statePanel } from './state-view.ts';

function Entry({ entry }: { entry: PanelEntry }) {
  switch (entry.kind) {
    case 'bar':
      return (
        <div class="stat" data-testid={`stat-${entry.path}`}>
          <span class="k">{labelOf(entry.key)}</span>
          {/* The numbers beside it say the same for screen readers; the bar is for the eye. */}
          <div class="bar" aria-hidden="true">
            <span style={{ width: `${barPercent(entry)}%` }} />
          </div>
          <span>
            {entry.value}/{entry.max}
          </span>
        </div>
      );
    case 'number':
    case 'text':
      return (
        <div class="stat" data-testid={`stat-${entry.path}`}>
          <span class="k">{labelOf(entry.key)}</span>
          <span style={{ gridColumn: 'span 2', overflowWrap: 'anywhere' }}>{String(entry.value)}</span>
        </div>
      );
    case 'flag':
      return (
        <div class="stat" data-testid={`stat-${entry.path}`}>
          <span class="k">{labelOf(entry.key)}</span>
          <span class={entry.value ? 'flag-on' : 'flag-off'} style={{ gridColumn: 'span 2' }}>
            {entry.value ? '✔ yes' : '✘ no'}
          </span>
        </div>
      );
    case 'list':
      return (
        <div class="stat" data-testid={`stat-${entry.path}`}>
          <span class="k">{labelOf(entry.key)}</span>
          <span class="chips" style={{ gridColumn: 'span 2' }}>
            {entry.items.length === 0 ? <span class="muted">none</span> : null}
            {entry.items.map((item, i) => (
              <span key={i} class="chip">
                {item}
              </span>
            ))}
            {entry.more > 0 ? <span class="muted">… {entry.more} more</span> : null}
          </span>
        </div>
      );
    case 'group':
      return (
        <div class="group">
          <div class="title">{labelOf(entry.key)}</div>
          {entry.entries.map((e) => (
            <Entry key={e.path} entry={e} />
          ))}
          {entry.more > 0 ? <div class="muted">… {entry.more} more</div> : null}
        </div>
      );
    default: {
      const unreachable: never = entry;
      return <span>{String(unreachable)}</span>;
    }
  }
}

export function StatePanel({ state, fields }: { state: unknown; fields: readonly SchemaFieldView[] }) {
  const entries = statePanel(state, fields);
  return (
    <section aria-label="State" data-testid="state-panel">
      {entries.length === 0 ? <p class="muted">No state yet.</p> : null}
      {entries.map((e) => (
        <Entry key={e.path} entry={e} />
      ))}
    </section>
  );
}
