// Settings → Models: this principal's models, kept on the server (never in the page URL): a model per role
// (empty fields show and use the server's), the temperature, and, when the operator allows it, the provider
// and its base URL or a GGUF model file on the server. Each field says what is wrong before anything is
// sent; the server's answer says why stored settings cannot be used. Beside it, this tab's API key.
import { useEffect, useState } from 'preact/hooks';
import type { ModelSettings, SettingsView } from '../../contract/index.ts';
import { useClient } from '../app/context.ts';
import { failureText } from '../lib/errors.ts';
import { baseUrlError, temperatureError } from '../lib/forms.ts';
import { EndpointFields, ModelFields, TemperatureField } from './model-fields.tsx';
import { ServerAccess } from './server-access.tsx';
import { SettingsApi } from './settings-api.ts';

const ROLES = ['director', 'narrator', 'npc'] as const;

/** The settings as read and as edited, and what the last read or save came to. */
function useModelSettings(api: SettingsApi) {
  const [view, setView] = useState<SettingsView | null>(null);
  const [settings, setSettings] = useState<ModelSettings>({});
  const [status, setStatus] = useState('');
  /** The last save failed: the status is then an alert, shown beside the button that failed. */
  const [failed, setFailed] = useState(false);
  const show = (next: SettingsView): void => {
    setView(next);
    setSettings(next.settings);
  };
  useEffect(() => {
    api
      .read()
      .then(show)
      .catch((e) => setStatus(failureText(e)));
  }, []);
  /** Saves `edited`; without the operator's consent the endpoint is the server's (a stale one is cleared). */
  const save = async (edited: ModelSettings, endpointAllowed: boolean): Promise<void> => {
    setStatus('');
    try {
      const sent = endpointAllowed
        ? edited
        : { ...edited, provider: undefined, baseUrl: undefined, modelFile: undefined };
      show(await api.save(sent));
      setStatus('Saved.');
      setFailed(false);
    } catch (e) {
      setStatus(failureText(e));
      setFailed(true);
    }
  };
  return { view, settings, setSettings, status, setStatus, failed, save };
}

/** What the server's own models are, which empty fields use. */
function serverModelsText(server: SettingsView['server'] | undefined): string {
  if (server === undefined) return 'Reading the settings…';
  if (server.models === null)
    return `Server models: ${server.provider === 'offline' ? 'none (offline)' : 'set by the server’s code'}.`;
  const models = ROLES.map((r) => `${r} ${server.models?.[r]}`).join(', ');
  return `Server models (${server.provider}): ${models}. Empty fields use these.`;
}

/** Why the stored settings cannot be used as they are (the server's word), if anything. */
function SettingsProblem({ problem }: { problem: string }) {
  if (!problem) return null;
  return (
    <p class="error" data-testid="settings-problem">
      {problem}
    </p>
  );
}

/** What the last save or read did: a status, or an alert when it failed. */
function SettingsStatus({ status, failed }: { status: string; failed: boolean }) {
  return (
    <p role={failed ? 'alert' : 'status'} class={failed ? 'error' : undefined} data-testid="settings-status">
      {status}
    </p>
  );
}

export function ModelSettingsForm() {
  const model = useModelSettings(useClient(SettingsApi));
  const { settings, setSettings } = model;
  const server = model.view?.server;
  const endpointAllowed = server?.allowUserBaseUrl === true;
  // A local model file on the server has no base URL and no model names: those fields are not shown.
  const localFile = endpointAllowed && settings.provider === 'file';
  const temperatureProblem = temperatureError(settings.temperature);
  const urlProblem = endpointAllowed && !localFile ? baseUrlError(settings.baseUrl) : '';
  const save = (event: Event): void => {
    event.preventDefault();
    if (temperatureProblem || urlProblem) return;
    void model.save(settings, endpointAllowed);
  };
  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="models-h">
        <h2 id="models-h">Models</h2>
        <p class="muted" data-testid="settings-server">
          {serverModelsText(server)}
        </p>
        <form onSubmit={save} style={{ display: 'grid', gap: '0.5rem' }} data-testid="settings-form">
          <EndpointFields
            settings={settings}
            onChange={setSettings}
            allowed={endpointAllowed}
            serverProvider={server?.provider}
            urlProblem={urlProblem}
          />
          {localFile ? null : <ModelFields settings={settings} onChange={setSettings} server={server} />}
          <TemperatureField settings={settings} onChange={setSettings} problem={temperatureProblem} />
          <SettingsProblem problem={model.view?.problem ?? ''} />
          <button type="submit" class="primary" data-testid="settings-save">
            Save settings
          </button>
        </form>
        <SettingsStatus status={model.status} failed={model.failed} />
      </section>
      <ServerAccess onStatus={model.setStatus} />
    </div>
  );
}
