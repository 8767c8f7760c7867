// The play screen's hook: the play state (play-state.ts, one reducer) and the actions that change it. Every
// action (play, regenerate, undo, jump, swipe, load a save) ends by re-reading the session head, so the
// screen always shows what the server committed; turns already read are kept (turn-cache.ts), and the story
// opens from its newest turns, older ones read as the player scrolls up (`older`).
import { useEffect, useMemo, useReducer, useRef } from 'preact/hooks';
import type { NodeView, TurnView } from '../../contract/index.ts';
import { storedStrict } from '../app/context.ts';
import { ApiFailure } from '../lib/errors.ts';
import type { PlayApi, StreamEvent, TurnBody } from './play-api.ts';
import {
  initialPlay,
  type LiveTurn,
  liveStep,
  messageOf,
  type PlayAction,
  type PlayModel,
  playErrorOf,
  playReducer,
  readErrorOf,
  type SentTurn,
  storyOf,
} from './play-state.ts';
import { OLDER_PAGE_TURNS, OPEN_TURNS, readBranchEnd, sessionTurns } from './turn-cache.ts';
import { buildTree, lineage, swipeTarget, type Tree, withTurns } from './tree.ts';
import { type KnownTree, swipeNeedsWhole, treeToDepth, treeWithHead } from './tree-reads.ts';

/** The turn as sent: in strict mode when this browser's setting says so (app/context.ts, STRICT_STORAGE). */
function asSent(body: TurnBody): TurnBody {
  return storedStrict() ? { ...body, strict: true } : body;
}

/**
 * The first reads of a game: its story (`reload`) and its schema's fields (for bars; when the server
 * cannot give them, numbers are shown plainly, while anything else, a network failure or a bug, is shown
 * like any error). Returns what stops the answers from landing (the screen closed).
 */
function readGame(
  api: PlayApi,
  sessionId: string,
  reload: () => Promise<void>,
  dispatch: (action: PlayAction) => void,
): () => void {
  let cancelled = false;
  const failed = (e: unknown) => !cancelled && dispatch({ type: 'failed', error: readErrorOf(e) });
  reload().catch(failed);
  api
    .schema(sessionId)
    .then((fields) => !cancelled && dispatch({ type: 'fields', fields }))
    .catch((e: unknown) => !(e instanceof ApiFailure) && failed(e));
  return () => {
    cancelled = true;
  };
}

/**
 * The reads of a game's story: the turns read (`cache`, kept across screens), the tree as last read
 * (`nodes`, for an action to add to: the reducer's copy is a render behind), `reload` and `older`.
 */
function useStoryReads(
  api: PlayApi,
  sessionId: string,
  model: PlayModel,
  dispatch: (action: PlayAction) => void,
  tree: Tree,
  storyLength: number,
) {
  const cache = useRef<Map<string, TurnView>>(sessionTurns(sessionId));
  const readingOlder = useRef(false);
  const known = useRef<KnownTree>(model);
  if (known.current.nodes !== model.nodes || known.current.whole !== model.whole)
    known.current = { nodes: model.nodes, whole: model.whole };

  /**
   * Re-reads the session and the newest turns on the head's branch. The tree is read (the end of the head's
   * branch, tree-reads.ts) only when it is not known (`after` undefined: opening, a failure, the Reload
   * button) or does not hold the new head (a turn another client played); after an action the client adds
   * what it committed (`withTurns`).
   */
  const reload = async (after?: KnownTree): Promise<void> => {
    const [session, fetched] = await Promise.all([
      api.session(sessionId),
      after === undefined ? api.treeAround(sessionId, OPEN_TURNS) : null,
    ]);
    const start = after ?? { nodes: fetched ?? [], whole: false };
    const read = await treeWithHead(api, sessionId, session.headTurnId, start, OPEN_TURNS);
    const ids = lineage(buildTree(read.nodes), session.headTurnId);
    await readBranchEnd(api, sessionId, cache.current, ids, OPEN_TURNS);
    dispatch({ type: 'read', session, ...read, turns: new Map(cache.current) });
  };

  /** Reads the next older page of the story (the player scrolled up to the oldest turn shown). */
  const older = async (): Promise<void> => {
    if (readingOlder.current || !model.session) return;
    readingOlder.current = true;
    try {
      const want = storyLength + OLDER_PAGE_TURNS;
      const headId = model.session.headTurnId;
      const before = known.current;
      const read = await treeToDepth(api, sessionId, headId, before, want);
      if (read !== before) {
        known.current = read;
        dispatch({ type: 'tree', ...read });
      }
      const ids = read === before ? lineage(tree, headId) : lineage(buildTree(read.nodes), headId);
      await readBranchEnd(api, sessionId, cache.current, ids, want);
      dispatch({ type: 'turns', turns: new Map(cache.current) });
    } finally {
      readingOlder.current = false;
    }
  };

  /** The whole tree (the Tree panel, a swipe): read once, then grown by each action like any tree. */
  const wholeTree = async (): Promise<Tree> => {
    if (known.current.whole) return buildTree(known.current.nodes);
    const nodes = await api.tree(sessionId);
    known.current = { nodes, whole: true };
    dispatch({ type: 'tree', nodes, whole: true });
    return buildTree(nodes);
  };
  return { cache, known, reload, older, wholeTree };
}

