// Failures a user can cause, as a user sees them: the real `mnesos` process prints one or two lines that say
// what is wrong and what to do, exits with the contract's code, and prints no stack trace (no `    at `
// line) unless asked with --debug or MNESOS_DEBUG=1. Also: output cut short by the reader stops quietly,
// Ctrl-C stops `serve` cleanly, and --version prints the package's version.

import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import { postgresAvailable, testPgUrl } from '../../adapters/store/harness.ts';
import {
  CLI,
  type CliResult,
  closedPort,
  ROOT,
  runCli,
  SPAWN_TIMEOUT_MS,
  startCli,
  useCompiledCli,
  workspaces,
} from './helpers.ts';

useCompiledCli();
const workspace = workspaces();
const STACK_LINE = /^ {4}at /m;

/** The common shape of every case: the exit code, a message, and no stack trace anywhere. */
function expectCleanFailure(result: CliResult, code: number, message: RegExp): void {
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(STACK_LINE);
  expect(result.stdout).not.toMatch(STACK_LINE);
  expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  expect(result.code).toBe(code);
}

/** The given PostgreSQL URL with its user, password or database replaced. */
function pgUrlWith(change: (url: URL) => void): string {
  const url = new URL(testPgUrl());
  change(url);
  return url.toString();
}

