// What the Library page lists: the cartridges (archived ones when asked) with the caller's storage, the
// caller's games a page at a time, and the cartridge each game plays (namesOfVersions, bounded).

import { useEffect, useState } from 'preact/hooks';
import type { CartridgesView, CartridgeView, SessionView } from '../../contract/index.ts';
import type { LibraryApi } from './library-api.ts';
import { namesOfVersions } from './listing.ts';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useLibraryLists(api: LibraryApi, showArchived: boolean) {
  const [cartridges, setCartridges] = useState<readonly CartridgeView[]>([]);
  const [storage, setStorage] = useState<CartridgesView['storage'] | undefined>(undefined);
  const [sessions, setSessions] = useState<readonly SessionView[]>([]);
  /** Where the next page of games starts; null when every game is shown. */
  const [moreSessions, setMoreSessions] = useState<string | null>(null);
  /** Cartridge name by version id, for the games list. */
  const [versionNames, setVersionNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [error, setError] = useState('');
  const versions = (id: string) => api.versions(id);

  const refresh = async (): Promise<void> => {
    try {
      // The personas come from the PersonaManager (its onChanged), which reads them itself.
      const [listed, page] = await Promise.all([api.list(showArchived), api.sessions()]);
      setCartridges(listed.cartridges);
      setStorage(listed.storage);
      setSessions(page.sessions);
      setMoreSessions(page.nextCursor);
      setError('');
      setVersionNames(await namesOfVersions(listed.cartridges, page.sessions, versions));
    } catch (e) {
      setError(messageOf(e));
    }
  };
  useEffect(() => {
    void refresh();
  }, [showArchived]);

  const showMoreSessions = async (): Promise<void> => {
    if (moreSessions === null) return;
    try {
      const page = await api.sessions(moreSessions);
      const shown = [...sessions, ...page.sessions];
      setSessions(shown);
      setMoreSessions(page.nextCursor);
      setVersionNames(await namesOfVersions(cartridges, shown, versions));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return {
    cartridges,
    storage,
    sessions,
    moreSessions,
    versionNames,
    error,
    setError: (e: unknown) => setError(messageOf(e)),
    refresh,
    showMoreSessions,
  };
}

export type LibraryLists = ReturnType<typeof useLibraryLists>;
