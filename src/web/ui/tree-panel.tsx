// The branch tree: every turn of the session, the head's branch highlighted. Choosing a turn moves the
// head there; the next turn played from it starts a new branch (the old one stays in the tree).
import type { TurnView } from '../api.ts';
import { treeLabel } from '../lib/forms.ts';
import { lineage, outline, type Tree } from '../lib/tree.ts';
import { BranchIcon } from './icons.tsx';

export function TreePanel(props: {
  tree: Tree;
  headId: string;
  label: (id: string) => TurnView | undefined;
  disabled: boolean;
  onJump: (id: string) => void;
}) {
  const onPath = new Set(lineage(props.tree, props.headId));
  const rows = outline(props.tree);
  return (
    <section aria-label="Branch tree">
      <p class="muted">Choose a turn to go back to it; play on from there to branch.</p>
      <ul class="tree" data-testid="tree">
        {rows.map((row) => {
          const turn = props.label(row.id);
          const text = turn
            ? (turn.input ?? turn.narration) || '(first message)'
            : row.depth === 0
              ? '(first message)'
              : '';
          const short = treeLabel(text);
          return (
            <li key={row.id} style={{ paddingLeft: `${row.column * 1}rem` }}>
              <button
                type="button"
                class={onPath.has(row.id) ? 'on-path' : ''}
                aria-current={row.id === props.headId ? 'true' : undefined}
                disabled={props.disabled}
                data-testid="tree-node"
                data-turn-id={row.id}
                data-depth={row.depth}
                title={text}
                onClick={() => props.onJump(row.id)}
              >
                {row.branched ? <BranchIcon /> : null}#{row.depth} {short || `turn ${row.id.slice(0, 6)}`}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
