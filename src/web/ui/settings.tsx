// Settings: the model provider for this principal, kept on the server (never in the page URL), and the
// API key this browser tab uses when the server requires one (kept in sessionStorage).
import { useEffect, useState } from 'preact/hooks';
import type { ModelSettings } from '../api.ts';
import { ApiFailure } from '../lib/errors.ts';
import { MAX_TEMPERATURE, MIN_TEMPERATURE, temperatureError } from '../lib/forms.ts';
import { API_KEY_STORAGE, storedApiKey, useApp } from './context.ts';

const ROLES = ['director', 'narrator', 'npc'] as const;

export function Settings() {
  const { api } = useApp();
  const [settings, setSettings] = useState<ModelSettings>({});
  const [status, setStatus] = useState('');
  const [available, setAvailable] = useState(true);
  const [key, setKey] = useState(() => storedApiKey() ?? '');

  useEffect(() => {
    api
      .settings()
      .then((s) => setSettings(s ?? {}))
      .catch((e) => {
        if (e instanceof ApiFailure && e.status === 404) setAvailable(false);
        else setStatus((e as Error).message);
      });
  }, []);

  const temperature = settings.temperature;
  const temperatureProblem = temperatureError(temperature);

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (temperatureProblem) return;
    try {
      setSettings(await api.saveSettings(settings));
      setStatus('Saved.');
    } catch (e) {
      setStatus((e as Error).message);
    }
  };

  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="models-h">
        <h2 id="models-h">Models</h2>
        {!available ? (
          <p class="muted" data-testid="settings-unavailable">
            This server does not store model settings; it uses the models it was started with (see
            docs/models.md).
          </p>
        ) : (
          <form onSubmit={save} style={{ display: 'grid', gap: '0.5rem' }}>
            <label>
              Provider base URL
              <input
                type="url"
                value={settings.baseUrl ?? ''}
                placeholder="http://localhost:11434/v1"
                onInput={(e) =>
                  setSettings({
                    ...settings,
                    baseUrl: (e.currentTarget as HTMLInputElement).value || undefined,
                  })
                }
              />
            </label>
            {ROLES.map((role) => (
              <label key={role}>
                Model for the {role}
                <input
                  value={settings.models?.[role] ?? ''}
                  onInput={(e) =>
                    setSettings({
                      ...settings,
                      models: {
                        ...settings.models,
                        [role]: (e.currentTarget as HTMLInputElement).value || undefined,
                      },
                    })
                  }
                />
              </label>
            ))}
            <label>
              Temperature
              <input
                type="number"
                step="0.1"
                min={MIN_TEMPERATURE}
                max={MAX_TEMPERATURE}
                value={temperature ?? ''}
                aria-invalid={temperatureProblem ? 'true' : 'false'}
                onInput={(e) => {
                  const v = (e.currentTarget as HTMLInputElement).value;
                  setSettings({ ...settings, temperature: v === '' ? undefined : Number(v) });
                }}
              />
            </label>
            {temperatureProblem ? <p class="error">{temperatureProblem}</p> : null}
            <button type="submit" class="primary">
              Save settings
            </button>
          </form>
        )}
        <p role="status">{status}</p>
      </section>
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
              setStatus('API key updated.');
            } catch {
              setStatus('This browser does not allow storing the key.');
            }
          }}
        >
          <label style={{ flex: 1 }}>
            API key
            <input
              type="password"
              autocomplete="off"
              value={key}
              onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">Use key</button>
        </form>
      </section>
    </div>
  );
}
