// The state panel: the player-facing state laid out by the cartridge schema (bars for bounded numbers).
import type { JSX } from 'preact';
import { barPercent, labelOf, type PanelEntry, type SchemaFieldView, statePanel } from './state-view.ts';

type EntryOf<K extends PanelEntry['kind']> = Extract<PanelEntry, { kind: K }>;

function Entry({ entry }: { entry: PanelEntry }) {
  switch (entry.kind) {
    case 'bar':
      return <Stat entry={entry} value={<BarValue entry={entry} />} />;
    case 'number':
    case 'text':
      return <Stat entry={entry} value={<PlainValue value={entry.value} />} />;
    case 'flag':
      return <Stat entry={entry} value={<FlagValue on={entry.value} />} />;
    case 'list':
      return <Stat entry={entry} value={<ListValue entry={entry} />} />;
    case 'group':
      return <Group entry={entry} />;
    default: {
      const unreachable: never = entry;
      return <span>{String(unreachable)}</span>;
    }
  }
}

/** One field of the state: its label, then its value. */
function Stat({ entry, value }: { entry: Exclude<PanelEntry, EntryOf<'group'>>; value: JSX.Element }) {
  return (
    <div class="stat" data-testid={`stat-${entry.path}`}>
      <span class="k">{labelOf(entry.key)}</span>
      {value}
    </div>
  );
}

function BarValue({ entry }: { entry: EntryOf<'bar'> }) {
  return (
    <>
      {/* The numbers beside it say the same for screen readers; the bar is for the eye. */}
      <div class="bar" aria-hidden="true">
        <span style={{ width: `${barPercent(entry)}%` }} />
      </div>
      <span>
        {entry.value}/{entry.max}
      </span>
    </>
  );
}

function PlainValue({ value }: { value: EntryOf<'number' | 'text'>['value'] }) {
  return <span style={{ gridColumn: 'span 2', overflowWrap: 'anywhere' }}>{String(value)}</span>;
}

function FlagValue({ on }: { on: boolean }) {
  return (
    <span class={on ? 'flag-on' : 'flag-off'} style={{ gridColumn: 'span 2' }}>
      {on ? '✔ yes' : '✘ no'}
    </span>
  );
}

function ListValue({ entry }: { entry: EntryOf<'list'> }) {
  return (
    <span class="chips" style={{ gridColumn: 'span 2' }}>
      {entry.items.length === 0 ? <span class="muted">none</span> : null}
      {entry.items.map((item, i) => (
        <span key={i} class="chip">
          {item}
        </span>
      ))}
      {entry.more > 0 ? <span class="muted">… {entry.more} more</span> : null}
    </span>
  );
}

function Group({ entry }: { entry: EntryOf<'group'> }) {
  return (
    <div class="group">
      <div class="title">{labelOf(entry.key)}</div>
      {entry.entries.map((e) => (
        <Entry key={e.path} entry={e} />
      ))}
      {entry.more > 0 ? <div class="muted">… {entry.more} more</div> : null}
    </div>
  );
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
