// A principal's model settings: one schema with its limits (settings.ts), and the provider table it
// chooses from (core/model-providers.ts). Pure, bundled by the browser too.
export {
  MAX_MODEL_FILE_PATH_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  type ModelSettings,
  modelNameSchema,
  modelSettingsSchema,
} from './settings.ts';
export { SETTINGS_PROVIDERS, type SettingsProvider } from '../model-providers.ts';
export { MAX_BASE_URL_CHARS } from '../base-url-policy.ts';
