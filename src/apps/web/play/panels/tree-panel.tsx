// The branch tree as it reads: a chain of turns is one list; where a turn has several next turns (swipes
// of the same input, or branches played from there) each alternative is a group right under it, so a
// branch sits under the turn it was made from. The path to the current turn is highlighted. Choosing a
// turn moves the head there; the next turn played from it starts a new branch (the old one stays).
// Folded so a long game stays a short list: the path to the head is one run (tree.ts spineOf), a long
// straight run shows its ends and the head (the turns between are one row that opens fifty at a time), and
// a branch off the path shows its first turn only until opened.
import { useState } from 'preact/hooks';
import type { TurnView } from '../../../contract/index.ts';
import { treeLabel } from '../../lib/forms.ts';
import { gameEventText } from '../story-events.ts';
import {
  type Chain,
  chains,
  foldRun,
  lineage,
  RUN_REVEAL,
  type Spine,
  spineOf,
  swipesOf,
  type Tree,
} from '../tree.ts';
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
        {top ? <ChainView chain={spineOf(top, onPath)} props={props} onPath={onPath} /> : null}
      </div>
    </section>
  );
}

/** A run of turns, folded (tree.ts foldRun), with the alternatives beside the turns they follow. */
function ChainView({
  chain,
  props,
  onPath,
}: {
  chain: Chain | Spine;
  props: Props;
  onPath: ReadonlySet<string>;
}) {
  const [revealed, setRevealed] = useState<readonly (readonly [number, number])[]>([]);
  const keep = chain.ids.flatMap((id, i) => (id === props.headId ? [i] : []));
  const sides = 'sides' in chain ? chain.sides : undefined;
  return (
    <ol class="chain">
      {foldRun(chain.ids.length, keep, revealed).map((row) => {
        if (row.kind === 'fold')
          return (
            <li key={`fold-${row.from}`}>
              <button
                type="button"
                class="fold"
                data-testid="tree-fold"
                onClick={() => setRevealed([...revealed, [row.from, row.from + RUN_REVEAL - 1]])}
              >
                ⋯ {(row.to - row.from + 1).toLocaleString('en')} turns
              </button>
            </li>
          );
        const id = chain.ids[row.index] as string;
        const beside = sides?.get(row.index);
        return [
          <li key={id}>
            <TurnButton id={id} props={props} onPath={onPath} />
          </li>,
          beside ? (
            <Alternatives key={`${id}-sides`} branches={beside} props={props} onPath={onPath} />
          ) : null,
        ];
      })}
      {chain.branches.length > 0 ? (
        <Alternatives branches={chain.branches} props={props} onPath={onPath} />
      ) : null}
    </ol>
  );
}

/** The alternatives after a turn: one group each, right under it. */
function Alternatives({
  branches,
  props,
  onPath,
}: {
  branches: readonly Chain[];
  props: Props;
  onPath: ReadonlySet<string>;
}) {
  const many = branches.length > 1;
  return (
    <li>
      <ul
        class={many ? 'branches' : 'chain-next'}
        aria-label={many ? `${branches.length} ways on from here` : undefined}
      >
        {branches.map((branch, i) => (
          <BranchView key={branch.ids[0] ?? i} branch={branch} props={props} onPath={onPath} />
        ))}
      </ul>
    </li>
  );
}

/** One alternative: on the path it is open; off it, its first turn and a row that opens the rest. */
function BranchView({ branch, props, onPath }: { branch: Chain; props: Props; onPath: ReadonlySet<string> }) {
  const here = branch.ids.some((id) => onPath.has(id));
  const [open, setOpen] = useState(false);
  const first = branch.ids[0];
  const more = branch.ids.length - 1 + (branch.branches.length > 0 ? 1 : 0);
  return (
    <li class={here ? 'branch on-path' : 'branch'}>
      {here || open || first === undefined || more === 0 ? (
        <ChainView chain={branch} props={props} onPath={onPath} />
      ) : (
        <ol class="chain">
          <li>
            <TurnButton id={first} props={props} onPath={onPath} />
          </li>
          <li>
            <button type="button" class="fold" data-testid="tree-open-branch" onClick={() => setOpen(true)}>
              ⋯ more of this branch
            </button>
          </li>
        </ol>
      )}
    </li>
  );
}

function TurnButton({ id, props, onPath }: { id: string; props: Props; onPath: ReadonlySet<string> }) {
  const node = props.tree.byId.get(id);
  const turn = props.label(id);
  const depth = node?.depth ?? 0;
  // A mini-game's result is recorded as a line like `[minigame:lights_out status=completed …]`: in words.
  const event = turn?.input ? gameEventText(turn.input) : undefined;
  const text = turn
    ? (event ?? turn.input ?? turn.narration) || '(first message)'
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
