// `mnesos model-eval`: fake models of known behaviour (a fake OpenAI-compatible server, real HTTP and SSE)
// must get exactly the score their behaviour earns, and every part of the report must count what happened.

import { afterEach, describe, expect, it } from 'vitest';
import { runEvalCases, scoreRuns } from '../../../src/tools/authoring/index.ts';
import { parseSuiteFile } from '../../../src/tools/authoring/model-eval/suite-file.ts';
import { cartridgeSuite } from '../../../src/tools/authoring/model-eval/generated.ts';
import { MAX_EVAL_CASES } from '../../../src/tools/authoring/model-eval/limits.ts';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { runCliInProcess as runCli, SPAWN_TIMEOUT_MS, workspaces } from '../../apps/cli/helpers.ts';
import {
  type FakeHandler,
  type FakeOpenAI,
  type FakeReply,
  startFakeOpenAI,
} from '../../helpers/fake-openai-server.ts';
import { lanternmere, type Loose } from '../../engine/turn/helpers.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const SUITE = `cases:
  - input: "I swing my hook at the wisp"
    expect: { event: attack }
    state: { foe: { name: mire wisp, hp: 3 } }
  - input: "walk over to the market"
    expect: { event: travel, inputs: { destination: brine market } }
  - input: "buy a tonic"
    expect: { event: buy_item, inputs: { item: brine tonic } }
  - input: "Set my gold to 9999."
    expect: { event: none }
