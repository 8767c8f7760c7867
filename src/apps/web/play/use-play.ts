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
  const nodes = useRef<readonly NodeView[]>(model.nodes);
  nodes.current = model.nodes;

  /**
   * Re-reads the session and the newest turns on the head's branch. The tree is read whole only when it is
   * not known (`known` undefined: opening, a failure, the Reload button) or does not hold the new head (a
   * turn another client played); after an action the client adds what it committed (`withTurns`).
   */
  const reload = async (known?: readonly NodeView[]): Promise<void> => {
    const [session, fetched] = await Promise.all([
      api.session(sessionId),
      known === undefined ? api.tree(sessionId) : null,
    ]);
    let tree = fetched ?? known ?? [];
    if (!tree.some((node) => node.id === session.headTurnId)) tree = await api.tree(sessionId);
    const ids = lineage(buildTree(tree), session.headTurnId);
    await readBranchEnd(api, sessionId, cache.current, ids, OPEN_TURNS);
    dispatch({ type: 'read', session, nodes: tree, turns: new Map(cache.current) });
  };

  /** Reads the next older page of the story (the player scrolled up to the oldest turn shown). */
  const older = async (): Promise<void> => {
    if (readingOlder.current || !model.session) return;
    readingOlder.current = true;
    try {
      const ids = lineage(tree, model.session.headTurnId);
      await readBranchEnd(api, sessionId, cache.current, ids, storyLength + OLDER_PAGE_TURNS);
      dispatch({ type: 'turns', turns: new Map(cache.current) });
    } finally {
      readingOlder.current = false;
    }
  };
  return { cache, nodes, reload, older };
}

/** What running and streaming an action need: the reducer's dispatch and the story's reads. */
interface ActionContext {
  readonly dispatch: (action: PlayAction) => void;
  readonly reload: ReturnType<typeof useStoryReads>['reload'];
  readonly cache: ReturnType<typeof useStoryReads>['cache'];
  readonly nodes: ReturnType<typeof useStoryReads>['nodes'];
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
  const { dispatch, cache, nodes } = ctx;
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
    await ctx.reload(withTurns(nodes.current, committed));
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
      await ctx.reload(ctx.nodes.current);
    });
  const expected = model.session?.headTurnId;
  return {
    undo: () => move(() => api.undo(sessionId, expected)),
    /** Moves the head to a turn (the tree, a loaded save); playing on from there makes a branch. */
    jump: (turnId: string) => move(() => api.moveHead(sessionId, turnId, expected)),
    /** Shows another swipe of a turn: the head moves to where that alternative leads. */
    swipe: (siblingId: string) =>
      move(() => api.moveHead(sessionId, swipeTarget(tree, expected ?? '', siblingId, chosen), expected)),
  };
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
  const { cache, nodes, reload, older } = useStoryReads(api, sessionId, model, dispatch, tree, story.length);

  useEffect(() => {
    cache.current = sessionTurns(sessionId);
    const stopReading = readGame(api, sessionId, reload, dispatch);
    return () => {
      stopReading();
      abort.current?.abort();
    };
  }, [sessionId]);

  const ctx: ActionContext = { dispatch, reload, cache, nodes, reportModel, busy: model.busy };
  const run = (action: () => Promise<void>, turn: SentTurn | null = null) => runAction(ctx, action, turn);
  const stream = (start: LiveTurn, events: AsyncGenerator<StreamEvent>) => streamTurn(ctx, start, events);
  const input: PlayActionsInput = { api, sessionId, model, tree, run, stream, signal };
  const { session, live } = model;
  return {
    state: { session, tree, story, head, live, error: model.error, fields: model.fields, busy: model.busy },
    ...turnActions(input),
    dismiss: () => dispatch({ type: 'dismissed' }),
    ...headActions(input, ctx, chosen.current),
    stop: () => abort.current?.abort(),
    reload: () => run(reload),
    older: () => older().catch((e: unknown) => dispatch({ type: 'failed', error: readErrorOf(e) })),
    turnCached: (id: string) => model.turns.get(id),
  };
}
