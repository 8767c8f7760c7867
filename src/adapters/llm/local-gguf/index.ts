// Local GGUF models through node-llama-cpp (docs/models.md, "Local models"). This index loads neither the
// package nor a model: createLocalModels checks the file and finds the package (one clear error each), and
// the first model call starts the file's model host, a child process that imports and loads them (host.ts).

import { availableParallelism } from 'node:os';
import type { ModelSet } from '../types.ts';
import { requireLlamaCpp } from './locate.ts';
import { createLocalChatModel } from './model.ts';
import { checkModelFile } from './model-file.ts';
import { type LocalModelConfig, readLocalModelOptions } from './options.ts';

export {
  installCommand,
  LLAMA_CPP_CACHE_DIR,
  LLAMA_CPP_PACKAGE,
  findLlamaCpp,
  llamaCppPrefix,
  missingLlamaCppMessage,
  requireLlamaCpp,
} from './locate.ts';
export { closeModelHosts } from './hosts.ts';
export { checkModelFile, modelFileProblem } from './model-file.ts';
export * from './options.ts';

/**
 * The local settings a file chosen elsewhere (a user's settings) runs with: the server's environment
 * (MNESOS_MODEL_THREADS, …, MNESOS_LLAMA_CPP_DIR), else the defaults.
 */
export function localModelDefaults(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Pick<LocalModelConfig, 'local' | 'llamaCppDir'> {
  const dir = env.MNESOS_LLAMA_CPP_DIR?.trim();
  return {
    local: readLocalModelOptions(env, availableParallelism()),
    ...(dir === undefined || dir === '' ? {} : { llamaCppDir: dir }),
  };
}

function locateEnv(config: LocalModelConfig): Record<string, string | undefined> {
  return { MNESOS_LLAMA_CPP_DIR: config.llamaCppDir };
}

/** Checks the file and that node-llama-cpp is installed; throws a `config` ModelError saying what to do. */
export function checkLocalModel(config: LocalModelConfig): { file: string; entry: string } {
  const file = checkModelFile(config.file, { source: config.source });
  const { entry } = requireLlamaCpp(locateEnv(config));
  return { file, entry };
}

/** One model for every role: the file is loaded once and its calls run in turn. */
export function createLocalModels(config: LocalModelConfig): ModelSet {
  const { file, entry } = checkLocalModel(config);
  const model = createLocalChatModel({ ...config.local, file, entry });
  return { director: model, narrator: model, npc: model };
}