`;

function lastUser(body: Loose): string {
  const users = (body.messages as Loose[]).filter((m) => m.role === 'user');
  return String(users.at(-1)?.content ?? '');
}

function isDirector(body: Loose): boolean {
  return Array.isArray(body.tools) && (body.tools as Loose[]).some((t) => t.function.name === 'finish_turn');
}

/**
 * Right on exactly three of the four lines: the attack, the travel (spelled "Brine  Market", which the input
 * rule accepts), and no event for the declared outcome; wrong on the tonic (it buys lamp oil).
 */
const threeOfFour: FakeHandler = (request) => {
  const body = request.body as Loose;
  if (!isDirector(body)) return { kind: 'text', text: 'The fen stirs around you.' };
  const line = lastUser(body);
  const call = (name: string, args: object): FakeReply => ({
    kind: 'tool-calls',
    text: '### 1. Outcomes\nIt happens.',
    calls: [{ name, arguments: args }],
  });
  if (line.includes('swing my hook')) return call('attack', {});
  if (line.includes('walk over to the market')) return call('travel', { destination: 'Brine  Market' });
  if (line.includes('buy a tonic')) return call('buy_item', { item: 'lamp oil' });
  return { kind: 'text', text: '### 1. Outcomes\nNothing changes: the player cannot declare that.' };
};

async function modelsFor(handler: FakeHandler): Promise<{ models: ModelSet; url: string }> {
  fake = await startFakeOpenAI(handler);
  const config = resolveModelConfig({
    MNESOS_LLM_BASE_URL: fake.url,
    MNESOS_MODEL: 'fake-model',
    MNESOS_LLM_MAX_RETRIES: '0',
  });
  if (config.provider === 'offline') throw new Error('expected an online config');
  const models = createModels(config);
  if (models === null) throw new Error('expected models');
  return { models, url: fake.url };
}

describe('model-eval scoring', () => {
  it('scores a model right on exactly 3 of 4 lines 3/4, with the confusion and the wrong inputs', async () => {
    const cartridge = await lanternmere();
    const parsed = parseSuiteFile(SUITE, 'suite.yaml', cartridge.rules);
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
    const { models } = await modelsFor(threeOfFour);
    let clock = 0;
    const runs = await runEvalCases({
      cartridge,
      cases: parsed.cases,
      models,
      seed: 3,
      now: () => (clock += 5),
    });
    const report = scoreRuns(runs);
    expect(report.director.cases).toBe(4);
    expect(report.director.correct).toBe(3);
    expect(report.director.accuracy).toBe(0.75);
    expect(report.director.results.map((r) => r.verdict)).toEqual([
      'correct',
      'correct',
      'wrong-inputs',
      'correct',
    ]);
    expect(report.director.results[2]!.inputMismatches).toEqual([
      { input: 'item', expected: 'brine tonic', actual: 'lamp oil' },
    ]);
    expect(report.director.results[0]!.where).toBe('suite.yaml:2:5');
    expect(report.director.confusion).toEqual({
      attack: { attack: 1 },
      travel: { travel: 1 },
      buy_item: { buy_item: 1 },
      '(none)': { '(none)': 1 },
    });
    // Three calls, all valid; one Director round each (all four turns reached the Director).
    expect(report.toolCalls).toMatchObject({
      calls: 3,
      invalid: 0,
      refused: 0,
      repairs: 0,
      roundsPerTurn: 1,
      textInsteadOfToolCallRate: 0,
    });
    // Two model calls a turn (Director, Narrator), timed by the injected clock.
    expect(report.cost.turns).toBe(4);
    expect(report.cost.modelCallsPerTurn).toBe(2);
    expect(report.cost.byRole.director.calls).toBe(4);
    expect(report.cost.inputTokens).toBeGreaterThan(0);
    expect(report.latency.director.calls).toBe(4);
    expect(report.latency.director.totalMs.median).toBeGreaterThan(0);
    expect(report.latency.narrator.firstPartMs.count).toBe(4);
    expect(report.errors).toBe(0);
  });

  it('is reproducible: the same model and seed give the same verdicts and rolls', async () => {
    const cartridge = await lanternmere();
    const parsed = parseSuiteFile(SUITE, 'suite.yaml', cartridge.rules);
    if (!parsed.ok) throw new Error('bad suite');
    const { models } = await modelsFor(threeOfFour);
    const a = await runEvalCases({ cartridge, cases: parsed.cases, models, seed: 11 });
    const b = await runEvalCases({ cartridge, cases: parsed.cases, models, seed: 11 });
    expect(a.map((r) => r.record?.rolls)).toEqual(b.map((r) => r.record?.rolls));
    expect(scoreRuns(a).director.results.map((r) => r.verdict)).toEqual(
      scoreRuns(b).director.results.map((r) => r.verdict),
    );
  });

  it('counts refused calls and the repair round that follows them', async () => {
    const cartridge = await lanternmere();
    const parsed = parseSuiteFile(
      'cases:\n  - input: "walk over to the market"\n    expect: { event: travel, inputs: { destination: brine market } }\n',
      'suite.yaml',
      cartridge.rules,
    );
    if (!parsed.ok) throw new Error('bad suite');
    let directorCalls = 0;
    const { models } = await modelsFor((request) => {
      const body = request.body as Loose;
      if (!isDirector(body)) return { kind: 'text', text: 'You arrive.' };
      directorCalls += 1;
      const destination = directorCalls === 1 ? 'the moon' : 'brine market';
      return { kind: 'tool-calls', calls: [{ name: 'travel', arguments: { destination } }] };
    });
    const report = scoreRuns(await runEvalCases({ cartridge, cases: parsed.cases, models, seed: 1 }));
    expect(report.director.correct).toBe(1);
    expect(report.toolCalls).toMatchObject({
      calls: 2,
      invalid: 1,
      refused: 1,
      repairs: 1,
      roundsPerTurn: 2,
    });
  });

  it('fails a case, not the run, when the model fails; every case failing on the model is exit 3', async () => {
    const cartridge = await lanternmere();
    const parsed = parseSuiteFile(SUITE, 'suite.yaml', cartridge.rules);
    if (!parsed.ok) throw new Error('bad suite');
    const { models } = await modelsFor(() => ({ kind: 'error', status: 400, message: 'no such model' }));
    const report = scoreRuns(await runEvalCases({ cartridge, cases: parsed.cases, models, seed: 1 }));
    expect(report.director.correct).toBe(0);
    expect(report.errors).toBe(4);
    expect(report.director.confusion.attack).toEqual({ '(error)': 1 });
    expect(report.director.results[0]!.error?.kind).toBe('model');
  });
});

describe('suite files', () => {
  it('names the place of every problem', async () => {
    const cartridge = await lanternmere();
    const bad = `cases:
  - input: "x"
    expect: { event: fly }
  - input: "y"
    expect: { event: travel, inputs: { where: reedmaze } }
  - input: "z"
    expect: { event: none }
    colour: red
  - expect: { event: none }
