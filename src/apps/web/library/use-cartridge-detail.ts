// One cartridge of the Library as its Manage panel reads it: the cartridge and its versions (archived ones
// when asked), its cover as an object URL (revoked when it changes or the panel closes), and what the last
// change came to. `change` runs a change, then reads the cartridge again and tells the library list.

import { useEffect, useState } from 'preact/hooks';
import type { CartridgeDetail } from '../../contract/index.ts';
import type { LibraryApi } from './library-api.ts';
import { failedOutcome, type Outcome } from './outcome.tsx';

/** The cover of a cartridge as an object URL, read again when its `updatedAt` changes. */
function useCoverUrl(api: LibraryApi, cartridgeId: string, stamp: number | undefined): string | undefined {
  const [cover, setCover] = useState<string | undefined>(undefined);
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    if (stamp === undefined) {
      setCover(undefined);
      return;
    }
    api
      .coverUrl(cartridgeId)
      .then((u) => {
        url = u;
        if (live) setCover(u);
        else URL.revokeObjectURL(u);
      })
      .catch(() => setCover(undefined));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [cartridgeId, stamp]);
  return cover;
}

export function useCartridgeDetail(api: LibraryApi, cartridgeId: string, onChanged: () => void) {
  const [detail, setDetail] = useState<CartridgeDetail | undefined>(undefined);
  const [showArchived, setShowArchived] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const cover = useCoverUrl(api, cartridgeId, detail?.cartridge.cover?.updatedAt);

  const load = async (): Promise<void> => {
    try {
      setDetail(await api.get(cartridgeId, showArchived));
    } catch (e) {
      setOutcome(failedOutcome(e));
    }
  };
  useEffect(() => {
    void load();
  }, [cartridgeId, showArchived]);

  /** Runs a change; `message` (or the one it gives) is shown once it is done, and everything re-read. */
  const change = async <T>(work: () => Promise<T>, message: string | ((result: T) => string)) => {
    setOutcome({ kind: 'busy' });
    try {
      const result = await work();
      setOutcome({ kind: 'ok', message: typeof message === 'string' ? message : message(result) });
      await load();
      onChanged();
      return true;
    } catch (e) {
      setOutcome(failedOutcome(e));
      return false;
    }
  };

  return { detail, showArchived, setShowArchived, outcome, setOutcome, cover, change };
}
