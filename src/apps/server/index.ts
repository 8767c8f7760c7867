// The HTTP server: the app (app.ts) and listening (start.ts).
export { type BuiltApp, createApp } from './app.ts';
export { type AuthConfig, installApiKeys, localPrincipal, parseApiKeys } from './auth.ts';
export type { AppDeps } from './deps.ts';
export { ApiError } from './errors.ts';
export * from './limits.ts';
export { NO_MEDIA, type ServerMedia, serverMediaFromEnv } from './media.ts';
export { Metrics } from './metrics.ts';
export {
  checkBindRule,
  DEFAULT_CARTRIDGE_DIR,
  DEFAULT_HOST,
  DEFAULT_PORT,
  isLoopbackBindHost,
  type RunningServer,
  StartRefused,
  type StartOptions,
  startServer,
} from './start.ts';
export { OperatorLimitError, operatorLimits } from './operator-limits.ts';
export {
  isWorkerProcess,
  leaveCluster,
  parseWorkers,
  reportReady,
  runWorkers,
  SHUTDOWN_GRACE_MS,
  WorkersError,
} from './workers.ts';
export type { LibraryCartridgeView, LibraryVersionView } from './library-views.ts';
