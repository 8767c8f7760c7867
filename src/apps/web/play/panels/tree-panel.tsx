// The branch tree as it reads: a chain of turns is one list; where a turn has several next turns (swipes
// of the same input, or branches played from there) each alternative is a group right under it, so a
// branch sits under the turn it was made from. The path to the current turn is highlighted. Choosing a
// turn moves the head there; the next turn played from it starts a new branch (the old one stays).
import type { TurnView } from '../../../contract/index.ts';
import { treeLabel } from '../../lib/forms.ts';
import { type Chain, chains, lineage, swipesOf, type Tree } from '../tree.ts';
import { BranchIcon } from '../../ui/icons.tsx';

interface Props {
  tree: Tree;
  headId: string;
  label: (id: string) => TurnView | undefined;
  disabled: boolean;
  onJump: (id: string) => void;
}

export function TreePanel(props: Props) {
  const onPath = new Set(lineage(props.tree, props.headId));
  const top = chains(props.tree);
  return (
    <section aria-label="Branch tree">
      <p class="muted">Choose a turn to go back to it; play on from there to branch.</p>
      <div class="tree" data-testid="tree">
        {top ? <ChainView chain={top} props={props} onPath={onPath} /> : null}
      </div>
    </section>
  );
}

function ChainView({ chain, props, onPath }: { chain: Chain; props: Props; onPath: ReadonlySet<string> }) {
  const many = chain.branches.length > 1;
  return (
    <ol class="chain">
      {chain.ids.map((id) => (
        <li key={id}>
          <TurnButton id={id} props={props} onPath={onPath} />
        </li>
      ))}
      {chain.branches.length > 0 ? (
        <li>
          <ul
            class={many ? 'branches' : 'chain-next'}
            aria-label={many ? `${chain.branches.length} ways on from here` : undefined}
          >
            {chain.branches.map((branch, i) => (
              <li
                key={branch.ids[0] ?? i}
                class={branch.ids.some((id) => onPath.has(id)) ? 'branch on-path' : 'branch'}
              >
                <ChainView chain={branch} props={props} onPath={onPath} />
              </li>
            ))}
          </ul>
        </li>
      ) : null}
    </ol>
  );
}

function TurnButton({ id, props, onPath }: { id: string; props: Props; onPath: ReadonlySet<string> }) {
  const node = props.tree.byId.get(id);
  const turn = props.label(id);
  const depth = node?.depth ?? 0;
  const text = turn
    ? (turn.input ?? turn.narration) || '(first message)'
    : depth === 0
      ? '(first message)'
      : '';
  const siblings = swipesOf(props.tree, id)?.count ?? 1;
  const short = treeLabel(text);
  return (
    <button
      type="button"
      class={onPath.has(id) ? 'on-path' : ''}
      aria-current={id === props.headId ? 'true' : undefined}
      disabled={props.disabled}
      data-testid="tree-node"
      data-turn-id={id}
      data-depth={depth}
      title={text}
      onClick={() => props.onJump(id)}
    >
      {siblings > 1 ? <BranchIcon /> : null}#{depth} {short || `turn ${id.slice(0, 6)}`}
    </button>
  );
}
