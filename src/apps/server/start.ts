// Listening. The rule: with no API keys the server is one local user and binds to loopback only; asked to
// bind anywhere else without keys it refuses to start and says why. Keys from MNESOS_API_KEYS are hashed
// at start (only hashes reach the store); each maps to its own principal.

import { existsSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { ModelConfig, ModelSet } from '../../adapters/llm/index.ts';
import type { TurnLimits } from '../../engine/turn/index.ts';
import {
  CartridgeLibrary,
  PrincipalModels,
  type SeedSource,
  type ServerModels,
  SessionService,
  TableService,
} from '../../engine/session/index.ts';
import { LocalBus, openBus, type TableBus } from '../../adapters/bus/index.ts';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';
import { openStore, type Store } from '../../adapters/store/index.ts';
import { createApp } from './app.ts';
import { type AuthConfig, installApiKeys, isLoopbackHostName, localPrincipal } from './auth.ts';
import { CartridgeChecker } from './cartridge-checker.ts';
import { GenerateRunner } from './generate/runner.ts';
import type { AppDeps } from './deps.ts';
import {
  admissionOf,
  HEADERS_TIMEOUT_MS,
  REQUEST_RECEIVE_TIMEOUT_MS,
  resolveServerLimits,
  type ServerLimits,
} from './limits.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.ts';
import { LiveNarrations } from './live-narration.ts';
import type { ServerMedia } from './media.ts';
import { Metrics } from './metrics.ts';
import { LiveHub } from './live/hub.ts';

export { DEFAULT_HOST, DEFAULT_PORT };
/** The demo cartridge every fresh server offers. */
export const DEFAULT_CARTRIDGE_DIR = join(PROJECT_ROOT, 'cartridges', 'lanternmere');

export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

export interface StartOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Used when `store` is not given (MNESOS_DATABASE_URL); SQLite under ./.mnesos by default. */
  readonly databaseUrl?: string;
  /** An open store to use (not closed by `close`). */
  readonly store?: Store;
  readonly apiKeys?: ReadonlyArray<{ label: string; key: string }>;
  /**
   * The operator's model configuration (what `serve` resolves from the environment): the server builds
   * the models from it, and principals' settings override it. Give this or `models`, not both.
   */
  readonly modelConfig?: ModelConfig;
  /**
   * Models for each turn, given by code (tests, embedding); null (or absent) means offline. Principals'
   * settings can only set the temperature of these.
   */
  readonly models?: () => ModelSet | null;
  /** Let principals choose the base URL and provider of their models (`serve --allow-user-base-url`). */
  readonly allowUserBaseUrl?: boolean;
  /** Model names principals may choose (MNESOS_ALLOWED_MODELS); any when absent. */
  readonly allowedModels?: ReadonlySet<string>;
  readonly modelMode?: 'online' | 'offline';
  readonly authorMode?: boolean;
  readonly limits?: Partial<ServerLimits>;
  readonly staticDir?: string;
  /** Cartridge folders registered at start (default: the demo cartridge). */
  readonly cartridgeDirs?: readonly string[];
  readonly seeds?: SeedSource;
  /** Host names accepted in keys mode (behind a proxy); any when absent. */
  readonly allowedHosts?: readonly string[];
  /** The turn limits of every turn (the compute budget `maxTurnSteps`, `maxTurnMs`, …); defaults when absent. */
  readonly turnLimits?: Partial<TurnLimits>;
  /**
   * Folders whose cartridges agents may use through `POST /v1/mcp` (`serve --mcp-folder`). Default: none
   * (shipped cartridges only); `serve` passes its working folder when it runs without API keys.
   */
  readonly mcpFolders?: readonly string[];
  /** Voices and pictures (docs/voices.md; `serve` reads them from the environment). Default: off. */
  readonly media?: ServerMedia;
  /** How turns give the event loop back (SessionService `turnYield`): for the isolation benchmark only. */
  readonly turnYield?: () => Promise<void>;
  /** The table bus (default: this process only); the server closes the one it is given. */
  readonly bus?: TableBus;
}

