// The fields of the model settings form: where requests go (provider, base URL or a model file on the
// server; only when the operator allows choosing it), a model per role, and the temperature. Each takes
// the settings as edited and gives them back changed; the limits are the server's (core/model-settings).
import {
  type ModelSettings,
  SETTINGS_PROVIDERS,
  type SettingsProvider,
  type SettingsView,
} from '../../contract/index.ts';
import {
  MAX_BASE_URL_CHARS,
  MAX_MODEL_FILE_PATH_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
} from '../../../core/model-settings/index.ts';

type Edit = (settings: ModelSettings) => void;
const ROLES = ['director', 'narrator', 'npc'] as const;

function isProvider(value: string): value is SettingsProvider {
  return (SETTINGS_PROVIDERS as readonly string[]).includes(value);
}

/** Provider, and the base URL or the model file it needs; or that the operator keeps them the server's. */
export function EndpointFields(props: {
  settings: ModelSettings;
  onChange: Edit;
  allowed: boolean;
  serverProvider: string | undefined;
  urlProblem: string;
}) {
  const { settings, onChange } = props;
  if (!props.allowed)
    return (
      <p class="muted" data-testid="settings-endpoint-locked">
        The base URL and provider are the server’s: its operator has not allowed choosing them (mnesos serve
        --allow-user-base-url).
      </p>
    );
  return (
    <>
      <label>
        Provider
        <select
          data-testid="settings-provider"
          value={settings.provider ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            onChange({ ...settings, provider: isProvider(v) ? v : undefined });
          }}
        >
          <option value="">The server’s ({props.serverProvider})</option>
          {SETTINGS_PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      {settings.provider === 'file' ? (
        <ModelFileField settings={settings} onChange={onChange} />
      ) : (
        <BaseUrlField settings={settings} onChange={onChange} problem={props.urlProblem} />
      )}
    </>
  );
}

function ModelFileField({ settings, onChange }: { settings: ModelSettings; onChange: Edit }) {
  return (
    <>
      <label>
        Model file on the server (.gguf)
        <input
          data-testid="settings-model-file"
          maxLength={MAX_MODEL_FILE_PATH_CHARS}
          value={settings.modelFile ?? ''}
          placeholder="/models/model.gguf"
          onInput={(e) => onChange({ ...settings, modelFile: e.currentTarget.value || undefined })}
        />
      </label>
      <p class="muted">
        Runs in the server’s process with every role on this one model (docs/models.md, “Local models
        in-process”).
      </p>
    </>
  );
}

function BaseUrlField(props: { settings: ModelSettings; onChange: Edit; problem: string }) {
  const { settings, onChange } = props;
  return (
    <>
      <label>
        Provider base URL
        <input
          type="url"
          data-testid="settings-base-url"
          maxLength={MAX_BASE_URL_CHARS}
          value={settings.baseUrl ?? ''}
          placeholder="http://localhost:11434/v1"
          aria-invalid={props.problem ? 'true' : 'false'}
          onInput={(e) => onChange({ ...settings, baseUrl: e.currentTarget.value || undefined })}
        />
      </label>
      {props.problem ? <p class="error">{props.problem}</p> : null}
      <p class="muted">Requests to this URL carry the server’s API key.</p>
    </>
  );
}

/** A model name per role; an empty one shows (and uses) the server's. */
export function ModelFields(props: {
  settings: ModelSettings;
  onChange: Edit;
  server: SettingsView['server'] | undefined;
}) {
  const { settings, onChange } = props;
  return (
    <>
      {ROLES.map((role) => (
        <label key={role}>
          Model for the {role}
          <input
            data-testid={`settings-model-${role}`}
            maxLength={MAX_MODEL_NAME_CHARS}
            value={settings.models?.[role] ?? ''}
            placeholder={props.server?.models?.[role] ?? ''}
            onInput={(e) =>
              onChange({
                ...settings,
                models: { ...settings.models, [role]: e.currentTarget.value || undefined },
              })
            }
          />
        </label>
      ))}
    </>
  );
}

export function TemperatureField(props: { settings: ModelSettings; onChange: Edit; problem: string }) {
  const { settings, onChange } = props;
  return (
    <>
      <label>
        Temperature
        <input
          type="number"
          step="0.1"
          data-testid="settings-temperature"
          min={MIN_TEMPERATURE}
          max={MAX_TEMPERATURE}
          value={settings.temperature ?? ''}
          aria-invalid={props.problem ? 'true' : 'false'}
          onInput={(e) => {
            const v = e.currentTarget.value;
            onChange({ ...settings, temperature: v === '' ? undefined : Number(v) });
          }}
        />
      </label>
      {props.problem ? <p class="error">{props.problem}</p> : null}
    </>
  );
}
