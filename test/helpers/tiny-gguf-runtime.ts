// Whether node-llama-cpp is installed where the engine looks (src/adapters/llm/local-gguf/locate.ts). It is
// not a dependency of the project (`.ci/run` installs it beside the default install): suites that run a
// real local model skip with one visible line without it, and under CI=true its absence fails the run.
import { findLlamaCpp, installCommand } from '../../src/adapters/llm/local-gguf/index.ts';

export function llamaCppAvailable(what: string): boolean {
  if (findLlamaCpp(process.env) !== undefined) return true;
  if (process.env.CI === 'true')
    throw new Error(`${what}: node-llama-cpp is not installed, and CI=true requires it`);
  console.log(`skipped: ${what} — node-llama-cpp is not installed (${installCommand(process.env)})`);
  return false;
}
