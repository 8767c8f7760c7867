// The panels beside the story: state, world, tree, saves and author tools, behind keyboard-navigable tabs.
import { useEffect, useState } from 'preact/hooks';
import type { SessionView, TurnView } from '../../../contract/index.ts';
import type { SchemaFieldView } from './state-view.ts';
import type { Tree } from '../tree.ts';
import { AuthorPanel } from './author-panel.tsx';
import { SavesPanel } from './saves-panel.tsx';
import { StatePanel } from './state-panel.tsx';
import { TreePanel } from './tree-panel.tsx';
import { WorldPanel } from './world-panel.tsx';

type Tab = 'state' | 'world' | 'tree' | 'saves' | 'author';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'state', label: 'State' },
  { id: 'world', label: 'World' },
  { id: 'tree', label: 'Tree' },
  { id: 'saves', label: 'Saves' },
  { id: 'author', label: 'Author' },
];

interface SidePanelsProps {
  sessionId: string;
  session: SessionView | null;
  head: TurnView | null;
  tree: Tree;
  /** Whether `tree` is the whole tree (else the end of the head's branch: use-play.ts). */
  wholeTree: boolean;
  /** The Tree panel is shown: read the whole tree if it is not known. */
  onTreeShown: () => void;
  fields: readonly SchemaFieldView[];
  running: boolean;
  /** A turn this client has read, for the tree's labels. */
  turnCached: (id: string) => TurnView | undefined;
  /** Moves the head to a turn (tree, saves). */
  onJump: (id: string) => void;
  /** The session changed outside a turn (an author event was committed). */
  onReload: () => void;
}

export function SidePanels(props: SidePanelsProps) {
  const [tab, setTab] = useState<Tab>('state');
  const treeShown = tab === 'tree';
  const { wholeTree, onTreeShown } = props;
  useEffect(() => {
    if (treeShown && !wholeTree) onTreeShown();
  }, [treeShown, wholeTree]);
  return (
    <aside class="side" aria-label="Game panels">
      <PanelTabs tab={tab} onTab={setTab} />
      <div class="tabpanel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        <PanelBody tab={tab} {...props} />
      </div>
    </aside>
  );
}

/** The tabs: a roving tab stop, arrow keys move between them (and wrap). */
function PanelTabs({ tab, onTab }: { tab: Tab; onTab: (tab: Tab) => void }) {
  return (
    <div class="tabs" role="tablist" aria-label="Panels">
      {TABS.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={tab === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={tab === t.id ? 0 : -1}
          data-testid={`tab-${t.id}`}
          onClick={() => onTab(t.id)}
          onKeyDown={(e) => {
            const i = TABS.findIndex((x) => x.id === tab);
            const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
            if (step === 0) return;
            const next = TABS[(i + step + TABS.length) % TABS.length] as (typeof TABS)[number];
            onTab(next.id);
            document.getElementById(`tab-${next.id}`)?.focus();
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The chosen tab's panel (those of a turn wait for the head). */
function PanelBody(props: SidePanelsProps & { tab: Tab }) {
  const { tab, sessionId, session, head, running } = props;
  return (
    <>
      {tab === 'state' ? <StatePanel state={head?.state} fields={props.fields} /> : null}
      {tab === 'world' && head ? <WorldPanel sessionId={sessionId} turnId={head.id} /> : null}
      {tab === 'tree' && session && !props.wholeTree ? <p class="muted">Reading the tree…</p> : null}
      {tab === 'tree' && session && props.wholeTree ? (
        <TreePanel
          tree={props.tree}
          headId={session.headTurnId}
          label={props.turnCached}
          disabled={running}
          onJump={props.onJump}
        />
      ) : null}
      {tab === 'saves' && head ? (
        <SavesPanel sessionId={sessionId} headId={head.id} disabled={running} onLoad={props.onJump} />
      ) : null}
      {tab === 'author' && head ? (
        <AuthorPanel sessionId={sessionId} turnId={head.id} onCommitted={props.onReload} />
      ) : null}
    </>
  );
}
