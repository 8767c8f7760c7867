// A turn read aloud while its narration streams (docs/voices.md, "As the narration streams"), with "Read new
// turns aloud" on: the parts of its reading (`GET …/turns/:turnId/speech/:part`; the server answers each once
// its sentences have come, 204 after the last) fetched one after another — the next while the one before
// plays — and played in order in one audio element. It stops when the player presses Stop, when the
// component goes (the page is left, or another action moves the story on: play.tsx), and on a failure.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../app/context.ts';
import type { ApiHttp } from '../lib/http.ts';
import { readAnswer } from '../lib/errors.ts';

/** Parts asked for at most, whatever the server says (it gives at most its requests-per-turn limit). */
const MAX_PARTS = 64;

function speechPath(sessionId: string, turnId: string): string {
  return `/v1/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/speech`;
}

/** Plays one part in the audio element; resolves when it has played to its end, or the reading stops. */
function playPart(audio: HTMLAudioElement, blob: Blob, signal: AbortSignal): Promise<void> {
  const url = URL.createObjectURL(blob);
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      audio.removeEventListener('ended', done);
      signal.removeEventListener('abort', done);
      URL.revokeObjectURL(url);
      resolve();
    };
    audio.addEventListener('ended', done);
    signal.addEventListener('abort', done, { once: true });
    audio.src = url;
    audio.play().catch((error: unknown) => {
      done();
      if (!signal.aborted) reject(error);
    });
  });
}

/** Reads parts 0, 1, … until the last; the next part is fetched while the one before it plays. */
async function readParts(
  http: ApiHttp,
  path: string,
  audio: () => HTMLAudioElement | null,
  signal: AbortSignal,
  onPart: (index: number) => void,
): Promise<void> {
  let playing: Promise<void> = Promise.resolve();
  for (let index = 0; index < MAX_PARTS && !signal.aborted; index++) {
    const response = await http.send('GET', `${path}/${index}`, undefined, { signal });
    if (response.status === 204) break;
    if (!response.ok) await readAnswer(response);
    const blob = await response.blob();
    await playing;
    const element = audio();
    if (element === null || signal.aborted) return;
    onPart(index);
    playing = playPart(element, blob, signal);
    if (response.headers.get('x-mnesos-speech-last') === 'true') break;
  }
  await playing;
}

export function LiveReading(props: { sessionId: string; turnId: string; onEnd: () => void }) {
  const { http } = useApp();
  const audio = useRef<HTMLAudioElement>(null);
  const [played, setPlayed] = useState<readonly number[]>([]);
  const [state, setState] = useState<'reading' | 'failed'>('reading');
  useEffect(() => {
    const controller = new AbortController();
    readParts(
      http,
      speechPath(props.sessionId, props.turnId),
      () => audio.current,
      controller.signal,
      (index) => setPlayed((before) => [...before, index]),
    ).then(
      () => {
        if (!controller.signal.aborted) props.onEnd();
      },
      () => {
        if (!controller.signal.aborted) setState('failed');
      },
    );
    return () => {
      controller.abort();
      audio.current?.pause();
    };
  }, []);
  return (
    <div
      class="live-reading"
      data-testid="live-reading"
      data-turn-id={props.turnId}
      data-played={played.join(',')}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: the narration shown above is the audio's text */}
      <audio ref={audio} data-testid="live-audio" />
      {state === 'failed' ? (
        <span class="muted" role="status" data-testid="live-reading-failed">
          Could not read this turn aloud.{' '}
        </span>
      ) : null}
      <button type="button" data-testid="live-reading-stop" aria-label="Stop reading" onClick={props.onEnd}>
        {state === 'failed' ? 'Close' : '■ Stop reading'}
      </button>
    </div>
  );
}
