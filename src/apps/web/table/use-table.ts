// A member's view of their table, kept live: the table (who sits there, the turn order, the queue, the
// round), the turn another member is playing with its prose as it streams, and a call to `onStory` when the
// story moved (a turn committed, an undo) so the play screen reloads it. The live stream is re-opened with
// its Last-Event-ID after a drop, so nothing is missed.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { safeParse } from 'zod/mini';
import { tableResponse } from '../../server/browser.ts';
import { failureText } from '../lib/errors.ts';
import type { LiveMessage, TableApi, TableResponse } from './table-api.ts';

/** Milliseconds before a dropped live stream is opened again. */
export const LIVE_RECONNECT_MS = 2_000;

/** A turn being played, as the stream tells it. */
export interface PlayingTurn {
  readonly turnId: string;
  /** The character playing it; null for a round. */
  readonly by: string | null;
  readonly text: string;
}

export interface TableState {
  readonly snapshot: TableResponse | null;
  readonly playing: PlayingTurn | null;
  readonly error: string | null;
}

const record = (data: unknown): Record<string, unknown> =>
  typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};

export function useTable(api: TableApi, sessionId: string, onStory: () => void) {
  const [state, setState] = useState<TableState>({ snapshot: null, playing: null, error: null });
  const story = useRef(onStory);
  story.current = onStory;

  const refresh = useCallback(async () => {
    try {
      const snapshot = await api.table(sessionId);
      setState((s) => ({ ...s, snapshot, error: null }));
    } catch (error) {
      setState((s) => ({ ...s, error: failureText(error) }));
    }
  }, [api, sessionId]);

  const heard = useCallback(
    (message: LiveMessage): void => {
      const data = record(message.data);
      switch (message.event) {
        case 'hello': {
          const parsed = safeParse(tableResponse, message.data);
          if (parsed.success) setState((s) => ({ ...s, snapshot: parsed.data, error: null }));
          return;
        }
        case 'turn_started':
          setState((s) => ({
            ...s,
            playing: {
              turnId: String(data.turnId ?? ''),
              by: typeof data.by === 'string' ? data.by : null,
              text: '',
            },
          }));
          return;
        case 'narration':
          setState((s) =>
            s.playing !== null && s.playing.turnId === data.turnId
              ? { ...s, playing: { ...s.playing, text: s.playing.text + String(data.text ?? '') } }
              : s,
          );
          return;
        case 'turn_failed':
          setState((s) => ({ ...s, playing: null }));
          return;
        case 'turn':
        case 'head':
        case 'reset':
          setState((s) => ({ ...s, playing: null }));
          story.current();
          void refresh();
          return;
        default:
          // member_joined, member_left, member_role, table, queue, round: the table as it is now.
          void refresh();
      }
    },
    [refresh],
  );

  useEffect(() => void refresh(), [refresh]);

  // Live only at a table: a game nobody was invited to holds no stream.
  const isTable = state.snapshot?.table != null;
  useEffect(() => {
    if (!isTable) return;
    const control = new AbortController();
    let lastId: string | undefined;
    const follow = async (): Promise<void> => {
      while (!control.signal.aborted) {
        try {
          for await (const message of api.live(sessionId, lastId, control.signal)) {
            if (message.id !== '') lastId = message.id;
            heard(message);
          }
        } catch (error) {
          if (control.signal.aborted) return;
          setState((s) => ({ ...s, error: failureText(error) }));
        }
        await new Promise((resolve) => setTimeout(resolve, LIVE_RECONNECT_MS));
      }
    };
    void follow();
    return () => control.abort();
  }, [api, sessionId, heard, isTable]);

  return { state, refresh };
}
