// The closing line `vitest: N passed, N failed, N skipped` counts a file that failed without a failed test
// (a beforeAll that threw, a file that did not load) as failed, not its tests as skipped.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';

function runFixtures(...files: string[]): { line: string; status: number | null } {
  const result = spawnSync(
    process.execPath,
    [
      join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'test/fixtures/reporter/vitest.config.ts',
      '--reporter=./test/summary-reporter.ts',
      ...files,
    ],
    { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, CI: '' } },
  );
  const line = (result.stdout.match(/^vitest: .*$/m) ?? [''])[0];
  return { line, status: result.status };
}

describe('summary reporter', () => {
  it('a file whose beforeAll failed is one failure; its tests are not counted as skipped', () => {
    const { line, status } = runFixtures('hook-fails');
    expect(status).toBe(1);
    expect(line).toBe('vitest: 0 passed, 1 failed, 2 skipped');
  });

  it('passing and skipped tests are counted one by one', () => {
    const { line, status } = runFixtures('passes');
    expect(status).toBe(0);
    expect(line).toBe('vitest: 1 passed, 0 failed, 1 skipped');
  });
}, 120_000);