export interface RunningServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly deps: AppDeps;
  close(): Promise<void>;
}

export function isLoopbackBindHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  return isLoopbackHostName(name) || isLoopbackHostName(`[${name}]`);
}

/** Throws StartRefused when the loopback rule forbids this configuration. */
export function checkBindRule(host: string, keyCount: number): void {
  if (keyCount === 0 && !isLoopbackBindHost(host)) {
    throw new StartRefused(
      `refusing to listen on ${host} without API keys: anyone who can reach it could play as the local user. ` +
        'Set MNESOS_API_KEYS (comma-separated keys, at least 16 characters each), or bind to 127.0.0.1.',
    );
  }
}

/** A listen failure the operator can fix, said as such; anything else unchanged. */
function listenRefusal(error: Error, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartRefused(
        `cannot listen on ${where}: the port is already in use (another mnesos serve?). ` +
          'Stop that process, or choose another port with --port (0 picks a free one).',
      );
    case 'EACCES':
      return new StartRefused(
        `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Choose another with --port.`,
      );
    case 'EADDRNOTAVAIL':
      return new StartRefused(
        `cannot listen on ${where}: ${host} is not an address of this machine. Choose another with --host.`,
      );
    default:
      return error;
  }
}

function serverModels(options: StartOptions): ServerModels {
  if (options.modelConfig !== undefined && options.models !== undefined) {
    throw new StartRefused('give the server either modelConfig or models, not both');
  }
  if (options.modelConfig !== undefined) return { kind: 'config', config: options.modelConfig };
  return { kind: 'injected', models: options.models ?? (() => null) };
}

function defaultModelMode(options: StartOptions): 'online' | 'offline' {
  if (options.modelConfig !== undefined)
    return options.modelConfig.provider === 'offline' ? 'offline' : 'online';
  return options.models === undefined ? 'offline' : 'online';
}

/** The shared tables' parts: the bus (across replicas over PostgreSQL), the table service, the live hub. */
async function tableParts(
  options: StartOptions,
  store: Store,
  service: SessionService,
  limits: ServerLimits,
  ownStore: boolean,
): Promise<{ bus: TableBus; table: TableService; live: LiveHub }> {
  // Across replicas over PostgreSQL (LISTEN/NOTIFY on the same database); this process only otherwise.
  const bus: TableBus = options.bus ?? (ownStore ? await openBus(options.databaseUrl) : new LocalBus());
  const table = new TableService({
    store,
    bus,
    sessions: service,
    limits: { maxMembers: limits.maxTableMembers, maxInvites: limits.maxTableInvites },
  });
  const live = new LiveHub({
    store,
    bus,
    service,
    limits: { perPrincipal: limits.maxLiveStreamsPerPrincipal, total: limits.maxLiveStreams },
    recentTurn: (sessionId, turnId) => table.recentTurn(sessionId, turnId),
  });
  return { bus, table, live };
}

/** Every --mcp-folder must be a folder, checked before anything opens. */
function checkMcpFolders(dirs: readonly string[]): void {
  for (const dir of dirs)
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new StartRefused(`--mcp-folder ${dir}: no such folder`);
}

/** Offers each start folder's cartridge to the library; a folder that does not load refuses the start. */
async function offerCartridges(library: CartridgeLibrary, dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const registered = await library.offerFolder(dir);
    if (!registered.ok) {
      throw new StartRefused(
        `cartridge ${dir} does not load: ${registered.errors.map((e) => e.message).join('; ')}`,
      );
    }
  }
}

/** One local user without keys; with keys, their hashes installed and each request authenticated by one. */
async function authConfig(
  options: StartOptions,
  store: Store,
  keys: ReadonlyArray<{ label: string; key: string }>,
): Promise<AuthConfig> {
  if (keys.length === 0) return { kind: 'local', principal: await localPrincipal(store), store };
  await installApiKeys(store, keys);
  return { kind: 'keys', store, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) };
}

