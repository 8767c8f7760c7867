// `mnesos serve [--host H] [--port N] [--db URL] [--author] [--allow-user-base-url]`: the HTTP API (and the
// web client when built). Registration only; the work is in ../run/serve.ts, imported when the command runs.

import type { Command } from 'commander';
import { DEFAULT_HOST, DEFAULT_PORT, MAX_WORKERS, OPERATOR_LIMITS } from '../../server/defaults.ts';
import type { ServeFlags } from '../run/serve.ts';

export function register(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'Run the HTTP API (SSE streaming, sessions, saves); SQLite by default, PostgreSQL with --db postgres://…',
    )
    .option('--host <host>', `address to bind (default ${DEFAULT_HOST}; anything else needs MNESOS_API_KEYS)`)
    .option('--port <port>', `port (default ${DEFAULT_PORT}; 0 picks a free one)`)
    .option(
      '--db <url>',
      'database: a SQLite path, sqlite:PATH or postgres://… (default MNESOS_DATABASE_URL)',
    )
    .option('--author', 'author mode: full state views and direct event runs for session owners')
    .option(
      '--allow-user-base-url',
      'let users choose the base URL and provider of their models in Settings (their requests carry the server’s API key)',
    )
    .option(
      '--static <dir>',
      'serve this folder for non-API paths (default: the built web client, dist/web, when it exists)',
    )
    .option(
      '--mcp-folder <dir>',
      'a folder whose cartridges agents may use through /v1/mcp (repeatable; default: the working folder without API keys, none with them)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--workers <n>',
      `server processes sharing the port, for machines with more cores (default MNESOS_WORKERS or 1; at most ${MAX_WORKERS})`,
    );
  for (const limit of OPERATOR_LIMITS)
    command.option(limit.option, `${limit.what} (default ${limit.env} or built in)`);
  command.action(async (flags: ServeFlags) => {
    const { runServe } = await import('../run/serve.ts');
    await runServe(flags);
  });
}
