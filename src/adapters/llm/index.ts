// Public entry of the model layer. The turn engine imports from here only; nothing here exposes the
// AI SDK's types.

export type {
  ChatMessage,
  ChatModel,
  JsonSchema,
  ModelRequest,
  ModelResponse,
  ModelRole,
  ModelSet,
  ModelStreamPart,
  ToolCall,
  ToolChoice,
  ToolSpec,
  Usage,
} from './types.ts';
export { MODEL_ROLES } from './types.ts';
export { isModelError, ModelError, type ModelErrorKind } from './errors.ts';
export { Secret } from './secret.ts';
export * as llmLimits from './limits.ts';
export { abortedError, DEFAULT_RETRY_POLICY, type RetryPolicy, backoffDelayMs } from './retry.ts';
export {
  DEFAULT_CONFIG_FILE_NAME,
  describeModelConfig,
  type Env,
  loadModelConfig,
  type ModelConfig,
  type OfflineModelConfig,
  ONLINE_PROVIDERS,
  type OnlineModelConfig,
  type OnlineProvider,
  parseModelConfigFile,
  type ProviderName,
  resolveConfig,
  resolveModelConfig,
  type LocalModelConfig,
} from './config.ts';
export { createModels } from './providers.ts';
export {
  checkLocalModel,
  closeModelHosts,
  installCommand,
  localModelDefaults,
  modelFileProblem,
} from './local-gguf/index.ts';
export { createEmbedder, type EmbedFunction, embed } from './embeddings.ts';
export {
  loadModelScript,
  type ModelScript,
  type ModelScriptInput,
  parseModelScript,
  validateModelScript,
} from './script.ts';
export {
  createScriptedModels,
  type RecordedRequest,
  type ScriptedChatModel,
  type ScriptedModelSet,
} from './scripted.ts';
export { meterModels, type RoleUsage, UsageMeter } from './usage.ts';
export { capModels, type RefusedOutput } from './output-caps.ts';
