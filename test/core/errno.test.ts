// Catches that name what they expect: "no such file" is told apart from a permission failure, and anything
// that is not a file-system error is rethrown as itself (config files, script files, cartridge folders).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Permissions do not stop root, so failures are injected at `stat`/`statSync` for chosen paths.
const failures = new Map<string, unknown>();
function failureFor(path: unknown): unknown {
  return typeof path === 'string' ? failures.get(path) : undefined;
}
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    statSync: ((path: string, ...rest: unknown[]) => {
      const failure = failureFor(path);
      if (failure !== undefined) throw failure;
      return (actual.statSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof actual.statSync,
  };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    stat: async (path: string) => {
      const failure = failureFor(path);
      if (failure !== undefined) throw failure;
      return actual.stat(path);
    },
  };
});

const { errnoCode, isNotFound } = await import('../../src/core/errno.ts');
const { readModelConfigFile } = await import('../../src/adapters/llm/config.ts');
const { loadModelScript } = await import('../../src/adapters/llm/script.ts');
const { readCartridgeFolder } = await import('../../src/adapters/files/cartridge-folder.ts');

const eacces = (path: string) =>
  Object.assign(new Error(`EACCES: permission denied, stat '${path}'`), {
    code: 'EACCES',
    syscall: 'stat',
    path,
  });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mnesos-errno-'));
});
afterAll(async () => {
  failures.clear();
  await rm(dir, { recursive: true, force: true });
});

describe('errnoCode and isNotFound', () => {
  it('read the code of a system error only', () => {
    expect(errnoCode(eacces('/x'))).toBe('EACCES');
    expect(errnoCode(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBeUndefined();
    expect(errnoCode(new TypeError('x'))).toBeUndefined();
    expect(errnoCode('ENOENT')).toBeUndefined();
    expect(isNotFound(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(true);
    expect(isNotFound(Object.assign(new Error('x'), { code: 'ENOTDIR' }))).toBe(true);
    expect(isNotFound(eacces('/x'))).toBe(false);
  });
});

describe('a config or script file that cannot be read is not "not found"', () => {
  it('missing: not found', () => {
    expect(() => readModelConfigFile(join(dir, 'missing.yaml'))).toThrow(/config file not found/);
    expect(() => loadModelScript(join(dir, 'missing.json'))).toThrow(/script file not found/);
  });

  it('EACCES: cannot be read, with the code', () => {
    const config = join(dir, 'locked.yaml');
    const script = join(dir, 'locked.json');
    failures.set(config, eacces(config));
    failures.set(script, eacces(script));
    expect(() => readModelConfigFile(config)).toThrow(`${config}: config file cannot be read (EACCES)`);
    expect(() => loadModelScript(script)).toThrow(`${script}: script file cannot be read (EACCES)`);
  });

  it('anything else is rethrown as itself', () => {
    const path = join(dir, 'bug.yaml');
    const bug = new TypeError('not a file-system error');
    failures.set(path, bug);
    expect(() => readModelConfigFile(path)).toThrow(bug);
  });
});

describe('a cartridge folder that cannot be read', () => {
  it('is CART_FILE_UNREADABLE naming the code, not CART_NOT_FOUND', async () => {
    const folder = join(dir, 'locked-cartridge');
    failures.set(folder, eacces(folder));
    const r = await readCartridgeFolder(folder);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.code)).toEqual(['CART_FILE_UNREADABLE']);
      expect(r.errors[0]!.message).toContain('(EACCES)');
    }
  });

  it('a missing one is CART_NOT_FOUND', async () => {
    const r = await readCartridgeFolder(join(dir, 'nowhere'));
    expect(!r.ok && r.errors.map((e) => e.code)).toEqual(['CART_NOT_FOUND']);
  });

  it('a failure that is not a file-system error is thrown as itself', async () => {
    const folder = join(dir, 'bug-cartridge');
    const bug = new RangeError('engine bug');
    failures.set(folder, bug);
    await expect(readCartridgeFolder(folder)).rejects.toBe(bug);
  });
});
