// A turn read aloud and pictured (docs/voices.md), under its narration: a play control (the server's
// `GET …/speech`, a WAV), a picture button (`POST …/picture`) and the stored picture. Only when the server
// has the provider (`/healthz` `media`). Audio and image are fetched with the API key and shown from blob
// URLs, released when the turn leaves the story. `autoRead`: play this turn as soon as it is shown.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../app/context.ts';
import { readAnswer } from '../lib/errors.ts';

type Reading = 'idle' | 'loading' | 'playing' | 'failed';

function turnPath(sessionId: string, turnId: string): string {
  return `/v1/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}`;
}

/** A blob URL the component owns: replaced and revoked as it changes, revoked when it unmounts. */
function useBlobUrl(): [string | null, (blob: Blob | null) => void] {
  const [url, setUrl] = useState<string | null>(null);
  const current = useRef<string | null>(null);
  const set = (blob: Blob | null): void => {
    if (current.current) URL.revokeObjectURL(current.current);
    current.current = blob ? URL.createObjectURL(blob) : null;
    setUrl(current.current);
  };
  useEffect(() => () => set(null), []);
  return [url, set];
}

function ReadAloud(props: { path: string; autoRead: boolean }) {
  const { http } = useApp();
  const [reading, setReading] = useState<Reading>('idle');
  const audio = useRef<HTMLAudioElement | null>(null);
  const request = useRef<AbortController | null>(null);
  const [url, setBlob] = useBlobUrl();
  const stop = (): void => {
    request.current?.abort();
    audio.current?.pause();
    setReading('idle');
  };
  const play = async (): Promise<void> => {
    const controller = new AbortController();
    request.current = controller;
    setReading('loading');
    try {
      if (url === null) {
        const response = await http.send('GET', `${props.path}/speech`, undefined, {
          signal: controller.signal,
        });
        if (!response.ok) await readAnswer(response);
        setBlob(await response.blob());
        return; // the effect below plays it once its URL is set
      }
      await audio.current?.play();
      setReading('playing');
    } catch {
      if (!controller.signal.aborted) setReading('failed');
    }
  };
  useEffect(() => {
    if (url === null || reading !== 'loading') return;
    audio.current?.play().then(
      () => setReading('playing'),
      () => setReading('failed'),
    );
  }, [url]);
  useEffect(() => {
    if (props.autoRead) void play();
    return () => request.current?.abort();
  }, []);
  return (
    <span class="read-aloud">
      <button
        type="button"
        data-testid="read-aloud"
        aria-label={reading === 'playing' ? 'Stop reading' : 'Read aloud'}
        disabled={reading === 'loading'}
        onClick={() => (reading === 'playing' ? stop() : void play())}
      >
        {reading === 'playing' ? '■ Stop' : reading === 'loading' ? '… Reading' : '▶ Read aloud'}
      </button>
      {reading === 'failed' ? (
        <span class="muted" role="status" data-testid="read-aloud-failed">
          {' '}
          Could not read this turn aloud.
        </span>
      ) : null}
      {url ? (
        // biome-ignore lint/a11y/useMediaCaption: the narration shown above is the audio's text
        <audio ref={audio} src={url} data-testid="turn-audio" onEnded={() => setReading('idle')} />
      ) : null}
    </span>
  );
}

function Picture(props: { path: string }) {
  const { http } = useApp();
  const [state, setState] = useState<'none' | 'making' | 'shown' | 'failed'>('none');
  const [message, setMessage] = useState('');
  const [url, setBlob] = useBlobUrl();
  const show = async (): Promise<boolean> => {
    const response = await http.send('GET', `${props.path}/picture`);
    if (!response.ok) return false;
    setBlob(await response.blob());
    setState('shown');
    return true;
  };
  useEffect(() => {
    void show().catch(() => undefined);
  }, []);
  const make = async (): Promise<void> => {
    setState('making');
    try {
      await readAnswer(await http.send('POST', `${props.path}/picture`));
      if (!(await show())) throw new Error('the picture was not stored');
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      setState('failed');
    }
  };
  return (
    <span class="turn-picture">
      {url ? <img src={url} alt="This scene, as drawn from the story" data-testid="turn-picture" /> : null}
      <button
        type="button"
        data-testid="make-picture"
        disabled={state === 'making'}
        onClick={() => void make()}
      >
        {state === 'making' ? '… Picturing' : url ? 'Picture again' : 'Picture this scene'}
      </button>
      {state === 'failed' ? (
        <span class="muted" role="status" data-testid="picture-failed">
          {' '}
          {message}
        </span>
      ) : null}
    </span>
  );
}

export function TurnMedia(props: { sessionId: string; turnId: string; autoRead: boolean }) {
  const { info } = useApp();
  if (info.speech !== true && info.pictures !== true) return null;
  const path = turnPath(props.sessionId, props.turnId);
  return (
    <div class="turn-media" data-testid="turn-media">
      {info.speech === true ? <ReadAloud path={path} autoRead={props.autoRead} /> : null}
      {info.pictures === true ? <Picture path={path} /> : null}
    </div>
  );
}