/** What running and streaming an action need: the reducer's dispatch and the story's reads. */
interface ActionContext {
  readonly dispatch: (action: PlayAction) => void;
  readonly reload: ReturnType<typeof useStoryReads>['reload'];
  readonly cache: ReturnType<typeof useStoryReads>['cache'];
  readonly known: ReturnType<typeof useStoryReads>['known'];
  /** The whole tree, read once (a swipe down a version's subtree needs it). */
  readonly wholeTree: ReturnType<typeof useStoryReads>['wholeTree'];
  readonly reportModel: (failing: boolean) => void;
  /** An action is running (the next one waits for it to end: it is dropped). */
  readonly busy: boolean;
}

/** Runs one action at a time; a failure is shown, and the story re-read in case it moved on. */
async function runAction(
  ctx: ActionContext,
  action: () => Promise<void>,
  turn: SentTurn | null,
): Promise<void> {
  const { dispatch, reload, reportModel } = ctx;
  if (ctx.busy) return;
  dispatch({ type: 'started' });
  try {
    await action();
    if (turn !== null) reportModel(false);
  } catch (e) {
    const error = playErrorOf(e, turn);
    if (error.kind === 'model') reportModel(true);
    dispatch({ type: 'failed', error });
    // The story may be behind what the server committed: re-read it, and if that fails too, say so
    // next to the first error instead of leaving a stale story without a word.
    await reload().catch((again: unknown) => dispatch({ type: 'reread-failed', message: messageOf(again) }));
  } finally {
    dispatch({ type: 'finished' });
  }
}

/** Shows a turn as it streams in, then re-reads the story it was committed to (the tree plus that turn). */
async function streamTurn(
  ctx: ActionContext,
  start: LiveTurn,
  events: AsyncGenerator<StreamEvent>,
): Promise<void> {
  const { dispatch, cache, known } = ctx;
  let current = start;
  const committed: NodeView[] = [];
  dispatch({ type: 'live', live: current });
  try {
    for await (const event of events) {
      if (event.event === 'failed') throw event.failure;
      if (event.event === 'committed') {
        cache.current.set(event.data.turn.id, event.data.turn);
        const { id, parentId, depth, siblingIndex, seq, createdAt } = event.data.turn;
        committed.push({ id, parentId, depth, siblingIndex, seq, createdAt });
      }
      current = liveStep(current, event);
      dispatch({ type: 'live', live: current });
    }
    await ctx.reload({ ...known.current, nodes: withTurns(known.current.nodes, committed) });
  } finally {
    dispatch({ type: 'live', live: null });
  }
}

/** A turn as it starts to stream: nothing narrated yet, thinking. */
function liveTurn(kind: LiveTurn['kind'], input: string | null, after: string | null = null): LiveTurn {
  return { kind, input, narration: '', phase: 'thinking', tool: null, after };
}

/** The stream being read, and a fresh signal for the next one (which stops the one before). */
function useAbort() {
  const abort = useRef<AbortController | null>(null);
  const signal = (): AbortSignal => {
    abort.current?.abort();
    abort.current = new AbortController();
    return abort.current.signal;
  };
  return { abort, signal };
}

/** The story shown and its head, derived from the reducer's model (memoised on what each reads). */
function useStoryView(model: PlayModel) {
  const tree = useMemo(() => buildTree(model.nodes), [model.nodes]);
  const { session, turns, live } = model;
  const story = useMemo(
    () => storyOf(tree, session, turns, live?.after ?? null),
    [tree, session, turns, live?.after],
  );
  const head = session ? (turns.get(session.headTurnId) ?? null) : null;
  return { tree, story, head };
}

/** What the actions of the play screen need besides the action context. */
interface PlayActionsInput {
  readonly api: PlayApi;
  readonly sessionId: string;
  readonly model: PlayModel;
  readonly tree: Tree;
  readonly run: (action: () => Promise<void>, turn?: SentTurn | null) => Promise<void>;
  readonly stream: (start: LiveTurn, events: AsyncGenerator<StreamEvent>) => Promise<void>;
  readonly signal: () => AbortSignal;
}

