// `mnesos validate` per DESIGN.md's command-line contract, run through commander in-process.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/apps/cli/commands/validate.ts';
import { MINIMAL_LORE, MINIMAL_YARE } from './helpers.ts';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mnesos-validate-test-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function folder(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(base, name);
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
  return dir;
}

async function run(
  args: string[],
): Promise<{ stdout: string; stderr: string; exitCode: number | undefined }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  const program = new Command('mnesos').exitOverride();
  register(program);
  try {
    await program.parseAsync(['validate', ...args], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  const code = process.exitCode;
  return {
    stdout: out.join(''),
    stderr: err.join(''),
    exitCode: typeof code === 'number' ? code : undefined,
  };
}

describe('mnesos validate', () => {
  it('exit 0 for a valid cartridge, with its warnings and an ok line', async () => {
    const dir = await folder('valid', {
      'yare.yaml': `${MINIMAL_YARE}evnets: {}\n`,
      'bot_lore.md': MINIMAL_LORE,
    });
    const r = await run([dir]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `${join(dir, 'yare.yaml')}:2:1: warning: Unknown top-level key 'evnets' in yare.yaml is ignored. Did you mean \`events\`? [YARE_UNKNOWN_KEY]`,
    );
    expect(lines[1]).toBe('ok: valid (0 events, 1 warning)');
  });

  it('exit 1 and one file:line:col: message line per error', async () => {
    const dir = await folder('broken', {
      'yare.yaml': 'version: "1.0"\nprompt_directives: {}\n',
      'bot_lore.md': MINIMAL_LORE,
      'prompt_directives.yaml': 'narator: x\n',
    });
    const r = await run([dir]);
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${escapeRegExp(join(dir, 'prompt_directives.yaml'))}:1:1: Unknown directive 'narator'.*\\[CART_UNKNOWN_DIRECTIVE\\]$`,
      ),
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${escapeRegExp(join(dir, 'yare.yaml'))}:2:1: 'prompt_directives' must live`),
    );
    expect(r.stderr).toBe('2 errors\n');
  });

  it('--json for an invalid cartridge', async () => {
    const dir = await folder('broken-json', { 'yare.yaml': 'a: 1\na: 2\n' });
    const r = await run([dir, '--json']);
    expect(r.exitCode).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body.ok).toBe(false);
    expect(body.warnings).toEqual([]);
    expect(body.errors).toEqual([
      {
        file: join(dir, 'bot_lore.md'),
        line: 1,
        col: 1,
        code: 'CART_FILE_MISSING',
        message: expect.stringMatching(/^bot_lore\.md not found/),
      },
      {
        file: join(dir, 'yare.yaml'),
        line: 2,
        col: 1,
        code: 'CART_DUPLICATE_KEY',
        message: expect.stringContaining('"a"'),
      },
    ]);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--json for a valid cartridge', async () => {
    const dir = await folder('valid-json', { 'yare.yaml': MINIMAL_YARE, 'bot_lore.md': MINIMAL_LORE });
    const r = await run([dir, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('a folder that does not exist is a user error with a place, also in JSON', async () => {
    const missing = join(base, 'no-such-cartridge');
    const r = await run([missing, '--json']);
    expect(r.exitCode).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body.errors[0]).toMatchObject({ file: missing, line: 1, col: 1, code: 'CART_NOT_FOUND' });
  });

  it('a missing argument is a usage error from commander', async () => {
    await expect(run([])).rejects.toMatchObject({ code: 'commander.missingArgument' });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
