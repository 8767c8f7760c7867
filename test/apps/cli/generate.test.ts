// `mnesos generate` as a user runs it: with a scripted model (three known errors, then the repair), with
// the fake OpenAI-compatible server over real HTTP, with no model configured (refused, exit 1), with a
// failing provider (exit 3, nothing written), and into a folder that already holds files (refused).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { FIRST_ANSWER, FIXED_YARE, LORE, REPAIR_ANSWER } from '../../tools/authoring/builder/drafts.ts';
import { runCli, SPAWN_TIMEOUT_MS, workspaces } from './helpers.ts';

const workspace = workspaces();
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('mnesos generate', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('with a scripted model: three errors, repaired, a valid folder and its transcript; it then validates', async () => {
    const { dir, file } = workspace();
    const script = file(
      'script.json',
      JSON.stringify({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] }),
    );
    const result = await runCli(
      ['generate', 'A mill pond with a swim and a wheel puzzle.', 'mill', '--llm-script', script],
      {
        cwd: dir,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'ok: wrote mill (valid after 2 rounds; the transcript is generation-transcript.md).',
    );
    // Progress, round by round, on stderr.
    expect(result.stderr).toContain('round 1: the model drafts the cartridge…');
    expect(result.stderr).toContain('round 1: 3 error(s), first: yare.yaml:15:14:');
    expect(result.stderr).toContain('round 2: the model repairs 3 error(s)…');
    expect(result.stderr).toContain('round 2: valid');
    const folder = join(dir, 'mill');
    expect(readFileSync(join(folder, 'yare.yaml'), 'utf8')).toBe(FIXED_YARE);
    expect(readFileSync(join(folder, 'bot_lore.md'), 'utf8')).toBe(LORE);
    expect(readFileSync(join(folder, 'generation-transcript.md'), 'utf8')).toContain('## Round 2 (repair)');
    const transcript = JSON.parse(readFileSync(join(folder, 'generation-transcript.json'), 'utf8'));
    expect(transcript.rounds.map((r: { errors: unknown[] }) => r.errors.length)).toEqual([3, 0]);
    const validate = await runCli(['validate', 'mill'], { cwd: dir });
    expect(validate.code).toBe(0);
  });

  it('against the fake OpenAI-compatible server (real HTTP): the repair request carries the errors', async () => {
    const { dir } = workspace();
    fake = await startFakeOpenAI([
      { kind: 'text', text: FIRST_ANSWER },
      { kind: 'text', text: REPAIR_ANSWER },
    ]);
    const result = await runCli(['generate', 'A mill pond.', 'pond', '--json'], {
      cwd: dir,
      env: { MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'fake-model' },
    });
    expect(result.stderr).toContain('round 2: valid');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, rounds: 2, errors: [] });
    const requests = fake.chatRequests();
    expect(requests).toHaveLength(2);
    const lastMessage = JSON.stringify((requests[1]?.messages as unknown[] | undefined)?.at(-1));
    expect(lastMessage).toContain('yare.yaml:16:13');
    expect(lastMessage).toContain('CART_MINIGAME_CONFIG');
  });

  it('refuses with exit 1 and says how to configure a model when none is configured', async () => {
    const { dir } = workspace();
    const result = await runCli(['generate', 'A mill pond.', 'pond'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No model is configured, and generating a cartridge needs one.');
    expect(result.stderr).toContain('MNESOS_LLM_BASE_URL');
    expect(existsSync(join(dir, 'pond'))).toBe(false);
  });

  it('exit 3 when the provider fails, and nothing is written', async () => {
    const { dir } = workspace();
    fake = await startFakeOpenAI([{ kind: 'error', status: 500, message: 'the model is down' }]);
    const result = await runCli(['generate', 'A mill pond.', 'pond'], {
      cwd: dir,
      env: { MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'fake-model', MNESOS_LLM_MAX_RETRIES: '0' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('The model failed after 0 finished round(s)');
    expect(existsSync(join(dir, 'pond'))).toBe(false);
  });

  it('an invalid draft after the last round is written with its errors, exit 1', async () => {
    const { dir, file } = workspace();
    const script = file('script.json', JSON.stringify({ director: [{ text: FIRST_ANSWER }] }));
    const result = await runCli(
      ['generate', 'A mill pond.', 'pond', '--rounds', '0', '--llm-script', script],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'yare.yaml:16:13: events.swim_across.steps[0]: mutate op "subtract" is unknown.',
    );
    expect(result.stdout).toContain('still invalid after 1 round(s)');
    expect(existsSync(join(dir, 'pond', 'generation-transcript.md'))).toBe(true);
  });

  it('refuses a folder that already holds files (exit 1) unless --force', async () => {
    const { dir, file } = workspace();
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine');
    const script = file(
      'script.json',
      JSON.stringify({ director: [{ text: FIRST_ANSWER }, { text: REPAIR_ANSWER }] }),
    );
    const refused = await runCli(['generate', 'x', 'taken', '--llm-script', script], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds files');
    const forced = await runCli(['generate', 'x', 'taken', '--llm-script', script, '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'taken', 'notes.txt'), 'utf8')).toBe('mine');
  });
});
