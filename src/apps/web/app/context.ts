// What every screen needs: the transport its API client is built on, and what the server said about
// itself. Each feature has its own client (play/play-api.ts, library/library-api.ts, …), made by useClient.
import { createContext } from 'preact';
import { useContext, useMemo } from 'preact/hooks';
import { ApiHttp } from '../lib/http.ts';

export interface ServerInfo {
  /** `offline` when the server has no model configured (narration comes from the rules' notes). */
  readonly modelMode: 'online' | 'offline' | 'unknown';
  /** Whether the server allows author mode (the full state, traces and the event console). */
  readonly authorMode: boolean;
  /** Whether turns may be read aloud (`speech`) and pictured (`pictures`): docs/voices.md. */
  readonly speech?: boolean;
  readonly pictures?: boolean;
}

/** What the header says of the model: the server's mode, or that the last turn's model call failed. */
export type ModelStatus = 'online' | 'offline' | 'failing' | 'unknown';

export interface AppContext {
  /** The server's address and this tab's API key, shared by every feature's client. */
  readonly http: ApiHttp;
  readonly info: ServerInfo;
  readonly navigate: (hash: string) => void;
  /** A turn's model call failed (true) or a turn went through again (false): the header follows. */
  readonly reportModel: (failing: boolean) => void;
}

/** Whether the dice and changes are shown under each turn (a setting of this browser). */
export const SHOW_RULES_STORAGE = 'mnesos.showRules';

export function storedShowRules(): boolean {
  try {
    return localStorage.getItem(SHOW_RULES_STORAGE) !== 'off';
  } catch {
    return true;
  }
}

/**
 * Strict mode (a setting of this browser, for authors): a turn that breaks one of the cartridge's invariants
 * is refused instead of kept (`strict: true` in the turn request, docs/yare.md#invariants).
 */
export const STRICT_STORAGE = 'mnesos.strict';

export function storedStrict(): boolean {
  try {
    return localStorage.getItem(STRICT_STORAGE) === 'on';
  } catch {
    return false;
  }
}

/** Keeps a choice of this browser; storage refused (private mode): the choice lasts for this page only. */
export function remember(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    // storage refused: nothing kept
  }
}

/** Whether each new turn is read aloud as it arrives (a setting of this browser; docs/voices.md). */
export const AUTO_READ_STORAGE = 'mnesos.autoRead';

export function storedAutoRead(): boolean {
  try {
    return localStorage.getItem(AUTO_READ_STORAGE) === 'on';
  } catch {
    return false;
  }
}

/** Where an API key for a server that requires one is kept: this browser tab only, never the URL. */
export const API_KEY_STORAGE = 'mnesos.apiKey';

export function storedApiKey(): string | undefined {
  try {
    return sessionStorage.getItem(API_KEY_STORAGE) ?? undefined;
  } catch {
    return undefined;
  }
}

export const Ctx = createContext<AppContext>({
  http: new ApiHttp('', storedApiKey),
  info: { modelMode: 'unknown', authorMode: false },
  navigate: () => undefined,
  reportModel: () => undefined,
});

export function useApp(): AppContext {
  return useContext(Ctx);
}

/** A feature's API client over the app's transport (one per component, kept across renders). */
export function useClient<C>(Client: new (http: ApiHttp) => C): C {
  const { http } = useApp();
  return useMemo(() => new Client(http), [http, Client]);
}
