// The model providers, one table: those the server can be configured with (adapters/llm/config.ts) and those
// a principal may choose in their settings (core/model-settings, the browser's settings form). Adding a
// provider here adds it everywhere, the browser's list included.

/** The online providers: an OpenAI-compatible endpoint, and the three with native clients. */
export const ONLINE_PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google'] as const;
export type OnlineProvider = (typeof ONLINE_PROVIDERS)[number];

/** The providers a principal may choose: the online ones, and `file` (a GGUF file on the server's machine). */
export const SETTINGS_PROVIDERS = [...ONLINE_PROVIDERS, 'file'] as const;
export type SettingsProvider = (typeof SETTINGS_PROVIDERS)[number];
