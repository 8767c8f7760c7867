// The work of `mnesos serve`. Keys come from MNESOS_API_KEYS (comma-separated raw keys, optionally
// `label=key`), hashed at start; the database from --db or MNESOS_DATABASE_URL (SQLite under ./.mnesos by
// default); models from the usual MNESOS_* model configuration (offline when none). Without keys the
// server binds to loopback only.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeModelHosts,
  isModelError,
  loadModelConfig,
  type ModelConfig,
} from '../../../adapters/llm/index.ts';
import { MediaError } from '../../../adapters/media/index.ts';
import { PROJECT_ROOT } from '../../../adapters/project-root.ts';
import { parseAllowedModels } from '../../../engine/session/index.ts';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  isWorkerProcess,
  leaveCluster,
  OperatorLimitError,
  operatorLimits,
  parseApiKeys,
  parseWorkers,
  reportReady,
  runWorkers,
  serverMediaFromEnv,
  SHUTDOWN_GRACE_MS,
  type ServerLimits,
  StartRefused,
  startServer,
  WorkersError,
} from '../../server/index.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export interface ServeFlags {
  readonly host?: string;
  readonly port?: string;
  readonly db?: string;
  readonly author?: boolean;
  readonly allowUserBaseUrl?: boolean;
  readonly static?: string;
  /** Server processes on the port (MNESOS_WORKERS; default 1). */
  readonly workers?: string;
  /** Folders whose cartridges agents may use through /v1/mcp (`--mcp-folder`, repeatable). */
  readonly mcpFolder?: readonly string[];
  /** Operator limits (see OPERATOR_LIMITS): `--rate-limit`, `--turn-timeout-ms`, … as given. */
  readonly [limit: string]: string | boolean | readonly string[] | undefined;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UserError(`--port must be 0 to 65535, got '${text}'`, EXIT.usage);
  return port;
}

/** MNESOS_API_KEYS parsed; a malformed list is the operator's to fix. */
function apiKeysFromEnv(): Array<{ label: string; key: string }> {
  try {
    return parseApiKeys(process.env.MNESOS_API_KEYS);
  } catch (error) {
    throw new UserError(`MNESOS_API_KEYS: ${(error as Error).message}`);
  }
}

/** The operator limits and the number of server processes, from the flags and the environment. */
function limitsAndWorkers(flags: ServeFlags): { limits: Partial<ServerLimits>; workers: number } {
  try {
    const limits = operatorLimits(process.env, flags);
    const workers = parseWorkers(
      flags.workers ?? process.env.MNESOS_WORKERS,
      flags.workers === undefined ? 'MNESOS_WORKERS' : '--workers',
    );
    return { limits, workers };
  } catch (error) {
    if (error instanceof OperatorLimitError || error instanceof WorkersError)
      throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

/** The primary of several server processes: it starts the workers and waits for them. */
async function runWorkerPool(workers: number): Promise<void> {
  try {
    await runWorkers(workers, (line) => process.stdout.write(line));
  } catch (error) {
    if (error instanceof WorkersError) throw new UserError(error.message);
    throw error;
  }
}

function modelConfigFromEnv(): ModelConfig {
  try {
    return loadModelConfig(process.env);
  } catch (error) {
    // A bad model configuration (a local model file without node-llama-cpp: its install command) is the
    // operator's to fix, said before the server starts.
    if (isModelError(error)) throw new UserError(error.message);
    throw error;
  }
}

type ServeKeys = ReadonlyArray<{ label: string; key: string }>;
type Serving = Awaited<ReturnType<typeof startServer>>;

/** The server started as the flags say; a refusal (bind rule, port, media, limit) is a UserError. */
async function startServing(
  flags: ServeFlags,
  keys: ServeKeys,
  limits: Partial<ServerLimits>,
  config: ModelConfig,
): Promise<Serving> {
  const builtClient = join(PROJECT_ROOT, 'dist', 'web');
  const staticDir = flags.static ?? (existsSync(builtClient) ? builtClient : undefined);
  try {
    return await startServer({
      host: flags.host ?? DEFAULT_HOST,
      port: parsePort(flags.port),
      databaseUrl: flags.db ?? process.env.MNESOS_DATABASE_URL,
      apiKeys: keys,
      modelConfig: config,
      allowUserBaseUrl: flags.allowUserBaseUrl === true,
      allowedModels: parseAllowedModels(process.env.MNESOS_ALLOWED_MODELS),
      // Single-user local mode (loopback, no API keys): the one user owns everything, so the author tools
      // are on without a flag. With keys, `--author` turns them on for session owners.
      authorMode: flags.author === true || keys.length === 0,
      limits,
      ...(staticDir ? { staticDir } : {}),
      // Agents over /v1/mcp: the folders named, else the working folder for the local user, else none.
      mcpFolders: flags.mcpFolder ?? (keys.length === 0 ? [process.cwd()] : []),
      // Voices and pictures from MNESOS_SPEECH_* and MNESOS_IMAGE_* (docs/voices.md).
      media: serverMediaFromEnv(process.env),
    });
  } catch (error) {
    if (error instanceof StartRefused) throw new UserError(error.message);
    if (error instanceof MediaError) throw new UserError(error.message, EXIT.usage);
    // A limit out of range (resolveServerLimits names it).
    if (error instanceof RangeError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

/** The line saying where the server listens and how: store, keys, models, rate limit. */
function serveBanner(server: Serving, keys: ServeKeys, config: ModelConfig, flags: ServeFlags): string {
  const mode =
    (config.provider === 'offline' ? `offline (${config.reason})` : `models via ${config.provider}`) +
    (flags.allowUserBaseUrl === true ? '; users may choose model base URLs' : '');
  const rate =
    server.deps.limits.rateLimit === 0
      ? 'no rate limit'
      : `${server.deps.limits.rateLimit} requests/principal/window`;
  return `mnesos: listening on ${server.url} (${server.deps.store.dialect}, ${keys.length === 0 ? 'local user, loopback only' : `${keys.length} API key(s)`}, ${mode}, ${rate})`;
}

/**
 * Ctrl-C and SIGTERM close the server and its store; resolves when closed. Local model hosts are killed
 * first, so a turn waiting on one fails at once instead of holding the close; past SHUTDOWN_GRACE_MS the
 * process exits anyway.
 */
function closedOnSignal(server: Serving): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      setTimeout(() => {
        process.stderr.write(
          `mnesos: not closed within ${SHUTDOWN_GRACE_MS} ms (SHUTDOWN_GRACE_MS); exiting\n`,
        );
        process.exit(EXIT.user);
      }, SHUTDOWN_GRACE_MS).unref();
      void closeModelHosts()
        .then(() => server.close())
        .then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function runServe(flags: ServeFlags): Promise<void> {
  const keys = apiKeysFromEnv();
  const { limits, workers } = limitsAndWorkers(flags);
  if (workers > 1 && !isWorkerProcess()) return runWorkerPool(workers);
  const config = modelConfigFromEnv();
  const server = await startServing(flags, keys, limits, config);
  const banner = serveBanner(server, keys, config, flags);
  // Installed before saying it listens: whoever reads the banner may stop the server at once.
  const stopped = closedOnSignal(server);
  if (isWorkerProcess()) reportReady(server.url, banner);
  else process.stdout.write(`${banner}\n`);
  await stopped;
  leaveCluster();
}
