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
