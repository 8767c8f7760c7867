// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// `mnesos serve`: the refusals it reports before listening (the loopback rule, bad flags, bad keys), and
// the one flag only a real `serve` process can show: `--allow-user-base-url`, with the models configured
// from the environment. Listening itself is what every other test in this folder exercises through
// startServer.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../../src/apps/cli/commands/serve.ts';
import { UserError } from '../../../src/apps/cli/user-error.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { spawnServe } from './processes.ts';

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

async function put(url: string, json: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/v1/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: await response.json() };
}

describe('mnesos serve --allow-user-base-url', () => {
  let operator: FakeOpenAI;
  let chosen: FakeOpenAI;
  let dir: string;
  const reply = () => ({ kind: 'text', text: 'The mist holds.' }) as const;
  beforeAll(async () => {
    operator = await startFakeOpenAI(reply);
    chosen = await startFakeOpenAI(reply);
    dir = mkdtempSync(join(tmpdir(), 'mnesos-serve-flag-'));
  });
  afterAll(async () => {
    await operator.close();
    await chosen.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is off by default: a base URL is 403 while model names are kept', async () => {
    const env = { MNESOS_LLM_BASE_URL: operator.url, MNESOS_MODEL: 'operator-model' };
    const server = await spawnServe(join(dir, 'off.db'), env);
    try {
      expect(server.stdout()).not.toContain('users may choose');
      const refused = await put(server.url, { baseUrl: chosen.url });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('base_url_not_allowed');
      expect((await put(server.url, { models: { narrator: 'mine' } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('lets the user send turns to another server, built from the configured provider', async () => {
    const env = {
      MNESOS_LLM_BASE_URL: operator.url,
      MNESOS_MODEL: 'operator-model',
      MNESOS_LLM_MAX_RETRIES: '0',
    };
    const server = await spawnServe(join(dir, 'on.db'), env, 60_000, ['--allow-user-base-url']);
    try {
      expect(server.stdout()).toContain('users may choose model base URLs');
      const saved = await put(server.url, { baseUrl: chosen.url, models: { narrator: 'chosen-narrator' } });
      expect(saved.status).toBe(200);
      expect(saved.body.server.models.director).toBe('operator-model');
      const created = await fetch(`${server.url}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cartridge: 'Lanternmere' }),
      });
      const { session } = (await created.json()) as { session: { id: string } };
      const played = await fetch(`${server.url}/v1/sessions/${session.id}/turns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'I wait' }),
      });
      expect(played.status).toBe(201);
      expect(operator.chatRequests()).toHaveLength(0);
      expect(chosen.chatRequests().map((b) => b.model)).toContain('chosen-narrator');
    } finally {
      await server.stop();
    }
  });
});
