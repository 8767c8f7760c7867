// `mnesos serve`: the refusals it reports before listening (the loopback rule, bad flags, bad keys).
// Listening itself is what every other test in this folder exercises through startServer.

import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/commands/serve.ts';
import { UserError } from '../../src/cli/user-error.ts';

async function serve(args: string[]): Promise<unknown> {
  const program = new Command('mnesos').exitOverride();
  register(program);
  try {
    await program.parseAsync(['serve', ...args], { from: 'user' });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('mnesos serve', () => {
  const saved = process.env.MNESOS_API_KEYS;
  afterEach(() => {
    if (saved === undefined) delete process.env.MNESOS_API_KEYS;
    else process.env.MNESOS_API_KEYS = saved;
  });

  it('refuses to bind beyond loopback without MNESOS_API_KEYS, saying why', async () => {
    delete process.env.MNESOS_API_KEYS;
    const error = await serve(['--host', '0.0.0.0', '--port', '0', '--db', ':memory:']);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /refusing to listen on 0\.0\.0\.0 without API keys.*MNESOS_API_KEYS/,
    );
  });

  it('a bad port is a usage error; a short key is a user error', async () => {
    const port = await serve(['--port', 'eighty']);
    expect((port as UserError).exitCode).toBe(2);
    process.env.MNESOS_API_KEYS = 'tooshort';
    const key = await serve(['--port', '0', '--db', ':memory:']);
    expect((key as Error).message).toMatch(/MNESOS_API_KEYS: .*16 characters/);
  });
});
