// What `mnesos serve --help` shows: where the server listens by default, the limits an operator may set and
// the most worker processes. A public entry of its own (EXTRA_ENTRIES in test/architecture/policy.ts) so
// the CLI can show them without loading the server (server/index.ts loads the app, the store, sessions).
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export { OPERATOR_LIMITS } from './operator-limits.ts';
export { MAX_WORKERS } from './workers.ts';
