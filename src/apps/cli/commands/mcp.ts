// `mnesos mcp [--folder DIR]... [--db URL] [--llm-script f] [--seed N]`: the engine as a Model Context Protocol
// server on stdin and stdout (docs/agents.md). Registration only; the work is in ../run/mcp.ts, imported when
// the command runs.

import type { Command } from 'commander';
import { parseSeed } from '../options.ts';
import type { McpFlags } from '../run/mcp.ts';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function register(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the engine to AI agents over the Model Context Protocol (stdio): validate, run events, explore, look up lore, play.',
    )
    .option(
      '--folder <dir>',
      'a folder whose cartridges the agent may use (repeatable; default: the working folder). Shipped cartridges are always allowed.',
      collect,
    )
    .option(
      '--db <url>',
      'where sessions are stored: a SQLite file, sqlite:PATH or postgres://… (default ./.mnesos/mnesos.db)',
    )
    .option('--llm-script <file>', 'play scripted model responses from this file (tests and demos)')
    .option(
      '--seed <n>',
      'dice seed of the first turn; later turns count up from it (default: random)',
      parseSeed,
    )
    .action(async (flags: McpFlags) => {
      const { runMcp } = await import('../run/mcp.ts');
      await runMcp(flags);
    });
}
