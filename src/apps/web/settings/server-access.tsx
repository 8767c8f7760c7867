// Settings → Server access: the API key this browser tab sends, for a server started with API keys; kept
// in this tab's sessionStorage (never the URL) until it closes.
import { useState } from 'preact/hooks';
import { API_KEY_STORAGE, storedApiKey } from '../app/context.ts';

export function ServerAccess({ onStatus }: { onStatus: (status: string) => void }) {
  const [key, setKey] = useState(() => storedApiKey() ?? '');
  return (
    <section class="card" aria-labelledby="key-h">
      <h2 id="key-h">Server access</h2>
      <p class="muted">
        Only needed when the server was started with API keys. Kept in this browser tab until it closes.
      </p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          try {
            if (key) sessionStorage.setItem(API_KEY_STORAGE, key);
            else sessionStorage.removeItem(API_KEY_STORAGE);
            onStatus('API key updated.');
          } catch {
            onStatus('This browser does not allow storing the key.');
          }
        }}
      >
        <label style={{ flex: 1 }}>
          API key
          <input
            type="password"
            autocomplete="off"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Use key</button>
      </form>
    </section>
  );
}
