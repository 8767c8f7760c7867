// How the play screen reads its tree (src/apps/web/play/tree-reads.ts), against a real server: the end of
// the head's branch when it opens, grown by the turns before the oldest one known, and the whole tree kept
// as it is.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHttp } from '../../../src/apps/web/lib/http.ts';
import { PlayApi } from '../../../src/apps/web/play/play-api.ts';
import { buildTree, lineage } from '../../../src/apps/web/play/tree.ts';
import {
  type KnownTree,
  swipeNeedsWhole,
  treeToDepth,
  treeWithHead,
} from '../../../src/apps/web/play/tree-reads.ts';
import { newSession, startTestServer, type TestServer } from '../server/helpers.ts';

let server: TestServer;
let api: PlayApi;
let sessionId = '';
/** The line of turns, the first message first; `swipe` is a second version of turn 5. */
const ids: string[] = [];
let swipe = '';

async function append(parentId: string, i: number): Promise<string> {
  const genesis = await server.store.getTurn(sessionId, parentId);
  const appended = await server.store.appendTurn({
    sessionId,
    parentId,
    input: { kind: 'text', text: `step ${i}` },
    narration: `narration ${i}`,
    record: { kind: 'test' },
    state: genesis!.state,
    seed: i,
    createdAt: i,
  });
  if (!appended.ok) throw new Error(appended.reason);
  return appended.turn.id;
}

beforeAll(async () => {
  server = await startTestServer();
  api = new PlayApi(new ApiHttp(server.url));
  const { id, head } = await newSession(server);
  sessionId = id;
  ids.push(head);
  for (let i = 1; i <= 20; i++) {
    ids.push(await append(ids[i - 1] as string, i));
    if (i === 5) swipe = await append(ids[4] as string, 100);
  }
  await server.store.setHead(sessionId, ids[20] as string);
}, 60_000);

afterAll(() => server.stop());

const headId = () => ids[20] as string;

describe('the tree the play screen reads', () => {
  it('opens from the end of the head’s branch, and grows it back to the first message', async () => {
    const start: KnownTree = { nodes: [], whole: false };
    const opened = await treeWithHead(api, sessionId, headId(), start, 8);
    expect(opened.whole).toBe(false);
    expect(lineage(buildTree(opened.nodes), headId())).toEqual(ids.slice(13));

    const deeper = await treeToDepth(api, sessionId, headId(), opened, 17);
    expect(lineage(buildTree(deeper.nodes), headId())).toEqual(ids.slice(4));
    // Turn 5's other version came with it, one swipe away.
    expect(deeper.nodes.map((n) => n.id)).toContain(swipe);
    expect(deeper.nodes.map((n) => n.id)).not.toContain(ids[3]);

    const all = await treeToDepth(api, sessionId, headId(), deeper, 100);
    expect(lineage(buildTree(all.nodes), headId())).toEqual(ids);
    // Back to the first message: nothing more to read, and the same tree comes back.
    expect(await treeToDepth(api, sessionId, headId(), all, 200)).toBe(all);
  });

  it('reads nothing when the known tree holds the head or the turns wanted, or is whole', async () => {
    const opened = await treeWithHead(api, sessionId, headId(), { nodes: [], whole: false }, 8);
    expect(await treeWithHead(api, sessionId, headId(), opened, 8)).toBe(opened);
    expect(await treeToDepth(api, sessionId, headId(), opened, 8)).toBe(opened);
    const whole: KnownTree = { nodes: await api.tree(sessionId), whole: true };
    expect(whole.nodes).toHaveLength(22);
    expect(await treeToDepth(api, sessionId, headId(), whole, 500)).toBe(whole);
  });

  it('adds the end of a branch it does not know to what it knows (the head moved elsewhere)', async () => {
    const opened = await treeWithHead(api, sessionId, headId(), { nodes: [], whole: false }, 3);
    const atSwipe = await treeWithHead(api, sessionId, swipe, opened, 3);
    expect(atSwipe.whole).toBe(false);
    const ids3 = atSwipe.nodes.map((n) => n.id);
    for (const id of [...opened.nodes.map((n) => n.id), swipe, ids[4], ids[3]]) expect(ids3).toContain(id);
  });

  it('reads the whole tree for a swipe only when where it leads is not known', async () => {
    const opened = await treeWithHead(api, sessionId, headId(), { nodes: [], whole: false }, 20);
    const none = new Map<string, string>();
    // Nothing was played after the other version of turn 5: the swipe leads to it.
    expect(await swipeNeedsWhole(api, sessionId, opened, swipe, none)).toBe(false);
    // Turn 5 itself leads down its subtree; a version with a turn remembered under it leads there.
    expect(await swipeNeedsWhole(api, sessionId, opened, ids[5] as string, none)).toBe(true);
    expect(await swipeNeedsWhole(api, sessionId, opened, swipe, new Map([[swipe, ids[9] as string]]))).toBe(
      true,
    );
    const whole: KnownTree = { nodes: await api.tree(sessionId), whole: true };
    expect(await swipeNeedsWhole(api, sessionId, whole, ids[5] as string, none)).toBe(false);
  });
});
