// How the play screen reads its turn tree: a long game opens from the end of the head's branch with the
// swipes along it (`GET …/tree?limit=`, play-api.ts treeAround), grows it as the player scrolls up, and reads
// the whole tree only when something needs it (the Tree panel, a swipe: use-play.ts). Opening a game of
// 5,000 turns then costs about what one of 50 does.

import type { NodeView } from '../../contract/index.ts';
import type { PlayApi } from './play-api.ts';
import { buildTree, lineage, withTurns } from './tree.ts';

/** The tree as read so far: its nodes, and whether they are the whole tree. */
export interface KnownTree {
  readonly nodes: readonly NodeView[];
  readonly whole: boolean;
}

/** The server's HISTORY_MAX_TURNS (apps/server/limits.ts): the most turns one `treeAround` read walks. */
const TREE_READ_MAX = 500;

/**
 * The tree to show the head with: `known` when it holds the head (an action added what it committed), else
 * the end of the head's branch (`turns` of it, with their swipes) added to what is known.
 */
export async function treeWithHead(
  api: PlayApi,
  sessionId: string,
  headId: string,
  known: KnownTree,
  turns: number,
): Promise<KnownTree> {
  if (known.nodes.some((node) => node.id === headId)) return known;
  const around = await api.treeAround(sessionId, Math.min(turns, TREE_READ_MAX), headId);
  return { nodes: withTurns(known.nodes, around), whole: false };
}

/**
 * Whether a swipe to `siblingId` needs the whole tree (tree.ts swipeTarget): not when it is known, nor when
 * nothing was played after that version (the swipe leads to it: one small read of its children); else the
 * swipe leads down its subtree, or back to a turn remembered under it (`chosen`), which the end of the
 * head's branch does not hold.
 */
export async function swipeNeedsWhole(
  api: PlayApi,
  sessionId: string,
  known: KnownTree,
  siblingId: string,
  chosen: ReadonlyMap<string, string>,
): Promise<boolean> {
  if (known.whole) return false;
  if (chosen.has(siblingId)) return true;
  return (await api.children(sessionId, siblingId)).length > 0;
}

/**
 * The tree with at least `want` turns of the head's branch (or all of it): older turns, and their swipes,
 * read when the branch as known stops short of them. Returns `known` itself when nothing was missing.
 */
export async function treeToDepth(
  api: PlayApi,
  sessionId: string,
  headId: string,
  known: KnownTree,
  want: number,
): Promise<KnownTree> {
  if (known.whole) return known;
  const tree = buildTree(known.nodes);
  const ids = lineage(tree, headId);
  const oldest = ids[0] === undefined ? undefined : tree.byId.get(ids[0]);
  if (ids.length >= want || oldest?.parentId == null) return known;
  const more = await api.treeAround(sessionId, Math.min(want - ids.length, TREE_READ_MAX), oldest.parentId);
  return { nodes: withTurns(known.nodes, more), whole: false };
}