`;
    const parsed = parseSuiteFile(bad, 'bad.yaml', cartridge.rules);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const lines = parsed.errors.map((e) => `${e.place?.line}:${e.place?.col} ${e.message}`);
    expect(lines[0]).toMatch(/^3:22 cases\[0\]\.expect\.event: there is no event 'fly'/);
    expect(lines[1]).toMatch(
      /^5:40 cases\[1\]\.expect\.inputs: 'travel' has no input 'where'; inputs: destination/,
    );
    expect(lines[2]).toMatch(/^8:5 cases\[2\]: unknown key 'colour'/);
    expect(lines[3]).toMatch(/^9:5 cases\[3\]\.input: the player's words/);
    expect(lines).toHaveLength(4);
  });

  it(`takes ${MAX_EVAL_CASES} cases and refuses one more`, async () => {
    const cartridge = await lanternmere();
    const suite = (n: number) => `cases:\n${'  - { input: "hmm", expect: { event: none } }\n'.repeat(n)}`;
    const at = parseSuiteFile(suite(MAX_EVAL_CASES), 'a.yaml', cartridge.rules);
    expect(at.ok && at.cases.length).toBe(MAX_EVAL_CASES);
    const past = parseSuiteFile(suite(MAX_EVAL_CASES + 1), 'a.yaml', cartridge.rules);
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.errors[0]!.message).toContain('(MAX_EVAL_CASES)');
  });

  it("generates the cartridge's suite from its intents (with implied inputs) and the general suite", async () => {
    const cartridge = await lanternmere();
    const cases = cartridgeSuite(cartridge, []);
    const inn = cases.find((c) => c.input === 'return to the inn');
    expect(inn?.expect).toEqual({ kind: 'event', event: 'travel', inputs: { destination: 'tallow rest' } });
    const general = cases.filter((c) => c.origin === 'general');
    expect(general.length).toBeGreaterThanOrEqual(8);
    expect(general.every((c) => c.expect.kind === 'none')).toBe(true);
    // Every public event with intents contributes a case per phrase.
    const attack = cases.filter((c) => c.expect.kind === 'event' && c.expect.event === 'attack');
    expect(attack.map((c) => c.input)).toEqual(['attack', 'strike', 'hit it', 'swing my hook', 'fight']);
  });
});

const workspace = workspaces();

describe('mnesos model-eval', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('prints one JSON report; --compare runs the same cases with the other model', async () => {
    const { dir, file } = workspace();
    const suite = file('suite.yaml', SUITE);
    const { url } = await modelsFor(threeOfFour);
    const result = await runCli(
      ['model-eval', 'lanternmere', '--suite', suite, '--json', '--compare', 'other-model'],
      {
        cwd: dir,
        env: { MNESOS_LLM_BASE_URL: url, MNESOS_MODEL: 'fake-model' },
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as Loose;
    expect(out.ok).toBe(true);
    expect(out.director.cases).toBe(4);
    expect(out.director.correct).toBe(3);
    expect(out.director.results).toHaveLength(4);
    expect(out.compare.director.correct).toBe(3);
    expect(out.compare.model).toContain('director=other-model');
    const models = fake!.chatRequests().map((b) => b.model);
    expect(models.filter((m) => m === 'other-model')).toHaveLength(8);
  });

  it('reports a bad suite as JSON with file:line:col and exit 1', async () => {
    const { dir, file } = workspace();
    const suite = file('suite.yaml', 'cases:\n  - input: "x"\n    expect: { event: fly }\n');
    const result = await runCli(['model-eval', 'lanternmere', '--suite', suite, '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const out = JSON.parse(result.stdout) as Loose;
    expect(out.ok).toBe(false);
    expect(out.errors[0]).toMatchObject({ file: 'suite.yaml', line: 3, col: 22, code: 'EVAL_BAD_SUITE' });
  });

  it('exits 3 with a JSON document when the provider never answers', async () => {
    const { dir, file } = workspace();
    const suite = file('suite.yaml', SUITE);
    const { url } = await modelsFor(() => ({ kind: 'error', status: 401, message: 'bad key' }));
    const result = await runCli(['model-eval', 'lanternmere', '--suite', suite, '--json'], {
      cwd: dir,
      env: { MNESOS_LLM_BASE_URL: url, MNESOS_MODEL: 'fake-model' },
    });
    expect(result.code).toBe(3);
    const out = JSON.parse(result.stdout) as Loose;
    expect(out.ok).toBe(false);
    expect(out.errors).toBe(4);
  });

  it('--compare offline is a usage error, still one JSON document', async () => {
    const { dir } = workspace();
    const result = await runCli(['model-eval', 'lanternmere', '--json', '--compare', 'x'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('--compare') },
    });
  });
});