describe('failures a user can cause print no stack trace', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let holder: Server;
  let heldPort: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    heldPort = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('serve on a port in use: says so and how to choose another (exit 1)', async () => {
    const { dir } = workspace();
    const result = await runCli(['serve', '--port', String(heldPort), '--db', join(dir, 'a.db')], {
      cwd: dir,
    });
    expectCleanFailure(
      result,
      1,
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${heldPort}: the port is already in use.*--port`),
    );
  });

  it('PostgreSQL with nothing listening: connection refused, names the database without its password', async () => {
    const { dir } = workspace();
    const port = await closedPort();
    const url = `postgres://someone:secret-word@127.0.0.1:${port}/game`;
    const result = await runCli(['session', 'verify', 'x', '--db', url], { cwd: dir });
    expectCleanFailure(
      result,
      1,
      new RegExp(`PostgreSQL at postgres://someone@127\\.0\\.0\\.1:${port}/game: connection refused`),
    );
    expect(result.stderr).not.toContain('secret-word');
  });

  it('an SQLite path whose folder cannot be created: names the path and the reason', async () => {
    const { dir, file } = workspace();
    const blocker = file('not-a-folder', 'a file where a folder should be');
    const result = await runCli(['session', 'verify', 'x', '--db', join(blocker, 'sub', 'm.db')], {
      cwd: dir,
    });
    expectCleanFailure(
      result,
      1,
      /cannot use the SQLite database .*not-a-folder\/sub\/m\.db: .*not a folder.*--db/,
    );
  });

  it.each([
    ['a path under /proc', () => '/proc/nope/x.db', /under \/proc, the system's own pseudo-files/],
    ['a path under /sys', () => '/sys/x.db', /under \/sys/],
    ['a device', () => '/dev/null', /under \/dev/],
    [
      'a named pipe',
      (dir: string) => {
        const fifo = join(dir, 'pipe.db');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      /is a named pipe \(FIFO\), not a file/,
    ],
    [
      'a folder',
      (dir: string) => {
        mkdirSync(join(dir, 'folder.db'));
        return join(dir, 'folder.db');
      },
      /is a folder, not a file/,
    ],
  ])(
    'an SQLite path that cannot be a database (%s) is refused at once, by name',
    async (_name, pathOf, reason) => {
      const { dir } = workspace();
      const path = pathOf(dir);
      for (const command of [
        ['session', 'verify', 'x'],
        ['serve', '--port', '0'],
      ]) {
        const result = await runCli([...command, '--db', path], { cwd: dir });
        expectCleanFailure(
          result,
          1,
          new RegExp(`cannot use the SQLite database ${path.replace(/[.]/g, '\\.')}: .*${reason.source}`),
        );
      }
    },
  );

  it('an SQLite path in a read-only folder: names the path and the reason', async () => {
    const { dir } = workspace();
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly);
    chmodSync(dir, 0o755);
    chmodSync(readOnly, 0o555);
    // Permissions do not bind root: as root, run the CLI without the capabilities that override them
    // (util-linux `setpriv`). Not as another user: a checkout in a private folder (mktemp -d) is not
    // readable by one.
    const args = [CLI, 'session', 'verify', 'x', '--db', join(readOnly, 'm.db')];
    const [command, argv] =
      process.getuid?.() === 0
        ? [
            'setpriv',
            [
              '--inh-caps=-all',
              '--bounding-set=-dac_override,-dac_read_search',
              '--',
              process.execPath,
              ...args,
            ],
          ]
        : [process.execPath, args];
    const result = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expectCleanFailure(
      result,
      1,
      /cannot use the SQLite database .*read-only\/m\.db: .*(read-only|permission|writable)/,
    );
  });

  it('a cartridge path that is a file: says to give the folder (exit 1)', async () => {
    const { dir, file } = workspace();
    const yaml = file('yare.yaml', 'version: "1.0"\n');
    const result = await runCli(['run-event', yaml, 'anything'], { cwd: dir });
    expectCleanFailure(result, 1, /'.*yare\.yaml' is a file, not a cartridge folder: give the folder/);
  });

  it('an unknown shipped cartridge name: lists the shipped ones, whatever their rules file (play, run-event, validate)', async () => {
    const { dir } = workspace();
    for (const args of [
      ['play', 'atlantis'],
      ['run-event', 'atlantis', 'x'],
      ['validate', 'atlantis'],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expectCleanFailure(
        result,
        1,
        // ember-toll's rules are yare.ts, lanternmere's yare.yaml.
        /No cartridge folder at 'atlantis', and no shipped cartridge of that name\. Shipped cartridges: ember-toll, lanternmere\./,
      );
    }
  });

  it('--debug and MNESOS_DEBUG=1 add the stack trace', async () => {
    const { dir, file } = workspace();
    const yaml = file('yare.yaml', 'version: "1.0"\n');
    const flag = await runCli(['--debug', 'run-event', yaml, 'x'], { cwd: dir });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/is a file, not a cartridge folder/);
    expect(flag.stderr).toMatch(STACK_LINE);
    const env = await runCli(['run-event', yaml, 'x'], { cwd: dir, env: { MNESOS_DEBUG: '1' } });
    expect(env.stderr).toMatch(STACK_LINE);
  });

  it('stdout closed by its reader (`mnesos … | head`): stops quietly with exit 0', async () => {
    const { dir } = workspace();
    const running = startCli(['run-event', 'lanternmere', 'explore_fen', '--json'], { cwd: dir });
    running.child.stdin.end();
    // The reader goes away before the command writes its first byte: every write meets a closed pipe.
    running.child.stdout.destroy();
    const result = await running.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('--version prints the version of the package', async () => {
    const { dir } = workspace();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { cwd: dir });
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('Ctrl-C stops serve cleanly', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('SIGINT: exit 0, no stack trace, and the database it leaves opens and is complete', async () => {
    const { dir } = workspace();
    const db = join(dir, 'served.db');
    const server = startCli(['serve', '--port', '0', '--db', db], { cwd: dir });
    await server.waitFor('listening on');
    server.child.kill('SIGINT');
    const result = await server.done;
    const address = /listening on (http:\/\/\S+)/.exec(result.stdout)?.[1];
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(STACK_LINE);
    const store = await openStore(db);
    try {
      expect(await store.schemaVersion()).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});

const pgUp = await postgresAvailable('PostgreSQL failures as the CLI reports them');

describe.skipIf(!pgUp)('PostgreSQL refusals print no stack trace', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('a wrong password: says the password was refused (exit 1)', async () => {
    const { dir } = workspace();
    const url = pgUrlWith((u) => {
      u.password = 'not-the-password';
    });
    const result = await runCli(['session', 'verify', 'x', '--db', url], { cwd: dir });
    expectCleanFailure(result, 1, /PostgreSQL at postgres:\/\/.*: the password was refused for that user/);
    expect(result.stderr).not.toContain('not-the-password');
  });

  it('an unknown database: says it does not exist and how to create it (exit 1)', async () => {
    const { dir } = workspace();
    const url = pgUrlWith((u) => {
      u.pathname = '/mnesos_no_such_database';
    });
    const result = await runCli(['session', 'verify', 'x', '--db', url], { cwd: dir });
    expectCleanFailure(
      result,
      1,
      /PostgreSQL at postgres:\/\/.*\/mnesos_no_such_database: the database does not exist\. Create it \(createdb mnesos_no_such_database\)/,
    );
  });
});

describe('the failure text itself', () => {
  it('says a bug is one, with a hint instead of a stack; a refusal from below is printed as it is', async () => {
    const { describeFailure } = await import('../../../src/apps/cli/program.ts');
    const bug = describeFailure(new TypeError('x is not a function'), false);
    expect(bug.text).toBe(
      'mnesos: unexpected error: x is not a function\n(run again with --debug or MNESOS_DEBUG=1 for the stack trace, and report it)\n',
    );
    expect(bug.exitCode).toBe(1);
    expect(describeFailure(new TypeError('x is not a function'), true).text).toMatch(STACK_LINE);
    const refused = Object.assign(new Error('cannot listen on h:1: the port is already in use.'), {
      name: 'StartRefused',
    });
    expect(describeFailure(refused, false)).toEqual({
      text: 'cannot listen on h:1: the port is already in use.\n',
      exitCode: 1,
    });
  });
});
