// `serve --workers N` and the operator limits, through the real CLI: N processes answer on one
// port and stop together on SIGTERM; limits come from flags or MNESOS_* variables, 0 turns the rate limit
// off, and a bad value is a usage error naming the flag or variable.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './helpers.ts';

const temp = tempDir();
afterAll(() => temp.cleanup());

function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'mnesos'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe('serve --workers and operator limits', () => {
  it('two workers answer on one port with no rate limit; SIGTERM stops them all', async () => {
    const cli = startCli(['serve', '--port', '0', '--workers', '2', '--rate-limit', '0', '--db', 'w.db'], {
      cwd: temp.dir,
    });
    let stdout = '';
    let stderr = '';
    cli.child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    cli.child.stderr.on('data', (chunk: Buffer | string) => {
      stderr += String(chunk);
    });
    // Workers start one after the other (the first alone); on a loaded machine that takes a while.
    const started = await Promise.race([
      cli.waitFor('with 2 workers').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 150_000)),
    ]);
    if (!started) {
      cli.child.kill('SIGKILL');
      throw new Error(`no banner after 150 s\nstdout: ${stdout}\nstderr: ${stderr}`);
    }
    const base = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).toContain('no rate limit');
    const workers = childPids(cli.child.pid!);
    expect(workers).toHaveLength(2);
    // Past the default limit of 120 a minute: nothing is refused, and no rate headers are sent.
    for (let i = 0; i < 130; i++) {
      const response = await fetch(`${base}/v1/me`);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
      await response.arrayBuffer();
    }
    cli.child.kill('SIGTERM');
    const result = await cli.done;
    expect(result.code).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  }, 180_000);

  it('refuses a bad limit or worker count, naming where it came from', async () => {
    const flag = await runCli(['serve', '--port', '0', '--rate-limit', 'lots'], { cwd: temp.dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--rate-limit must be a whole number, got 'lots'");
    const env = await runCli(['serve', '--port', '0'], {
      cwd: temp.dir,
      env: { MNESOS_TURN_TIMEOUT_MS: '-5' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('MNESOS_TURN_TIMEOUT_MS must be a whole number');
    const zero = await runCli(['serve', '--port', '0', '--turn-timeout-ms', '0'], { cwd: temp.dir });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('turnTimeoutMs must be a positive integer');
    const workers = await runCli(['serve', '--port', '0', '--workers', '65'], { cwd: temp.dir });
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain('--workers must be a whole number from 1 to 64');
  }, 120_000);
});
