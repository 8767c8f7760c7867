// The play screen's state: the session, its turn tree, the turns seen so far (immutable, so cached by id),
// and the turn being streamed. Every action (play, regenerate, undo, jump, swipe, load a save) ends by
// re-reading the session head, so the screen always shows what the server committed.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { safeParse } from 'zod/mini';
import {
  type NodeView,
  offlineReplyDetails,
  type SchemaFieldView,
  type SessionView,
  type TurnView,
} from '../../contract/index.ts';
import type { PlayApi, StreamEvent, TurnBody } from './play-api.ts';
import { ApiFailure } from '../lib/errors.ts';
import { buildTree, leafOf, lineage, type Tree } from './tree.ts';
import { storedStrict } from '../app/context.ts';

/** The turn as sent: in strict mode when this browser's setting says so (context.ts, STRICT_STORAGE). */
function asSent(body: TurnBody): TurnBody {
  return storedStrict() ? { ...body, strict: true } : body;
}

/**
 * History pages read for one branch: each is one request of at most the server's HISTORY_MAX_TURNS (500)
 * turns, so a story of up to 10,000 turns loads whole; older turns of a longer one stay out of view.
 */
export const MAX_HISTORY_PAGES = 20;

export type PhaseLabel = 'thinking' | 'rolling' | 'narrating' | 'saving';

export interface LiveTurn {
  readonly kind: 'turn' | 'regenerate';
  /** The turn it is played after, when that is not the head (an edited message): the story is shown up
   * to there while it runs. */
  readonly after: string | null;
  /** What the player sent (shown at once, before the server answers). */
  readonly input: string | null;
  readonly narration: string;
  readonly phase: PhaseLabel;
  /** The tool (rule event) being run, when rolling. */
  readonly tool: string | null;
}

/**
 * Why the last action did not go through, shown next to the input:
 * - `reply`: offline, the engine answered instead of playing (a question, what can be done here);
 * - `model`: the model did not answer; nothing was saved, and the turn can be retried as it was;
 * - `other`: anything else (a conflict, a refused input).
 * `retry` is the turn to send again, and `input` the player's words to put back in the box.
 */
export interface PlayError {
  readonly kind: 'reply' | 'model' | 'other';
  readonly message: string;
  readonly retry: { readonly body: TurnBody; readonly shown: string | null } | null;
  readonly input: string | null;
}

export interface PlayState {
  readonly session: SessionView | null;
  readonly tree: Tree;
  readonly story: readonly TurnView[];
  readonly head: TurnView | null;
  readonly live: LiveTurn | null;
  readonly error: PlayError | null;
  readonly fields: readonly SchemaFieldView[];
  readonly busy: boolean;
}

export function phaseLabel(phase: string): PhaseLabel {
  switch (phase) {
    case 'director':
      return 'thinking';
    case 'narrator':
      return 'narrating';
    default:
      // cycle ticks, a mini-game's resolver and the clock all run rules.
      return 'rolling';
  }
}

/** Offline replies that answer the player's words in full (the `reason` of a reply, docs/turn.md). */
const ANSWERED = new Set(['help', 'free', 'refused']);

/** The details of an offline reply, when the failure is one (the contract's offlineReplyDetails). */
function replyOf(error: unknown): { readonly reason?: string | undefined } | undefined {
  if (!(error instanceof ApiFailure)) return undefined;
  const reply = safeParse(offlineReplyDetails, error.details);
  return reply.success ? reply.data : undefined;
}

function kindOf(error: unknown): PlayError['kind'] {
  if (!(error instanceof ApiFailure)) return 'other';
  if (replyOf(error) !== undefined) return 'reply';
  return error.code === 'model_failed' || error.status === 502 ? 'model' : 'other';
}

function messageOf(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  // The player pressed Stop: the server abandons the turn and commits nothing.
  if (error instanceof Error && error.name === 'AbortError')
    return 'Stopped: the turn was cancelled and nothing was saved.';
  return error instanceof Error ? error.message : String(error);
}

