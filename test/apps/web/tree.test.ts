import { describe, expect, it } from 'vitest';
import {
  buildTree,
  chains,
  foldRun,
  leafOf,
  RUN_EDGE,
  lineage,
  spineOf,
  swipesOf,
  swipeTarget,
  type TreeNode,
  withTurns,
} from '../../../src/apps/web/play/tree.ts';

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

  it('swipes back to the version chosen further down, not the first one (issue 34: 2/3, not 1/3)', () => {
    // g ─ a ─ b ─ c1 / c2 / c3, and a2 beside a: the player chose c2, swipes a ‹ to a2 and back ›.
    const deep = buildTree([
      { id: 'g', parentId: null, depth: 0, siblingIndex: 0, seq: 0 },
      { id: 'a', parentId: 'g', depth: 1, siblingIndex: 0, seq: 1 },
      { id: 'a2', parentId: 'g', depth: 1, siblingIndex: 1, seq: 2 },
      { id: 'b', parentId: 'a', depth: 2, siblingIndex: 0, seq: 3 },
      { id: 'c1', parentId: 'b', depth: 3, siblingIndex: 0, seq: 4 },
      { id: 'c2', parentId: 'b', depth: 3, siblingIndex: 1, seq: 5 },
      { id: 'c3', parentId: 'b', depth: 3, siblingIndex: 2, seq: 6 },
    ]);
    const chosen = new Map<string, string>();
    expect(swipeTarget(deep, 'c2', 'a2', chosen)).toBe('a2');
    expect(swipeTarget(deep, 'a2', 'a', chosen)).toBe('c2');
    // Never swiped away from: the first-child leaf, as before.
    expect(swipeTarget(deep, 'c2', 'c3', new Map())).toBe('c3');
    expect(swipeTarget(deep, 'a2', 'a', new Map())).toBe('c1');
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

describe('a long straight run, folded', () => {
  const shown = (rows: ReturnType<typeof foldRun>) =>
    rows.map((r) => (r.kind === 'turn' ? r.index : `${r.from}-${r.to}`));

  it('leaves a short run whole', () => {
    expect(shown(foldRun(4, [], []))).toEqual([0, 1, 2, 3]);
    // One turn between the ends is a row of its own, not a fold of one.
    expect(shown(foldRun(2 * RUN_EDGE + 1, [], []))).toEqual([0, 1, 2, 3, 4]);
  });

  it('folds two or more hidden turns into one row', () => {
    expect(shown(foldRun(2 * RUN_EDGE + 2, [], []))).toEqual([0, 1, '2-3', 4, 5]);
  });

  it('shows the ends and the turns around the head, whatever the length', () => {
    expect(shown(foldRun(1000, [500], []))).toEqual([
      0,
      1,
      '2-497',
      498,
      499,
      500,
      501,
      502,
      '503-997',
      998,
      999,
    ]);
    expect(foldRun(1_000_000, [3], [])).toHaveLength(2 * RUN_EDGE + RUN_EDGE + 1 + 2);
  });

  it('shows revealed ranges and merges overlaps', () => {
    expect(
      shown(
        foldRun(
          20,
          [],
          [
            [2, 5],
            [4, 8],
          ],
        ),
      ),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, '9-17', 18, 19]);
    // A revealed range past the end is clipped.
    expect(shown(foldRun(6, [], [[2, 50]]))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('the tree after an action', () => {
  it('adds the turns the action committed, once, without reading the tree again', () => {
    const played = { id: 'e', parentId: 'c', depth: 4, siblingIndex: 0, seq: 7 };
    const grown = withTurns(nodes, [played]);
    expect(grown).toHaveLength(nodes.length + 1);
    expect(lineage(buildTree(grown), 'e')).toEqual(['g', 'a', 'b', 'c', 'e']);
    // A replayed turn (an Idempotency-Key answered it before) is already there: the same list comes back.
    expect(withTurns(grown, [played])).toBe(grown);
    expect(withTurns(nodes, [])).toBe(nodes);
  });
});

describe('the path to the head as one run (spine)', () => {
  it('joins the chains along the path and keeps the other alternatives beside the turn they follow', () => {
    const tree = buildTree(nodes);
    const spine = spineOf(chains(tree)!, new Set(lineage(tree, 'd')));
    expect(spine.ids).toEqual(['g', 'a', 'b2', 'd']);
    expect([...spine.sides]).toEqual([
      [
        1,
        [
          { ids: ['b', 'c'], branches: [] },
          { ids: ['b3'], branches: [] },
        ],
      ],
    ]);
    expect(spine.branches).toEqual([]);
  });

  it('is one run for a game with a swipe every few turns, however long', () => {
    const long: TreeNode[] = [{ id: 'n0', parentId: null, depth: 0, siblingIndex: 0, seq: 0 }];
    for (let i = 1; i < 5_000; i++) {
      long.push({ id: `n${i}`, parentId: `n${i - 1}`, depth: i, siblingIndex: 0, seq: 2 * i });
      if (i % 25 === 0)
        long.push({ id: `s${i}`, parentId: `n${i - 1}`, depth: i, siblingIndex: 1, seq: 2 * i + 1 });
    }
    const tree = buildTree(long);
    const spine = spineOf(chains(tree)!, new Set(lineage(tree, 'n4999')));
    expect(spine.ids).toHaveLength(5_000);
    expect(spine.sides.size).toBe(199);
    // The first turns, one fold row, and the head with the turns before it.
    expect(foldRun(spine.ids.length, [4999], [])).toHaveLength(RUN_EDGE + 1 + (RUN_EDGE + 1));
  });
});
