// Settings: the model provider for this principal, kept on the server (never in the page URL), and the
// API key this browser tab uses when the server requires one (kept in sessionStorage). The API key of the
// model provider is not a setting: it stays in the server's environment.
import { useEffect, useState } from 'preact/hooks';
import {
  type ModelSettings,
  SETTINGS_PROVIDERS,
  type SettingsProvider,
  type SettingsView,
} from '../../contract/index.ts';
import { SettingsApi } from './settings-api.ts';
import { failureText } from '../lib/errors.ts';
import {
  baseUrlError,
  MAX_BASE_URL_CHARS,
  MAX_MODEL_FILE_PATH_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  temperatureError,
} from '../lib/forms.ts';
import {
  API_KEY_STORAGE,
  SHOW_RULES_STORAGE,
  STRICT_STORAGE,
  storedApiKey,
  storedShowRules,
  storedStrict,
  useApp,
  useClient,
} from '../app/context.ts';
import { Checkbox } from '../ui/checkbox.tsx';
import { PersonaManager } from '../personas/persona-manager.tsx';

const ROLES = ['director', 'narrator', 'npc'] as const;

function isProvider(value: string): value is SettingsProvider {
  return (SETTINGS_PROVIDERS as readonly string[]).includes(value);
}

function ModelSettingsForm() {
  const api = useClient(SettingsApi);
  const [view, setView] = useState<SettingsView | null>(null);
  const [settings, setSettings] = useState<ModelSettings>({});
  const [status, setStatus] = useState('');
  /** The last save failed: the status is then an alert, shown beside the button that failed. */
  const [failed, setFailed] = useState(false);
  const [problem, setProblem] = useState('');
  const [key, setKey] = useState(() => storedApiKey() ?? '');

  const show = (next: SettingsView): void => {
    setView(next);
    setSettings(next.settings);
    setProblem(next.problem ?? '');
  };

  useEffect(() => {
    api
      .read()
      .then(show)
      .catch((e) => setStatus(failureText(e)));
  }, []);

  const temperature = settings.temperature;
  const temperatureProblem = temperatureError(temperature);
  const server = view?.server;
  const endpointAllowed = server?.allowUserBaseUrl === true;
  // A local model file on the server has no base URL and no model names: those fields are not shown.
  const localFile = endpointAllowed && settings.provider === 'file';
  const urlProblem = endpointAllowed && !localFile ? baseUrlError(settings.baseUrl) : '';

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (temperatureProblem || urlProblem) return;
    setStatus('');
    try {
      // Without the operator's consent the endpoint is the server's: a stale stored one is cleared on save.
      show(
        await api.save(
          endpointAllowed
            ? settings
            : { ...settings, provider: undefined, baseUrl: undefined, modelFile: undefined },
        ),
      );
      setStatus('Saved.');
      setFailed(false);
    } catch (e) {
      setStatus(failureText(e));
      setFailed(true);
    }
  };

  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="models-h">
        <h2 id="models-h">Models</h2>
        <p class="muted" data-testid="settings-server">
          {server === undefined
            ? 'Reading the settings…'
            : server.models === null
              ? `Server models: ${server.provider === 'offline' ? 'none (offline)' : 'set by the server’s code'}.`
              : `Server models (${server.provider}): ${ROLES.map((r) => `${r} ${server.models?.[r]}`).join(', ')}. Empty fields use these.`}
        </p>
        <form onSubmit={save} style={{ display: 'grid', gap: '0.5rem' }} data-testid="settings-form">
          {endpointAllowed ? (
            <>
              <label>
                Provider
                <select
                  data-testid="settings-provider"
                  value={settings.provider ?? ''}
                  onChange={(e) => {
                    const v = (e.currentTarget as HTMLSelectElement).value;
                    setSettings({ ...settings, provider: isProvider(v) ? v : undefined });
                  }}
                >
                  <option value="">The server’s ({server?.provider})</option>
                  {SETTINGS_PROVIDERS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
              </label>
              {settings.provider === 'file' ? (
                <>
                  <label>
                    Model file on the server (.gguf)
                    <input
                      data-testid="settings-model-file"
                      maxLength={MAX_MODEL_FILE_PATH_CHARS}
                      value={settings.modelFile ?? ''}
                      placeholder="/models/model.gguf"
                      onInput={(e) =>
                        setSettings({
                          ...settings,
                          modelFile: (e.currentTarget as HTMLInputElement).value || undefined,
                        })
                      }
                    />
                  </label>
                  <p class="muted">
                    Runs in the server’s process with every role on this one model (docs/models.md, “Local
                    models in-process”).
                  </p>
                </>
              ) : null}
            </>
          ) : (
            <p class="muted" data-testid="settings-endpoint-locked">
              The base URL and provider are the server’s: its operator has not allowed choosing them (mnesos
              serve --allow-user-base-url).
            </p>
          )}
          {endpointAllowed && !localFile ? (
            <>
              <label>
                Provider base URL
                <input
                  type="url"
                  data-testid="settings-base-url"
                  maxLength={MAX_BASE_URL_CHARS}
                  value={settings.baseUrl ?? ''}
                  placeholder="http://localhost:11434/v1"
                  aria-invalid={urlProblem ? 'true' : 'false'}
                  onInput={(e) =>
                    setSettings({
                      ...settings,
                      baseUrl: (e.currentTarget as HTMLInputElement).value || undefined,
                    })
                  }
                />
              </label>
              {urlProblem ? <p class="error">{urlProblem}</p> : null}
              <p class="muted">Requests to this URL carry the server’s API key.</p>
            </>
          ) : null}
          {(localFile ? [] : ROLES).map((role) => (
            <label key={role}>
              Model for the {role}
              <input
                data-testid={`settings-model-${role}`}
                maxLength={MAX_MODEL_NAME_CHARS}
                value={settings.models?.[role] ?? ''}
                placeholder={server?.models?.[role] ?? ''}
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
              data-testid="settings-temperature"
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
          {problem ? (
            <p class="error" data-testid="settings-problem">
              {problem}
            </p>
          ) : null}
          <button type="submit" class="primary" data-testid="settings-save">
            Save settings
          </button>
        </form>
        <p
          role={failed ? 'alert' : 'status'}
          class={failed ? 'error' : undefined}
          data-testid="settings-status"
        >
          {status}
        </p>
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

/** Settings: this browser's display choices, the personas, and the model settings. */
export function Settings() {
  return (
    <div class="grid-2">
      <DisplaySettings />
      <PersonaManager />
      <ModelSettingsForm />
    </div>
  );
}

/** Keeps a choice of this browser; storage refused (private mode): the choice lasts for this page only. */
function remember(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    // storage refused: nothing kept
  }
}

function DisplaySettings() {
  const { info } = useApp();
  const [showRules, setShowRules] = useState(storedShowRules);
  const [strict, setStrict] = useState(storedStrict);
  return (
    <section class="card" aria-labelledby="display-h">
      <h2 id="display-h">Display</h2>
      <Checkbox
        testId="show-rules"
        label="Show the dice and what changed under each turn"
        checked={showRules}
        onChange={(on) => {
          setShowRules(on);
          remember(SHOW_RULES_STORAGE, on);
        }}
      />
      {info.authorMode ? (
        <Checkbox
          testId="strict-mode"
          label="Strict mode (authors): refuse a turn that breaks one of the cartridge's invariants"
          checked={strict}
          onChange={(on) => {
            setStrict(on);
            remember(STRICT_STORAGE, on);
          }}
        />
      ) : null}
    </section>
  );
}