/** The actions that play a turn: send, retry, edit, regenerate. */
function turnActions({ api, sessionId, model, run, stream, signal }: PlayActionsInput) {
  const play = (turn: SentTurn) =>
    run(() => stream(liveTurn('turn', turn.shown), api.playTurn(sessionId, turn.body, signal())), turn);
  return {
    send: (turn: TurnBody, shown: string | null) => play({ body: asSent(turn), shown }),
    /** Sends the failed turn again, as it was. */
    retry: () => (model.error?.retry ? play(model.error.retry) : Promise.resolve()),
    /** Edits a message the player sent: the new text is played from the same point, as a new branch
     * (the original stays in the tree, one swipe away). */
    edit: (turnId: string, text: string) =>
      run(async () => {
        const parentId = model.turns.get(turnId)?.parentId;
        if (!parentId) throw new Error('only a message you sent can be edited');
        const body = asSent({ input: text, parentId });
        await stream(liveTurn('turn', text, parentId), api.playTurn(sessionId, body, signal()));
      }),
    regenerate: (turnId?: string) =>
      run(() => stream(liveTurn('regenerate', null), api.regenerate(sessionId, turnId, signal()))),
  };
}

/** The actions that move the head (undo, a turn of the tree, a loaded save, a swipe), then re-read the story. */
function headActions(
  { api, sessionId, model, tree, run }: PlayActionsInput,
  ctx: ActionContext,
  chosen: Map<string, string>,
) {
  const move = (to: () => Promise<unknown>) =>
    run(async () => {
      await to();
      await ctx.reload(ctx.known.current);
    });
  const expected = model.session?.headTurnId;
  return {
    undo: () => move(() => api.undo(sessionId, expected)),
    /** Moves the head to a turn (the tree, a loaded save); playing on from there makes a branch. */
    jump: (turnId: string) => move(() => api.moveHead(sessionId, turnId, expected)),
    /** Shows another swipe of a turn: the head moves to where that alternative leads. */
    swipe: (siblingId: string) =>
      move(async () => {
        // Where a swipe leads may be down the chosen version's subtree: then the whole tree is read, once.
        const needsWhole = await swipeNeedsWhole(api, sessionId, ctx.known.current, siblingId, chosen);
        const from = needsWhole ? await ctx.wholeTree() : tree;
        await api.moveHead(sessionId, swipeTarget(from, expected ?? '', siblingId, chosen), expected);
      }),
  };
}

/** What the screen shows of the reducer's model (the tree, story and head are derived: useStoryView). */
function stateOf(model: PlayModel) {
  const { session, live, error, fields, busy } = model;
  return { session, wholeTree: model.whole, live, error, fields, busy };
}

export function usePlay(
  api: PlayApi,
  sessionId: string,
  reportModel: (failing: boolean) => void = () => undefined,
) {
  const [model, dispatch] = useReducer(playReducer, initialPlay);
  /** The turn last shown under each version swiped away from (tree.ts swipeTarget). */
  const chosen = useRef(new Map<string, string>());
  const { abort, signal } = useAbort();
  const { tree, story, head } = useStoryView(model);
  const reads = useStoryReads(api, sessionId, model, dispatch, tree, story.length);
  const { cache, reload, older, wholeTree } = reads;

  useEffect(() => {
    cache.current = sessionTurns(sessionId);
    const stopReading = readGame(api, sessionId, reload, dispatch);
    return () => {
      stopReading();
      abort.current?.abort();
    };
  }, [sessionId]);

  const ctx: ActionContext = { ...reads, dispatch, reportModel, busy: model.busy };
  const run = (action: () => Promise<void>, turn: SentTurn | null = null) => runAction(ctx, action, turn);
  const stream = (start: LiveTurn, events: AsyncGenerator<StreamEvent>) => streamTurn(ctx, start, events);
  const input: PlayActionsInput = { api, sessionId, model, tree, run, stream, signal };
  return {
    state: { ...stateOf(model), tree, story, head },
    ...turnActions(input),
    dismiss: () => dispatch({ type: 'dismissed' }),
    ...headActions(input, ctx, chosen.current),
    stop: () => abort.current?.abort(),
    reload: () => run(reload),
    /** Reads the whole tree, once (the Tree panel opened). */
    wholeTree: () => wholeTree().catch((e: unknown) => dispatch({ type: 'failed', error: readErrorOf(e) })),
    older: () => older().catch((e: unknown) => dispatch({ type: 'failed', error: readErrorOf(e) })),
    turnCached: (id: string) => model.turns.get(id),
  };
}
