// A member's view of their table, kept live: the table (who sits there, the turn order, the queue, the
// round), the turn another member is playing with its prose as it streams, and a call to `onStory` when the
// story moved (a turn committed, an undo) so the play screen reloads it. The live stream is re-opened with
// its Last-Event-ID after a drop, so nothing is missed.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { LiveStreamEvent } from '../../contract/index.ts';
import { ApiFailure, failureText } from '../lib/errors.ts';
import type { TableApi, TableResponse } from './table-api.ts';

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

/** What one live event does to the view: the state's change, and whether the story or the table reloads. */
export function afterLive(message: LiveStreamEvent): {
  update?: (state: TableState) => TableState;
  story?: true;
  refresh?: true;
} {
  switch (message.event) {
    case 'hello': {
      const snapshot = message.data;
      return { update: (s) => ({ ...s, snapshot, error: null }) };
    }
    case 'turn_started': {
      const playing = { turnId: message.data.turnId, by: message.data.by, text: '' };
      return { update: (s) => ({ ...s, playing }) };
    }
    case 'narration': {
      const { turnId, text } = message.data;
      return {
        update: (s) =>
          s.playing !== null && s.playing.turnId === turnId
            ? { ...s, playing: { ...s.playing, text: s.playing.text + text } }
            : s,
      };
    }
    case 'turn_failed':
      return { update: (s) => ({ ...s, playing: null }) };
    case 'turn':
    case 'head':
    case 'reset':
      return { update: (s) => ({ ...s, playing: null }), story: true, refresh: true };
    case 'member_joined':
    case 'member_left':
    case 'member_role':
    case 'table':
    case 'queue':
    case 'round':
      // The table as it is now.
      return { refresh: true };
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

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
    (message: LiveStreamEvent | ApiFailure): void => {
      if (message instanceof ApiFailure) {
        setState((s) => ({ ...s, error: failureText(message) }));
        return;
      }
      const next = afterLive(message);
      if (next.update !== undefined) setState(next.update);
      if (next.story) story.current();
      if (next.refresh) void refresh();
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
          for await (const { id, event } of api.live(sessionId, lastId, control.signal)) {
            if (id !== '') lastId = id;
            if (event !== undefined) heard(event);
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
