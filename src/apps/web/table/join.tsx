// Joining a table from an invitation (`#/join/<code>`, where the invitation link leads): the name your
// character goes by, then your seat. With an API key in this browser you join as its principal; on a server
// without keys, as a guest whose key the server makes and this tab keeps from then on.

import { useState } from 'preact/hooks';
import { API_KEY_STORAGE, storedApiKey, useApp, useClient } from '../app/context.ts';
import { ApiFailure, failureText } from '../lib/errors.ts';
import { TableApi } from './table-api.ts';

export function JoinTable({ code }: { code: string }) {
  const { navigate } = useApp();
  const api = useClient(TableApi);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const join = async () => {
    setBusy(true);
    try {
      const keyed = storedApiKey() !== undefined;
      const joined = await api.join(code, {
        ...(name.trim() === '' ? {} : { name: name.trim() }),
        ...(keyed ? {} : { guest: true }),
      });
      if (joined.guestKey !== undefined) sessionStorage.setItem(API_KEY_STORAGE, joined.guestKey);
      navigate(`#/play/${encodeURIComponent(joined.session.id)}`);
    } catch (e) {
      setError(
        e instanceof ApiFailure && e.code === 'guests_off'
          ? 'This server needs an API key: set yours under Settings, then open the invitation again.'
          : failureText(e),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="join" aria-labelledby="join-title" data-testid="join">
      <h1 id="join-title">Join a table</h1>
      <p>You were invited to play a game together. Choose the name your character goes by.</p>
      <label>
        Name{' '}
        <input
          data-testid="join-name"
          value={name}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <button type="button" data-testid="join-submit" disabled={busy} onClick={() => void join()}>
        Join
      </button>
      {error !== null ? (
        <p class="error" role="alert" data-testid="join-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
