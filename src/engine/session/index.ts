// Sessions: the turn tree, saves, branching, hydration and concurrency over the store (see service.ts).
export { canonicalJson, plainJson } from './canonical.ts';
export {
  isSessionError,
  type NoTurnAnswer,
  noTurnAnswer,
  SessionError,
  type SessionErrorCode,
} from './errors.ts';
export {
  cartridgeLedger,
  type CartridgeLedger,
  logEntries,
  type WorldResult,
  worldFromRows,
} from './ledger.ts';
export { CartridgeLibrary, type LoadedCartridge, type RegisterResult, type UploadResult } from './library.ts';
export * from './limits.ts';
export { inputText, storyMessages, tableOfInput } from './messages.ts';
export { type PendingInteraction, pendingInteraction } from './pending.ts';
export { PICTURE_LORE_SECTIONS, pictureSceneOf } from './picture-scene.ts';
export { type SpeechCastOfSession, speechCastOf } from './speech-cast.ts';
export {
  ENDPOINT_NOT_ALLOWED_MESSAGE,
  MAX_BASE_URL_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  mergeConfig,
  MIN_TEMPERATURE,
  type ModelRecipe,
  type ModelSettings,
  modelSettingsSchema,
  parseAllowedModels,
  planModels,
  type ServerModels,
  type SettingsPlan,
  type SettingsPolicy,
  withTemperature,
} from './model-settings.ts';
export {
  MODEL_CACHE_SIZE,
  type PortableModels,
  PrincipalModels,
  type PrincipalModelsOptions,
  type ServerModelsView,
  type SettingsState,
} from './principal-models.ts';
export {
  type AuthorEventRecord,
  classifyRecord,
  type GenesisRecord,
  type SessionRecord,
  type StoredTurnRecord,
} from './records.ts';
export { REBASE_TURNS_PER_SLICE, type RebasedChain, type RebaseStep } from './rebase.ts';
export { countingSeeds, cryptoSeeds, freshSeed, type SeedSource } from './seeds.ts';
export {
  type AdmissionRules,
  type AdmittedTurn,
  type CreateSessionRequest,
  type PreparedTurn,
  type ReadyTurn,
  type RunOptions,
  type SessionObserver,
  SessionService,
  type SessionServiceOptions,
  type StatelessOutcome,
  type StatelessRequest,
  storedTurnInput,
  type TurnInput,
  type TurnOutcome,
  type TurnRequest,
} from './service.ts';
export {
  admission,
  DEFAULT_ADMISSION,
  IDEMPOTENCY_KEY_MESSAGE,
  interactionSchema,
  resolveAdmission,
  turnOf,
} from './turn-job/admission.ts';
export { type DrivenTurn, driveTurn, type TurnSink } from './turn-job/drive.ts';
export { playStatelessTurn, type StatelessTurn } from './turn-job/stateless.ts';
export { type Divergence, type DivergenceKind, type VerifyReport, verifySession } from './verify.ts';
export * from './table/index.ts';
