// The shipped cartridge's own scenario suite passes and runs every one of its events.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../../src/tools/authoring/suite.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import { ROOT } from '../../apps/cli/helpers.ts';

describe('cartridges/lanternmere/tests', () => {
  it('passes, and covers every event', async () => {
    const dir = join(ROOT, 'cartridges', 'lanternmere');
    const loaded = await loadCartridge(dir);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const result = await runSuite(dir, loaded.cartridge);
    expect(result.fileErrors).toEqual([]);
    expect(result.cases.filter((c) => c.failures.length > 0).map((c) => [c.name, c.failures])).toEqual([]);
    expect(result.cases.length).toBeGreaterThanOrEqual(30);
    expect(result.cases.some((c) => c.kind === 'property')).toBe(true);
    expect(result.cases.filter((c) => c.transcriptStatus === 'match')).toHaveLength(1);
    expect(result.eventsNotRun).toEqual([]);
    expect(loaded.cartridge.rules.eventNames.length).toBeGreaterThanOrEqual(15);
  });
});
