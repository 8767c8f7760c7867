// `mnesos turn`: one stateless turn. State, story and world go in as files and come out in `--json`, so a
// script can chain turns; exit codes say whose fault a failure is. Run in-process (the program's `main`):
// the process boundary (exit codes, stack-free failures) is tested in failures.test.ts.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS } from '../../../src/engine/turn/limits.ts';
import { closedPort, runCliInProcess as runCli, SPAWN_TIMEOUT_MS, workspaces } from './helpers.ts';

const workspace = workspaces();

// biome-ignore lint/suspicious/noExplicitAny: the --json output is inspected field by field
type Loose = Record<string, any>;

function parseJson(stdout: string): Loose {
  return JSON.parse(stdout) as Loose;
}

describe('turn --json', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('takes state in and gives state, story, world and record out; the output feeds the next turn', async () => {
    const { dir, file } = workspace();
    const first = await runCli(
      ['turn', 'lanternmere', '--input', '/travel destination="reedmaze"', '--json'],
      {
        cwd: dir,
      },
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const one = parseJson(first.stdout);
    expect(one.ok).toBe(true);
    expect(one.state.player.location).toBe('reedmaze');
    // The full state: private fields travel too (the caller owns the state).
    expect(one.state.player.attack_bonus).toBe(4);
    for (const field of [
      'version',
      'mode',
      'input',
      'seed',
      'narration',
      'stateAfter',
      'delta',
      'notes',
      'rolls',
      'ruleCalls',
      'tools',
      'usage',
      'timings',
      'messages',
      'ledger',
    ]) {
      expect(one.record).toHaveProperty(field);
    }
    expect(one.record.mode).toBe('offline');
    expect(one.record.seed).toBe(0);
    // Offline narration is the story only (the offline state is said by the interface, not the prose).
    expect(one.record.narration).toBe(
      'The player walks the plank-ways to the Reedmaze; it is evening when they arrive. Lamplighters mark safe paths with tallow stubs in glass.',
    );
    // The story: the first message, the player's input, the narration.
    expect(one.messages.map((m: Loose) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(one.messages[1].content).toBe('/travel destination="reedmaze"');

    const state = file('state.json', JSON.stringify(one.state));
    const messages = file('messages.json', JSON.stringify(one.messages));
    const world = file('world.json', JSON.stringify(one.world));
    const args = [
      'turn',
      'lanternmere',
      '--input',
      '/explore_fen',
      '--state',
      state,
      '--messages',
      messages,
      '--world',
      world,
      '--seed',
      '4',
      '--json',
    ];
    const second = await runCli(args, { cwd: dir });
    expect(second.code).toBe(0);
    const two = parseJson(second.stdout);
    // It started from the given state: exploring works in the reedmaze (in town it would be refused).
    expect(two.state.player.location).toBe('reedmaze');
    expect(two.record.seed).toBe(4);
    expect(two.record.rolls[0].expr).toBe('roll(1d20)');
    expect(two.state.world.turn).toBe(2);
    expect(two.messages).toHaveLength(5);
    // Same inputs, same seed, same result.
    const again = await runCli(args, { cwd: dir });
    expect(parseJson(again.stdout).state).toEqual(two.state);
  });

  it('sends a mini-game result with --interaction, and refuses free text while one is pending', async () => {
    const { dir, file } = workspace();
    const atChapel = file('chapel.json', JSON.stringify({ player: { location: 'drowned chapel' } }));
    const started = await runCli(
      ['turn', 'lanternmere', '--input', '/unseal_chapel', '--state', atChapel, '--json'],
      {
        cwd: dir,
      },
    );
    expect(started.code).toBe(0);
    const pending = parseJson(started.stdout).state;
    expect(pending._pending_interaction.minigame_id).toBe('lights_out');
    const state = file('pending.json', JSON.stringify(pending));

    const [text, wrongId, resolved] = await Promise.all([
      runCli(['turn', 'lanternmere', '--input', 'I smash the lamps', '--state', state], { cwd: dir }),
      runCli(
        [
          'turn',
          'lanternmere',
          '--interaction',
          '{"minigame_id":"chess","status":"completed"}',
          '--state',
          state,
        ],
        {
          cwd: dir,
        },
      ),
      runCli(
        [
          'turn',
          'lanternmere',
          '--interaction',
          '{"minigame_id":"lights_out","status":"completed","metrics":{"moves":9}}',
          '--state',
          state,
          '--json',
        ],
        { cwd: dir },
      ),
    ]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('mini-game is pending');
    expect(wrongId.code).toBe(1);
    expect(wrongId.stderr).toContain('chess');
    expect(resolved.code).toBe(0);
    const out = parseJson(resolved.stdout);
    expect(out.state.world.chapel_sealed).toBe(false);
    expect(out.record.input.kind).toBe('interaction');
  });
});

describe('turn with a scripted model', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('streams the narration to stdout and prints the state changes', async () => {
    const { dir, file } = workspace();
    const script = file(
      'script.json',
      JSON.stringify({
        director: [
          {
            text: '### 1. Outcomes\nMarket.',
            toolCalls: [{ name: 'travel', args: { destination: 'brine market' } }],
          },
        ],
        narrator: [{ chunks: ['Gulls ', 'scream over ', 'the Brine Market.'] }],
      }),
    );
    const result = await runCli(['turn', 'lanternmere', '--input', 'to the market', '--llm-script', script], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Gulls scream over the Brine Market.');
    expect(result.stdout).toContain('player location: tallow rest → brine market');
    expect(result.stderr).not.toContain('No model is configured');
  });
});

describe('turn: the input limit', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it(`an input of MAX_INPUT_CHARS (${MAX_INPUT_CHARS}) characters plays; one more is exit 1 naming the limit`, async () => {
    const { dir } = workspace();
    const at = `/check_pack ${'a'.repeat(MAX_INPUT_CHARS - 12)}`;
    const [played, refused] = await Promise.all([
      runCli(['turn', 'lanternmere', '--input', at, '--json'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', `${at}a`, '--json'], { cwd: dir }),
    ]);
    expect(played.code).toBe(0);
    expect(parseJson(played.stdout).record.input.text).toBe(at);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `the input is ${MAX_INPUT_CHARS + 1} characters; the limit is ${MAX_INPUT_CHARS}`,
    );
  });
});

describe('turn --json when no turn is played', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('prints one JSON document with the reply and exit 0, and the error as JSON with its exit code', async () => {
    const { dir } = workspace();
    const [unmatched, question, looked, plain] = await Promise.all([
      runCli(['turn', 'lanternmere', '--input', 'hum a tune', '--json'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'I travel somewhere', '--json'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'look around', '--json'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'look around'], { cwd: dir }),
    ]);
    for (const r of [unmatched, question, looked]) expect(r.code).toBe(0);
    const u = parseJson(unmatched.stdout);
    expect(u).toMatchObject({ ok: true, kind: 'reply', reason: 'unmatched' });
    expect(u.text).toContain('“hum a tune” is not something the rules can do here.');
    expect(u.state.player.location).toBe('tallow rest');
    expect(parseJson(question.stdout)).toMatchObject({ ok: true, kind: 'reply', reason: 'question' });
    expect(parseJson(looked.stdout).text).toMatch(/^You are at the Tallow Rest/);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^You are at the Tallow Rest/);
  });
});

describe('turn exit codes', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('1 for a bad cartridge, a bad state file or a bad script; 2 for usage errors', async () => {
    const { dir, file } = workspace();
    const notJson = file('bad.json', '{ nope');
    const badScript = file('script.json', JSON.stringify({ director: [{ txt: 'typo' }] }));
    const results = await Promise.all([
      runCli(['turn', 'no-such-cartridge', '--input', 'hi'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'hi', '--state', notJson], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'hi', '--llm-script', badScript], { cwd: dir }),
      runCli(['turn', 'lanternmere'], { cwd: dir }),
      runCli(
        ['turn', 'lanternmere', '--input', 'hi', '--interaction', '{"minigame_id":"x","status":"failed"}'],
        { cwd: dir },
      ),
      runCli(['turn', 'lanternmere', '--interaction', '{not json'], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'hi', '--seed', '-1'], { cwd: dir }),
    ]);
    expect(results.map((r) => r.code)).toEqual([1, 1, 1, 2, 2, 2, 2]);
    expect(results[0]!.stderr).toContain("No cartridge folder at 'no-such-cartridge'");
    expect(results[1]!.stderr).toContain('bad.json: not valid JSON');
    expect(results[2]!.stderr).toContain('director[0]');
    expect(results[3]!.stderr).toContain('exactly one of --input and --interaction');
    expect(results[5]!.stderr).toContain('not valid JSON');
  });

  it('3 when the model provider fails: a scripted HTTP error, or a server that is not there', async () => {
    const { dir, file } = workspace();
    const script = file(
      'script.json',
      JSON.stringify({ director: [{ error: { kind: 'http', status: 503, message: 'overloaded' } }] }),
    );
    const port = await closedPort();
    const [scripted, refused] = await Promise.all([
      runCli(['turn', 'lanternmere', '--input', 'hello', '--llm-script', script], { cwd: dir }),
      runCli(['turn', 'lanternmere', '--input', 'hello'], {
        cwd: dir,
        env: {
          MNESOS_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
          MNESOS_MODEL: 'test-model',
          MNESOS_LLM_MAX_RETRIES: '0',
        },
      }),
    ]);
    expect(scripted.code).toBe(3);
    expect(scripted.stderr).toContain('overloaded');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('model call failed');
    expect(refused.stdout).toBe('');
    // Nothing is written anywhere by a stateless turn.
    expect(() => readFileSync(`${dir}/.mnesos/mnesos.db`)).toThrow();
  });
});
