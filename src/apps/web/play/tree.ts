// The session's turn tree, as the client shows it: the branch to the head (the story), the swipes of each
// turn (its siblings), and the whole tree as chains of turns with the alternatives grouped under the turn
// they follow, so a long game stays narrow.

export interface TreeNode {
  readonly id: string;
  readonly parentId: string | null;
  readonly depth: number;
  readonly siblingIndex: number;
  readonly seq: number;
}

export interface Tree {
  readonly byId: ReadonlyMap<string, TreeNode>;
  /** Children by parent id, in sibling order. */
  readonly children: ReadonlyMap<string, readonly TreeNode[]>;
  readonly root: TreeNode | undefined;
}

/**
 * The tree with the turns an action committed added, so the client need not read the whole tree again
 * after each turn (a turn already there, replayed, is not added twice).
 */
export function withTurns<T extends TreeNode>(nodes: readonly T[], committed: readonly T[]): readonly T[] {
  if (committed.length === 0) return nodes;
  const known = new Set(nodes.map((node) => node.id));
  const added = committed.filter((turn) => !known.has(turn.id));
  return added.length === 0 ? nodes : [...nodes, ...added];
}

export function buildTree(nodes: readonly TreeNode[]): Tree {
  const byId = new Map<string, TreeNode>();
  const children = new Map<string, TreeNode[]>();
  let root: TreeNode | undefined;
  for (const node of nodes) byId.set(node.id, node);
  for (const node of nodes) {
    if (node.parentId === null || !byId.has(node.parentId)) {
      if (root === undefined || node.seq < root.seq) root = node;
      continue;
    }
    const list = children.get(node.parentId) ?? [];
    list.push(node);
    children.set(node.parentId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.siblingIndex - b.siblingIndex || a.seq - b.seq);
  return { byId, children, root };
}

/** Ids from the root to `id`, inclusive (empty when `id` is unknown). */
export function lineage(tree: Tree, id: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let node = tree.byId.get(id);
  while (node !== undefined && !seen.has(node.id)) {
    seen.add(node.id);
    out.push(node.id);
    node = node.parentId === null ? undefined : tree.byId.get(node.parentId);
  }
  return out.reverse();
}

export interface Swipes {
  /** 0-based position of the turn among its siblings. */
  readonly index: number;
  readonly count: number;
  readonly previous: string | undefined;
  readonly next: string | undefined;
}

/** Where a turn sits among its siblings (the alternatives of the same input). */
export function swipesOf(tree: Tree, id: string): Swipes | undefined {
  const node = tree.byId.get(id);
  if (node === undefined || node.parentId === null) return undefined;
  const siblings = tree.children.get(node.parentId) ?? [node];
  const index = siblings.findIndex((s) => s.id === id);
  return {
    index,
    count: siblings.length,
    previous: siblings[index - 1]?.id,
    next: siblings[index + 1]?.id,
  };
}

/** The deepest turn reached by always following the first child, from `id` (where a swipe leads). */
export function leafOf(tree: Tree, id: string): string {
  let current = id;
  const seen = new Set<string>();
  for (;;) {
    seen.add(current);
    const first = tree.children.get(current)?.[0];
    if (first === undefined || seen.has(first.id)) return current;
    current = first.id;
  }
}

/**
 * Where a swipe to `siblingId` leads: back to the turn that was shown under that version when the player
 * last swiped away from it (so ‹ then › returns to the version chosen further down, not the first one), else
 * its first-child leaf. Records the head under the version being left in `chosen` (version id → head id).
 */
export function swipeTarget(
  tree: Tree,
  headId: string,
  siblingId: string,
  chosen: Map<string, string>,
): string {
  const parent = tree.byId.get(siblingId)?.parentId;
  const leaving = lineage(tree, headId).find(
    (id) => parent != null && tree.byId.get(id)?.parentId === parent,
  );
  if (leaving !== undefined) chosen.set(leaving, headId);
  const remembered = chosen.get(siblingId);
  if (remembered !== undefined && lineage(tree, remembered).includes(siblingId)) return remembered;
  return leafOf(tree, siblingId);
}

/**
 * The tree as it reads: a chain of turns (each with one next turn) as one list, and where a turn has
 * several next turns (swipes of the same input, or branches played from there), one group per
 * alternative right under it. A branch made from turn #2 therefore sits under #2, not after the end of
 * the longest line.
 */
export interface Chain {
  readonly ids: readonly string[];
  /** The alternatives after the last turn of `ids`, in sibling order (empty: the chain ends). */
  readonly branches: readonly Chain[];
}

/** The whole tree as chains, built without recursion so a long game cannot overflow the stack. */
export function chains(tree: Tree): Chain | undefined {
  if (tree.root === undefined) return undefined;
  type Building = { ids: string[]; branches: Building[] };
  const top: Building = { ids: [], branches: [] };
  const work: { start: TreeNode; into: Building }[] = [{ start: tree.root, into: top }];
  const seen = new Set<string>();
  while (work.length > 0) {
    const { start, into } = work.pop() as { start: TreeNode; into: Building };
    let node: TreeNode | undefined = start;
    while (node !== undefined && !seen.has(node.id)) {
      seen.add(node.id);
      into.ids.push(node.id);
      const kids: readonly TreeNode[] = tree.children.get(node.id) ?? [];
      if (kids.length === 1) {
        node = kids[0];
        continue;
      }
      for (const kid of kids) {
        const branch: Building = { ids: [], branches: [] };
        into.branches.push(branch);
        work.push({ start: kid, into: branch });
      }
      node = undefined;
    }
  }
  return top;
}

/**
 * The path to the head drawn as one straight run: the chains along it joined, each alternative off the
 * path kept beside the turn it follows (`sides`, by index in `ids`), and the alternatives after the path's
 * last chain (`branches`, none of them on the path). A game with a swipe every few turns is then one run
 * to fold, not hundreds of nested lists.
 */
export interface Spine {
  readonly ids: readonly string[];
  readonly sides: ReadonlyMap<number, readonly Chain[]>;
  readonly branches: readonly Chain[];
}

export function spineOf(top: Chain, onPath: ReadonlySet<string>): Spine {
  const ids: string[] = [];
  const sides = new Map<number, Chain[]>();
  let chain = top;
  for (;;) {
    for (const id of chain.ids) ids.push(id);
    const next = chain.branches.find((b) => b.ids[0] !== undefined && onPath.has(b.ids[0]));
    if (next === undefined) return { ids, sides, branches: chain.branches };
    const others = chain.branches.filter((b) => b !== next);
    if (others.length > 0) sides.set(ids.length - 1, others);
    chain = next;
  }
}

/** Turns shown at each end of a long straight run, and around a turn that must show (the head). */
export const RUN_EDGE = 2;
/** Turns a folded run shows more each time it is opened. */
export const RUN_REVEAL = 50;

/** A row of a folded run: one turn (by its index in the run), or the hidden turns `from`..`to` (inclusive). */
export type RunRow =
  | { readonly kind: 'turn'; readonly index: number }
  | { readonly kind: 'fold'; readonly from: number; readonly to: number };

/**
 * A straight run of `length` turns folded to what is worth a row: its first and last RUN_EDGE turns, the
 * turns within RUN_EDGE of each index in `keep` (the head, the path's way out), and the `revealed` ranges
 * (inclusive); each gap of two or more turns is one fold row. Rows are O(shown), whatever the length.
 */
export function foldRun(
  length: number,
  keep: readonly number[],
  revealed: readonly (readonly [number, number])[],
): RunRow[] {
  const wanted: (readonly [number, number])[] = [
    [0, RUN_EDGE - 1],
    [length - RUN_EDGE, length - 1],
    ...keep.map((k): [number, number] => [k - RUN_EDGE, k + RUN_EDGE]),
    ...revealed,
  ];
  const ranges = wanted
    .map(([a, b]): [number, number] => [Math.max(0, a), Math.min(length - 1, b)])
    .filter(([a, b]) => a <= b)
    .sort((x, y) => x[0] - y[0]);
  const rows: RunRow[] = [];
  let next = 0;
  const gap = (to: number) => {
    if (to - next >= 1) rows.push({ kind: 'fold', from: next, to });
    else if (to === next) rows.push({ kind: 'turn', index: next });
  };
  for (const [a, b] of ranges) {
    if (b < next) continue;
    gap(a - 1);
    for (let i = Math.max(a, next); i <= b; i++) rows.push({ kind: 'turn', index: i });
    next = b + 1;
  }
  gap(length - 1);
  return rows;
}
