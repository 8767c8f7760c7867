// The builder's Explore route through a real HTTP server: `POST /v1/builder/explore` explores a draft in
// the checker's worker and answers the report `mnesos explore` prints (violations shrunk, coverage at
// file:line:col); the builder's bounds are taken at their limit and refused one past it; a draft that does
// not load is a 422 with its errors.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import {
  MAX_BUILDER_EXPLORE_DEPTH,
  MAX_BUILDER_EXPLORE_RUNS,
} from '../../../src/tools/authoring/builder/index.ts';
import { explore } from '../../../src/tools/authoring/index.ts';
import { KEY_A, startTestServer, type TestServer } from '../../apps/server/helpers.ts';

const KEEPER = resolve(import.meta.dirname, '../../fixtures/cartridges/explore-keeper');
const files = {
  'yare.yaml': readFileSync(join(KEEPER, 'yare.yaml'), 'utf8'),
  'bot_lore.md': readFileSync(join(KEEPER, 'bot_lore.md'), 'utf8'),
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A}`) });
});
afterAll(async () => {
  await server?.stop();
});

const post = (json: unknown) => server.json('/v1/builder/explore', { method: 'POST', json, key: KEY_A });

describe('POST /v1/builder/explore', () => {
  it('answers the report of mnesos explore for the draft: violations shrunk, coverage placed', async () => {
    const r = await post({ files, runs: 20, depth: 20, seed: 1 });
    expect(r.status).toBe(200);
    const report = r.body.report;
    expect(report.stoppedEarly).toBe(false);
    expect(new Set(report.violations.map((v: { kind: string }) => v.kind))).toEqual(
      new Set(['error', 'budget', 'invariant', 'bounds', 'note']),
    );
    expect(report.coverage.events.missed).toEqual([
      { place: { file: 'yare.yaml', line: 77, col: 3 }, what: "event 'forgotten' never run" },
    ]);
    // The same explorer as the command: the report equals one made here from the same files and seed.
    const loaded = await loadCartridge(KEEPER);
    if (!loaded.ok) throw new Error('fixture does not load');
    const local = await explore(loaded.cartridge, { runs: 20, depth: 20, seed: 1 });
    expect(report.violations.map((v: { key: string }) => v.key.replace(/^.*?yare\.yaml/, ''))).toEqual(
      local.violations.map((v) => v.key.replace(/^.*?yare\.yaml/, '')),
    );
    expect(report.violations.map((v: { steps: unknown[] }) => v.steps)).toEqual(
      local.violations.map((v) => v.steps),
    );
  });

  it('takes runs and depth at the builder’s limits and refuses one past each', async () => {
    const at = await post({
      files: {
        ...files,
        'yare.yaml': files['yare.yaml'].replace(/\n {2}ponder:[\s\S]*?(?=\n {2}forgotten:)/, ''),
      },
      runs: MAX_BUILDER_EXPLORE_RUNS,
      depth: 1,
    });
    expect(at.status).toBe(200);
    expect(at.body.report.runs).toBe(MAX_BUILDER_EXPLORE_RUNS);
    const deep = await post({ files, runs: 1, depth: MAX_BUILDER_EXPLORE_DEPTH });
    expect(deep.status).toBe(200);
    expect(deep.body.report.depth).toBe(MAX_BUILDER_EXPLORE_DEPTH);
    expect((await post({ files, runs: MAX_BUILDER_EXPLORE_RUNS + 1 })).status).toBe(400);
    expect((await post({ files, depth: MAX_BUILDER_EXPLORE_DEPTH + 1 })).status).toBe(400);
  });

  it('a draft that does not load is a 422 with its errors at file:line:col', async () => {
    const r = await post({
      files: { ...files, 'yare.yaml': files['yare.yaml'].replace('op: sub', 'op: subtract') },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('cartridge_invalid');
    expect(r.body.error.errors[0].where).toMatch(/^yare\.yaml:\d+:\d+$/);
  });
});
