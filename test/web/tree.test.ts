import { describe, expect, it } from 'vitest';
import { buildTree, chains, leafOf, lineage, swipesOf, type TreeNode } from '../../src/apps/web/play/tree.ts';

// g ─ a ─ b ─ c
//       ├ b2 ─ d
//       └ b3
const nodes: TreeNode[] = [
  { id: 'g', parentId: null, depth: 0, siblingIndex: 0, seq: 0 },
  { id: 'a', parentId: 'g', depth: 1, siblingIndex: 0, seq: 1 },
  { id: 'b', parentId: 'a', depth: 2, siblingIndex: 0, seq: 2 },
  { id: 'c', parentId: 'b', depth: 3, siblingIndex: 0, seq: 3 },
  { id: 'b3', parentId: 'a', depth: 2, siblingIndex: 2, seq: 6 },
  { id: 'b2', parentId: 'a', depth: 2, siblingIndex: 1, seq: 4 },
  { id: 'd', parentId: 'b2', depth: 3, siblingIndex: 0, seq: 5 },
];

describe('turn tree', () => {
  const tree = buildTree(nodes);

  it('walks the branch from the first message to a turn', () => {
    expect(lineage(tree, 'd')).toEqual(['g', 'a', 'b2', 'd']);
    expect(lineage(tree, 'missing')).toEqual([]);
  });

  it('lists swipes in sibling order', () => {
    expect(swipesOf(tree, 'b2')).toEqual({ index: 1, count: 3, previous: 'b', next: 'b3' });
    expect(swipesOf(tree, 'b')).toMatchObject({ index: 0, previous: undefined, next: 'b2' });
    expect(swipesOf(tree, 'g')).toBeUndefined();
  });

  it('follows first children to the leaf a swipe leads to', () => {
    expect(leafOf(tree, 'b2')).toBe('d');
    expect(leafOf(tree, 'b3')).toBe('b3');
  });
});

describe('the tree as it reads (chains)', () => {
  it('keeps a chain in one list and puts each alternative right under the turn it follows', () => {
    expect(chains(buildTree(nodes))).toEqual({
      ids: ['g', 'a'],
      branches: [
        { ids: ['b', 'c'], branches: [] },
        { ids: ['b2', 'd'], branches: [] },
        { ids: ['b3'], branches: [] },
      ],
    });
  });

  it('shows a branch made from an early turn under that turn, not after the end of the long line', () => {
    // g ─ 1 ─ 2 ─ 3 ─ … ─ 12, with a swipe of 12 and a branch played from 2.
    const line: TreeNode[] = [{ id: 't0', parentId: null, depth: 0, siblingIndex: 0, seq: 0 }];
    for (let i = 1; i <= 12; i++)
      line.push({ id: `t${i}`, parentId: `t${i - 1}`, depth: i, siblingIndex: 0, seq: i });
    line.push({ id: 's12', parentId: 't11', depth: 12, siblingIndex: 1, seq: 13 });
    line.push({ id: 'x3', parentId: 't2', depth: 3, siblingIndex: 1, seq: 14 });
    const top = chains(buildTree(line))!;
    expect(top.ids).toEqual(['t0', 't1', 't2']);
    expect(top.branches.map((b) => b.ids[0])).toEqual(['t3', 'x3']);
    const main = top.branches[0]!;
    expect(main.ids).toEqual(['t3', 't4', 't5', 't6', 't7', 't8', 't9', 't10', 't11']);
    expect(main.branches.map((b) => b.ids)).toEqual([['t12'], ['s12']]);
  });

  it('builds a very long game without recursion', () => {
    const long: TreeNode[] = [{ id: 'n0', parentId: null, depth: 0, siblingIndex: 0, seq: 0 }];
    for (let i = 1; i < 50_000; i++)
      long.push({ id: `n${i}`, parentId: `n${i - 1}`, depth: i, siblingIndex: 0, seq: i });
    expect(chains(buildTree(long))!.ids).toHaveLength(50_000);
  });
});