/** The session service and what it turns with: each principal's models, the metrics it reports to. */
function sessionParts(
  options: StartOptions,
  store: Store,
  library: CartridgeLibrary,
  limits: ServerLimits,
  server: ServerModels,
): { metrics: Metrics; models: PrincipalModels; service: SessionService } {
  const metrics = new Metrics();
  const models = new PrincipalModels({
    store,
    server,
    allowUserBaseUrl: options.allowUserBaseUrl ?? false,
    ...(options.allowedModels === undefined ? {} : { allowedModels: options.allowedModels }),
  });
  const service = new SessionService({
    store,
    library,
    models: (principalId) => models.modelsFor(principalId),
    observer: metrics.observer(),
    admission: admissionOf(limits),
    maxSessionsPerPrincipal: limits.maxSessions,
    ...(options.seeds ? { seeds: options.seeds } : {}),
    ...(options.turnLimits ? { turnLimits: options.turnLimits } : {}),
    ...(options.turnYield ? { turnYield: options.turnYield } : {}),
  });
  return { metrics, models, service };
}

/** What the server opens on its store: the app's dependencies and the table bus. */
interface OpenedParts {
  readonly deps: AppDeps;
  readonly bus: TableBus;
}

/** The app's dependencies, opened in order (the caller closes the store when one of them fails). */
async function openParts(
  options: StartOptions,
  store: Store,
  ownStore: boolean,
  settled: { server: ServerModels; limits: ServerLimits },
): Promise<OpenedParts> {
  const { server, limits } = settled;
  const library = new CartridgeLibrary(store);
  await offerCartridges(library, options.cartridgeDirs ?? [DEFAULT_CARTRIDGE_DIR]);
  const auth = await authConfig(options, store, options.apiKeys ?? []);
  const { metrics, models, service } = sessionParts(options, store, library, limits, server);
  const { bus, table, live } = await tableParts(options, store, service, limits, ownStore);
  const deps: AppDeps = {
    store,
    library,
    checker: new CartridgeChecker(),
    generator: new GenerateRunner(),
    service,
    table,
    live,
    auth,
    limits,
    metrics,
    models,
    narrations: new LiveNarrations(),
    modelMode: options.modelMode ?? defaultModelMode(options),
    authorMode: options.authorMode ?? false,
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    ...(options.mcpFolders ? { mcpFolders: options.mcpFolders } : {}),
    ...(options.media ? { media: options.media } : {}),
  };
  return { deps, bus };
}

/** Listens on host:port; a failure the operator can fix is a StartRefused saying how. */
function listen(app: ReturnType<typeof createApp>['app'], host: string, port: number): Promise<Server> {
  return new Promise<Server>((resolvePromise, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        hostname: host,
        port,
        serverOptions: { requestTimeout: REQUEST_RECEIVE_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS },
      },
      () => resolvePromise(s as Server),
    ) as Server;
    s.once('error', (error) => reject(listenRefusal(error, host, port)));
  });
}

/** The running server: its address, and a close that stops listening, then closes every part it opened. */
function runningServer(
  listening: Server,
  host: string,
  parts: OpenedParts,
  ownStore: boolean,
): RunningServer {
  const { deps, bus } = parts;
  const address = listening.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    host,
    port: address.port,
    deps,
    async close() {
      deps.live.close();
      await new Promise<void>((done) => {
        listening.close(() => done());
        listening.closeAllConnections();
      });
      await deps.checker.close();
      await deps.generator.close();
      await deps.service.close();
      await deps.table.close();
      await bus.close();
      if (ownStore) await deps.store.close();
    },
  };
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const server = serverModels(options);
  checkBindRule(host, (options.apiKeys ?? []).length);
  const limits = resolveServerLimits(options.limits);
  checkMcpFolders(options.mcpFolders ?? []);
  const ownStore = options.store === undefined;
  const store = options.store ?? (await openStore(options.databaseUrl));
  try {
    const parts = await openParts(options, store, ownStore, { server, limits });
    const { app } = createApp(parts.deps);
    const listening = await listen(app, host, options.port ?? DEFAULT_PORT);
    return runningServer(listening, host, parts, ownStore);
  } catch (error) {
    if (ownStore) await store.close();
    throw error;
  }
}
