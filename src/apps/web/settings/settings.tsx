// Settings: this browser's display choices (display-settings.tsx), the personas, the model settings of this
// principal, kept on the server (never in the page URL; model-settings-form.tsx), and the API key this
// browser tab uses when the server requires one (kept in sessionStorage). The API key of the model
// provider is not a setting: it stays in the server's environment.
import { PersonaManager } from '../personas/persona-manager.tsx';
import { DisplaySettings } from './display-settings.tsx';
import { ModelSettingsForm } from './model-settings-form.tsx';

export function Settings() {
  return (
    <div class="grid-2">
      <DisplaySettings />
      <PersonaManager />
      <ModelSettingsForm />
    </div>
  );
}