export function usePlay(
  api: PlayApi,
  sessionId: string,
  reportModel: (failing: boolean) => void = () => undefined,
) {
  const [session, setSession] = useState<SessionView | null>(null);
  const [nodes, setNodes] = useState<NodeView[]>([]);
  const [turns, setTurns] = useState<ReadonlyMap<string, TurnView>>(new Map());
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [error, setErrorState] = useState<PlayError | null>(null);
  const setError = (message: string): void =>
    setErrorState(message === '' ? null : { kind: 'other', message, retry: null, input: null });
  const [fields, setFields] = useState<readonly SchemaFieldView[]>([]);
  const [busy, setBusy] = useState(false);
  const cache = useRef(new Map<string, TurnView>());
  const abort = useRef<AbortController | null>(null);

  const tree = useMemo(() => buildTree(nodes), [nodes]);

  /** Reads the turns of `ids` (a branch, oldest first) that are not cached yet. */
  const fetchTurns = async (ids: readonly string[]): Promise<void> => {
    const missing = ids.filter((id) => !cache.current.has(id));
    const last = missing[missing.length - 1];
    if (last === undefined) return;
    if (missing.length === 1) {
      cache.current.set(last, await api.turn(sessionId, last));
      return;
    }
    // One request per page of the branch, newest first, until every missing turn is cached.
    let from: string | null = last;
    for (let page = 0; from !== null && page < MAX_HISTORY_PAGES; page++) {
      const { turns, complete } = await api.history(sessionId, from);
      for (const t of turns) cache.current.set(t.id, t);
      if (complete || missing.every((id) => cache.current.has(id))) break;
      from = turns[0]?.parentId ?? null;
    }
  };

  /** Re-reads the session, its tree and the turns on the head's branch. */
  const reload = async (): Promise<void> => {
    const [s, n] = await Promise.all([api.session(sessionId), api.tree(sessionId)]);
    const t = buildTree(n);
    await fetchTurns(lineage(t, s.headTurnId));
    setNodes(n);
    setSession(s);
    setTurns(new Map(cache.current));
  };

  useEffect(() => {
    let cancelled = false;
    reload().catch((e) => !cancelled && setError(messageOf(e)));
    api
      .schema(sessionId)
      .then((f) => !cancelled && setFields(f))
      .catch((e: unknown) => {
        // Bars need the schema; when the server cannot give it, numbers are shown plainly. Anything else
        // (a network failure, a bug) is shown like any error.
        if (!(e instanceof ApiFailure) && !cancelled) setError(messageOf(e));
      });
    return () => {
      cancelled = true;
      abort.current?.abort();
    };
  }, [sessionId]);

  const story = useMemo(() => {
    if (!session) return [];
    const ids = lineage(tree, session.headTurnId);
    // While an edited message is replayed, the story stops where the new branch starts.
    const cut = live?.after ? ids.indexOf(live.after) : -1;
    return (cut >= 0 ? ids.slice(0, cut + 1) : ids).flatMap((id) => {
      const t = turns.get(id);
      return t ? [t] : [];
    });
  }, [tree, session, turns, live?.after]);
  const head = session ? (turns.get(session.headTurnId) ?? null) : null;

  const run = async (action: () => Promise<void>, turn: PlayError['retry'] = null): Promise<void> => {
    if (busy) return;
    setBusy(true);
    setErrorState(null);
    try {
      await action();
      if (turn !== null) reportModel(false);
    } catch (e) {
      const kind = kindOf(e);
      if (kind === 'model') reportModel(true);
      const sent = turn !== null && 'input' in turn.body ? turn.body.input : null;
      // Words the engine answered in full (/help, a look around, the rules' refusal) are not put back in
      // the box; words it did not understand are, to be mended.
      const answered = ANSWERED.has(replyOf(e)?.reason ?? '');
      const input = answered ? null : sent;
      setErrorState({ kind, message: messageOf(e), retry: kind === 'reply' ? null : turn, input });
      // The story may be behind what the server committed: re-read it, and if that fails too, say so
      // next to the first error instead of leaving a stale story without a word.
      await reload().catch((again: unknown) =>
        setErrorState(
          (shown) =>
            shown && {
              ...shown,
              message: `${shown.message} (The story could not be re-read: ${messageOf(again)})`,
            },
        ),
      );
    } finally {
      setBusy(false);
    }
  };

  const stream = async (
    kind: LiveTurn['kind'],
    input: string | null,
    events: AsyncGenerator<StreamEvent>,
    after: string | null = null,
  ): Promise<void> => {
    let current: LiveTurn = { kind, input, narration: '', phase: 'thinking', tool: null, after };
    setLive(current);
    const update = (patch: Partial<LiveTurn>): void => {
      current = { ...current, ...patch };
      setLive(current);
    };
    try {
      for await (const event of events) {
        switch (event.event) {
          case 'start':
            break;
          case 'phase':
            update({ phase: phaseLabel(event.data.phase), tool: null });
            break;
          case 'tool_call':
            update({ phase: 'rolling', tool: event.data.name });
            break;
          case 'tool_result':
            break;
          case 'narration':
            update({ phase: 'narrating', narration: current.narration + event.data.text });
            break;
          case 'committed':
            cache.current.set(event.data.turn.id, event.data.turn);
            update({ phase: 'saving' });
            break;
          case 'failed':
            throw event.failure;
          default: {
            const unreachable: never = event;
            throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
          }
        }
      }
      await reload();
    } finally {
      setLive(null);
    }
  };

  const controller = (): AbortController => {
    abort.current?.abort();
    abort.current = new AbortController();
    return abort.current;
  };

  return {
    state: { session, tree, story, head, live, error, fields, busy } satisfies PlayState,
    send: (turn: TurnBody, shown: string | null) => {
      const body = asSent(turn);
      return run(() => stream('turn', shown, api.playTurn(sessionId, body, controller().signal)), {
        body,
        shown,
      });
    },
    /** Sends the failed turn again, as it was. */
    retry: () => {
      const turn = error?.retry;
      if (!turn) return Promise.resolve();
      return run(
        () => stream('turn', turn.shown, api.playTurn(sessionId, turn.body, controller().signal)),
        turn,
      );
    },
    dismiss: () => setErrorState(null),
    /** Edits a message the player sent: the new text is played from the same point, as a new branch
     * (the original stays in the tree, one swipe away). */
    edit: (turnId: string, text: string) =>
      run(async () => {
        const turn = turns.get(turnId);
        if (!turn?.parentId) throw new Error('only a message you sent can be edited');
        const parentId = turn.parentId;
        await stream(
          'turn',
          text,
          api.playTurn(sessionId, asSent({ input: text, parentId }), controller().signal),
          parentId,
        );
      }),
    regenerate: (turnId?: string) =>
      run(() => stream('regenerate', null, api.regenerate(sessionId, turnId, controller().signal))),
    undo: () =>
      run(async () => {
        await api.undo(sessionId, session?.headTurnId);
        await reload();
      }),
    /** Moves the head to a turn (the tree, a loaded save); playing on from there makes a branch. */
    jump: (turnId: string) =>
      run(async () => {
        await api.moveHead(sessionId, turnId, session?.headTurnId);
        await reload();
      }),
    /** Shows another swipe of a turn: the head moves to where that alternative leads. */
    swipe: (siblingId: string) =>
      run(async () => {
        await api.moveHead(sessionId, leafOf(tree, siblingId), session?.headTurnId);
        await reload();
      }),
    stop: () => abort.current?.abort(),
    reload: () => run(reload),
    turnCached: (id: string) => turns.get(id),
  };
}
