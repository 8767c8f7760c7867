// The shell: header navigation and the screens, switched by the location hash (`#/library`,
// `#/play/<session id>`, `#/builder[/<draft id>]`, `#/settings`). The hash carries only ids, never keys or
// settings. The builder is its own chunk, loaded when its screen opens (app/builder-route.tsx).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiHttp } from '../lib/http.ts';
import { readHealth } from './app-api.ts';
import { BuilderRoute } from './builder-route.tsx';
import { Ctx, type ModelStatus, type ServerInfo, storedApiKey } from './context.ts';
import { StatusIcon } from '../ui/icons.tsx';
import { Library } from '../library/library.tsx';
import { Play } from '../play/play.tsx';
import { Settings } from '../settings/settings.tsx';
import { JoinTable, joinHash } from '../table/index.ts';

type Route =
  | { readonly screen: 'library' }
  | { readonly screen: 'play'; readonly sessionId: string }
  | { readonly screen: 'builder'; readonly draftId?: string }
  | { readonly screen: 'settings' }
  | { readonly screen: 'join'; readonly code: string };

export function routeOf(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'play' && parts[1]) return { screen: 'play', sessionId: decodeURIComponent(parts[1]) };
  if (parts[0] === 'builder')
    return parts[1] ? { screen: 'builder', draftId: decodeURIComponent(parts[1]) } : { screen: 'builder' };
  if (parts[0] === 'settings') return { screen: 'settings' };
  if (parts[0] === 'join' && parts[1]) return { screen: 'join', code: decodeURIComponent(parts[1]) };
  return { screen: 'library' };
}

/** The location hash, followed as it changes (a join link's hash first, when the page opened on one). */
function useHash(): string {
  const [hash, setHash] = useState(() => joinHash() ?? location.hash);
  useEffect(() => {
    const onHash = (): void => setHash(location.hash);
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return hash;
}

/** What the server said of itself (/healthz), read once; until then (or without it) nothing is assumed. */
function useServerInfo(http: ApiHttp): ServerInfo {
  const [info, setInfo] = useState<ServerInfo>({ modelMode: 'unknown', authorMode: false });
  useEffect(() => {
    readHealth(http)
      .then((h) =>
        setInfo({
          modelMode: h.modelMode,
          authorMode: h.authorMode,
          speech: h.media?.speech === true,
          pictures: h.media?.pictures === true,
        }),
      )
      // Without the health answer the header says nothing of the model and author mode stays off.
      .catch(() => undefined);
  }, [http]);
  return info;
}

export function App() {
  const route = routeOf(useHash());
  const [modelFailing, setModelFailing] = useState(false);
  const http = useMemo(() => new ApiHttp('', storedApiKey), []);
  const info = useServerInfo(http);
  const navigate = (to: string): void => {
    location.hash = to;
  };
  return (
    <Ctx.Provider value={{ http, info, navigate, reportModel: setModelFailing }}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="app-header">
        <span class="brand">MnesOS</span>
        <MainNav route={route} />
        <ModelBadge status={modelFailing ? 'failing' : info.modelMode} />
      </header>
      <main id="main" tabIndex={-1}>
        {route.screen === 'library' ? <Library /> : null}
        {route.screen === 'play' ? <Play key={route.sessionId} sessionId={route.sessionId} /> : null}
        {route.screen === 'builder' ? (
          <BuilderRoute key={route.draftId ?? ''} draftId={route.draftId} />
        ) : null}
        {route.screen === 'settings' ? <Settings /> : null}
        {route.screen === 'join' ? <JoinTable code={route.code} /> : null}
      </main>
    </Ctx.Provider>
  );
}

/** The screens' links, the current one marked (Play only while a game is open). */
function MainNav({ route }: { route: Route }) {
  const current = (screen: Route['screen']) => (route.screen === screen ? 'page' : undefined);
  return (
    <nav aria-label="Main">
      <a href="#/library" aria-current={current('library')}>
        Library
      </a>
      {route.screen === 'play' ? (
        <a href={`#/play/${encodeURIComponent(route.sessionId)}`} aria-current="page">
          Play
        </a>
      ) : null}
      <a href="#/builder" aria-current={current('builder')}>
        Builder
      </a>
      <a href="#/settings" aria-current={current('settings')}>
        Settings
      </a>
    </nav>
  );
}

/** The header's model status: offline, connected, or failing (the last turn's model call failed). */
function ModelBadge({ status }: { status: ModelStatus }) {
  const text =
    status === 'offline'
      ? 'Offline: no model configured, narration comes from the rules'
      : status === 'online'
        ? 'Model connected'
        : status === 'failing'
          ? 'Model not answering: the last turn failed'
          : '';
  if (text === '') return <span class="mode" data-testid="model-mode" />;
  return (
    <span class={`mode badge ${status}`} data-testid="model-mode" data-status={status} role="status">
      <StatusIcon status={status} /> {text}
    </span>
  );
}
