// Which turn "Read new turns aloud" reads, and when (docs/voices.md, "In the web client"): each turn is read
// at most once on a page. A turn played while the page is open is read as its narration streams
// (turn-media-live.tsx); a turn newly shown at the head otherwise — another version swiped to, a turn another
// player of the table played — is read once it is shown (turn-media.tsx); the turn the page opened on, and a
// version swiped back to that was already shown, are not read again. The reading as it streams stops when the
// story moves on: another action starts, the turn is stopped, or the head moves elsewhere.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LiveTurn } from './play-state.ts';

export interface AutoRead {
  /** The head turn to read as soon as it is shown, if any. */
  readonly autoReadTurnId: string | null;
  /** The turn being read as it streams (or still being read after it committed), if any. */
  readonly liveReadTurnId: string | null;
  readonly endLiveRead: () => void;
}

export function useAutoRead(on: boolean, headId: string | undefined, live: LiveTurn | null): AutoRead {
  // Turns shown or read on this page: none of them is read again by itself.
  const seen = useRef(new Set<string>());
  const [liveRead, setLiveRead] = useState<string | null>(null);
  // The turn the page opened on was there before: it is not new.
  if (seen.current.size === 0 && headId !== undefined && live === null) seen.current.add(headId);
  const streaming = live?.turnId;

  useEffect(() => {
    if (!on || streaming === undefined || seen.current.has(streaming)) return;
    seen.current.add(streaming);
    setLiveRead(streaming);
  }, [on, streaming]);
  // Kept while its turn streams, then while it is the head; anything else moved the story on.
  const keep = liveRead !== null && (live === null ? headId === liveRead : streaming === liveRead);
  useEffect(() => {
    if (liveRead !== null && !keep) setLiveRead(null);
  }, [keep, liveRead]);

  const autoReadTurnId =
    on && live === null && headId !== undefined && !seen.current.has(headId) ? headId : null;
  useEffect(() => {
    if (headId !== undefined && live === null) seen.current.add(headId);
  }, [headId, live === null]);
  return {
    autoReadTurnId,
    liveReadTurnId: keep ? liveRead : null,
    endLiveRead: () => setLiveRead(null),
  };
}
