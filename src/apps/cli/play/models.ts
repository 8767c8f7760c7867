// Which models a `turn` or `play` command uses: a `--llm-script` file (tests and demos), else the
// configured provider (environment, then `./mnesos.config.yaml`), else none (offline). A bad script or
// configuration is the user's to fix (exit 1); a provider that fails during a turn is exit 3 (elsewhere).
// The AI SDK is imported only when a model is used (llm/providers.ts loads it on first use): offline play
// starts faster.

import { existsSync } from 'node:fs';
import {
  createModels,
  createScriptedModels,
  DEFAULT_CONFIG_FILE_NAME,
  describeModelConfig,
  type Env,
  isModelError,
  loadModelConfig,
  loadModelScript,
  type ModelSet,
} from '../../../adapters/llm/index.ts';
import { UserError } from '../user-error.ts';

export type ModelChoice =
  | { readonly kind: 'scripted'; readonly models: ModelSet; readonly description: string }
  | { readonly kind: 'online'; readonly models: ModelSet; readonly description: string }
  | { readonly kind: 'offline'; readonly models: null; readonly description: string };

/** Shown whenever the game runs without a model, so nobody mistakes the rules engine for a broken model. */
export const OFFLINE_HELP =
  'No model is configured, so the rules engine narrates from the event notes (slash commands and keyword ' +
  'matching decide what happens). To play with a model, set MNESOS_LLM_BASE_URL to an OpenAI-compatible ' +
  'server (for example http://localhost:11434/v1 for Ollama) and MNESOS_MODEL to a model it serves, or ' +
  'set MNESOS_PROVIDER=openai|anthropic|google with its API key. See docs/models.md.';

export interface ChooseModelsOptions {
  readonly llmScript?: string | undefined;
  readonly env: Env;
  /** The config file to read when it exists (default `./mnesos.config.yaml`). */
  readonly configFile?: string;
}

export async function chooseModels(options: ChooseModelsOptions): Promise<ModelChoice> {
  try {
    if (options.llmScript !== undefined) {
      const script = loadModelScript(options.llmScript);
      // One set for the whole game: a script is played in order across turns.
      return {
        kind: 'scripted',
        models: createScriptedModels(script, options.llmScript),
        description: `scripted models from ${options.llmScript}`,
      };
    }
    const file = options.configFile ?? DEFAULT_CONFIG_FILE_NAME;
    const config = loadModelConfig(options.env, existsSync(file) ? file : undefined);
    if (config.provider === 'offline')
      return { kind: 'offline', models: null, description: describeModelConfig(config) };
    const models = createModels(config);
    if (models === null) return { kind: 'offline', models: null, description: describeModelConfig(config) };
    return { kind: 'online', models, description: describeModelConfig(config) };
  } catch (error) {
    if (isModelError(error)) throw new UserError(error.message);
    throw error;
  }
}
