// The explorer inside turns: time passing (a /wait turn) runs the cycle ticks and a mini-game result runs
// its resolver, both as offline turns; what fails there is a violation, shrunk like any other, and the
// scenario written for it (a `minigame:` or `turn:` step, `not_refused:` for a tick) fails under the
// scenario runner of `mnesos test` while the bug is there.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { explore, failureFileName, runSuite, violationScenario } from '../../../src/tools/authoring/index.ts';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/cartridges/explore-turns');
const work = mkdtempSync(join(tmpdir(), 'mnesos-explore-turns-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function load(dir: string): Promise<Cartridge> {
  const result = await loadCartridge(dir);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.cartridge;
}

describe('explore: ticks and resolvers inside turns', async () => {
  const cartridge = await load(FIXTURE);
  const report = await explore(cartridge, { runs: 30, depth: 20, seed: 1 });
  const tick = report.violations.find((v) => v.event === 'tick')!;
  const resolver = report.violations.find((v) => v.code === 'TURN_INTERACTION')!;

  it('a cycle tick that fails when time passes is a violation found in a turn', () => {
    expect(tick).toMatchObject({ kind: 'error', code: 'YARE_ZERO_DIVISION', inTurn: true });
    const kinds = tick.steps.map((s) => (s.kind === 'event' ? s.event : s.kind));
    expect(kinds.filter((k) => k === 'count')).toHaveLength(3);
    expect(['wait', 'minigame']).toContain(kinds.at(-1));
  });

  it('a resolver that fails refuses the mini-game result: shrunk to starting it and giving up', () => {
    expect(resolver.kind).toBe('error');
    expect(resolver.message).toContain("resolver_event 'resolve_lamps' failed (YARE_ZERO_DIVISION)");
    expect(resolver.steps).toHaveLength(2);
    expect(resolver.steps[0]).toMatchObject({ kind: 'event', event: 'start_lamps' });
    expect(resolver.steps[1]).toMatchObject({
      kind: 'minigame',
      result: { minigame_id: 'lights_out', status: 'aborted' },
    });
  });

  it('the written scenarios fail under mnesos test’s runner; a fixed tick makes its scenario pass', async () => {
    const copy = join(work, 'turns');
    cpSync(FIXTURE, copy, { recursive: true });
    mkdirSync(join(copy, 'tests'));
    for (const [i, v] of report.violations.entries())
      writeFileSync(
        join(copy, 'tests', failureFileName(i, v)),
        violationScenario(cartridge.rules, report, v, undefined),
      );
    const suite = await runSuite(copy, await load(copy), {});
    expect(suite.fileErrors).toEqual([]);
    expect(suite.cases).toHaveLength(report.violations.length);
    for (const c of suite.cases) expect(c.failures.length).toBeGreaterThan(0);
    const tickCase = suite.cases.find((c) => c.file.includes('tick'))!;
    expect(tickCase.failures.map((f) => f.message).join('\n')).toContain(
      "'tick' was refused with YARE_ZERO_DIVISION",
    );

    const yare = join(copy, 'yare.yaml');
    const { readFileSync } = await import('node:fs');
    writeFileSync(
      yare,
      readFileSync(yare, 'utf8').replace('"@ 10 // (state.counter - 3)"', '"@ 10 // (state.counter + 1)"'),
    );
    const fixed = await runSuite(copy, await load(copy), { filter: 'tick' });
    expect(fixed.cases).toHaveLength(1);
    expect(fixed.cases[0]!.failures).toEqual([]);
  });
});
