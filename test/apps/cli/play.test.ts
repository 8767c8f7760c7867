// `mnesos play` driven through its stdin, as a player in a pipe would: no prompt, no escape codes, and the
// game ends at end of input. Each test has its own working directory, so its own ./.mnesos database.

import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS } from '../../../src/engine/turn/limits.ts';
import { ESC, lines, runCli, SPAWN_TIMEOUT_MS, startCli, useCompiledCli, workspaces } from './helpers.ts';

useCompiledCli();
const workspace = workspaces();

/** Every `"key": value` printed for a key, in order (the /state dumps). */
function valuesOf(stdout: string, key: string): string[] {
  return [...stdout.matchAll(new RegExp(`"${key}": ("[^"]*"|[^,\\n]+)`, 'g'))].map((m) => m[1]!);
}

describe('play offline', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('plays turns, shows the public state, undoes, saves and loads, and resumes the session later', async () => {
    const { dir } = workspace();
    const first = await runCli(['play', '--session', 'one', '--seed', '10'], {
      cwd: dir,
      input: lines(
        '/travel destination="reedmaze"',
        '/state',
        '/save there',
        '/explore_fen',
        '/debug',
        '/undo',
        '/undo',
        '/state',
        '/load there',
        '/state',
        '/quit',
      ),
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out = first.stdout;
    // Offline, and says how to get a model.
    expect(out).toContain('OFFLINE MODE');
    expect(out).toContain('MNESOS_LLM_BASE_URL');
    // The cartridge's first message opens the game; narration of the turns follows.
    expect(out).toContain('Lanternmere');
    expect(out).toContain('The player walks the plank-ways to the Reedmaze; it is evening when they arrive.');
    // /state: reedmaze after travel, tallow rest after two undos, reedmaze again after /load.
    expect(valuesOf(out, 'location')).toEqual(['"reedmaze"', '"tallow rest"', '"reedmaze"']);
    // /state is the public state only: no private fields (armor, attack_bonus, the bestiary).
    expect(out).not.toContain('"attack_bonus"');
    expect(out).not.toContain('"bestiary"');
    expect(out).not.toContain('_pending_interaction');
    // /debug shows the dice of the exploration and the rule calls.
    expect(out).toMatch(/Rolls:\n {2}roll\(1d20\): 1d20 → \[\d+\] = \d+/);
    expect(out).toContain('offline explore_fen {} ok');
    expect(out).toContain('Undone: /explore_fen.');
    expect(out).toContain("Saved 'there'.");
    expect(out).toContain("Loaded 'there'.");
    // A pipe gets plain text: no colours, no spinner.
    expect(out).not.toContain(ESC);

    const again = await runCli(['play', '--session', 'one'], { cwd: dir, input: lines('/state', '/saves') });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("session 'one', resumed");
    expect(valuesOf(again.stdout, 'location')).toEqual(['"reedmaze"']);
    expect(again.stdout).toMatch(/^there$/m);
  });

  it('runs mini-games through /resolve, refuses free text meanwhile, and /event, /retry and /undo are turns', async () => {
    const { dir } = workspace();
    const result = await runCli(['play', '--seed', '1'], {
      cwd: dir,
      input: lines(
        '/event travel destination="drowned chapel"',
        '/unseal_chapel',
        'I knock on the door',
        '/resolve status=completed moves=9',
        '/state',
        '/debug',
        '/retry',
        '/undo',
        '/undo',
        '/undo',
        '/state',
      ),
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('state.player.location: "tallow rest" → "drowned chapel"');
    expect(out).toContain('A mini-game is waiting: lights_out.');
    expect(out).toContain('/resolve status=completed');
    expect(out).toContain('Cannot process free-text input while a mini-game is pending');
    expect(out).toContain('Every witch-lamp goes dark and the chapel door grinds open.');
    expect(out).toContain('Input: [minigame:lights_out status=completed moves=9]');
    // The resolver ran: the chapel is open, then three undos (retry sibling → puzzle → /event) undo it all.
    expect(valuesOf(out, 'chapel_sealed')).toEqual(['false', 'true']);
    expect(valuesOf(out, 'location')).toEqual(['"drowned chapel"', '"tallow rest"']);
    expect(out).toContain('Undone: [author] travel.');
  });

  it('lists the commands and the cartridge events with /help', async () => {
    const { dir } = workspace();
    const result = await runCli(['play'], { cwd: dir, input: lines('/help') });
    expect(result.code).toBe(0);
    for (const command of [
      '/state',
      '/debug',
      '/event',
      '/undo',
      '/retry',
      '/save',
      '/load',
      '/resolve',
      '/quit',
    ]) {
      expect(result.stdout).toContain(command);
    }
    expect(result.stdout).toContain('travel destination="tallow rest"|"brine market"');
  });
});

describe('play with a scripted model', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('streams the narration, survives a provider failure without saving it, and shows the trace in /debug', async () => {
    const { dir, file } = workspace();
    const script = file(
      'script.json',
      JSON.stringify({
        director: [
          { error: { kind: 'http', status: 500, message: 'upstream exploded' } },
          {
            text: '### 1. Outcomes\nThe player reaches the market.',
            toolCalls: [{ name: 'travel', args: { destination: 'brine market' } }],
          },
        ],
        narrator: [{ chunks: ['The plank-ways ', 'creak underfoot ', 'as you reach the Brine Market.'] }],
      }),
    );
    const result = await runCli(['play', '--llm-script', script], {
      cwd: dir,
      input: lines('I walk to the market', '/state', 'I walk to the market', '/state', '/debug'),
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Model: scripted models from');
    expect(out).not.toContain('OFFLINE MODE');
    expect(out).toContain('The model failed');
    expect(out).toContain('upstream exploded');
    expect(out).toContain('The plank-ways creak underfoot as you reach the Brine Market.');
    // The failed turn changed nothing; the second one moved the player.
    expect(valuesOf(out, 'location')).toEqual(['"tallow rest"', '"brine market"']);
    expect(out).toContain('round 1 travel({"destination":"brine market"}) → ok');
    expect(out).toMatch(/director #1: \d+ of 8000 tokens/);
    expect(out).toMatch(/director: 1 call\(s\), \d+ in \(0 cached\), \d+ out/);
    expect(out).toContain('narrator=scripted-narrator');
  });
});

describe('play interrupted', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('leaves cleanly on SIGINT and never commits the turn it cancelled', async () => {
    const { dir, file } = workspace();
    // The Director takes long enough that the interrupt always comes first (the delay honours the abort).
    const script = file(
      'slow.json',
      JSON.stringify({
        director: [
          {
            delayMs: 60_000,
            text: '### 1. Outcomes\nMarket.',
            toolCalls: [{ name: 'travel', args: { destination: 'brine market' } }],
          },
        ],
        narrator: [{ text: 'You arrive.' }],
      }),
    );
    const game = startCli(['play', '--session', 'cut', '--llm-script', script], { cwd: dir });
    await game.waitFor('Type what you do');
    game.child.stdin.write('I walk to the market\n/state\n');
    game.child.kill('SIGINT');
    const result = await game.done;
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('You arrive.');
    expect(result.stderr).not.toMatch(/^ {4}at /m);

    const after = await runCli(['play', '--session', 'cut'], { cwd: dir, input: lines('/state', '/debug') });
    expect(valuesOf(after.stdout, 'location')).toEqual(['"tallow rest"']);
    expect(after.stdout).toContain('No turn played yet');
  });
});

describe('play: the input limit', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it(`an input of MAX_INPUT_CHARS (${MAX_INPUT_CHARS}) characters plays; one more is refused and spends no turn`, async () => {
    const { dir } = workspace();
    const at = `/check_pack ${'a'.repeat(MAX_INPUT_CHARS - 12)}`;
    const over = `${at}a`;
    const result = await runCli(['play', '--session', 'limit'], {
      cwd: dir,
      input: lines(over, at, '/undo', '/undo', '/quit'),
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain(`the input is ${MAX_INPUT_CHARS + 1} characters; the limit is ${MAX_INPUT_CHARS}`);
    // One turn was played (the one at the limit): the first /undo takes it back, the second finds none.
    expect(out).toContain(`Undone: ${at}.`);
    expect(out).toContain('nothing to undo: the session is at its first message');
  });
});

describe('play exit codes', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('exits 1 for a cartridge that does not exist, 2 for a bad option', async () => {
    const { dir } = workspace();
    const missing = await runCli(['play', 'no-such-cartridge'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No cartridge folder at 'no-such-cartridge'");
    const bad = await runCli(['play', '--no-such-option'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown option');
  });
});

describe('play: a story, with its rules in sight', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('wraps streamed prose at the width, shows the dice and changes under each turn, and /rules off hides them', async () => {
    const { dir, file } = workspace();
    const script = file(
      'script.json',
      JSON.stringify({
        director: [
          {
            text: '### 1. Outcomes\nThe player reaches the market.',
            toolCalls: [{ name: 'travel', args: { destination: 'brine market' } }],
          },
          { text: '### 1. Outcomes\nNothing.', toolCalls: [] },
        ],
        narrator: [
          {
            chunks: [
              'You walk the plank-ways toward the market, and bey',
              'ond the last lantern the mist thins.',
            ],
          },
          { chunks: ['Nothing stirs.'] },
        ],
      }),
    );
    const result = await runCli(['play', '--llm-script', script], {
      cwd: dir,
      env: { COLUMNS: '40' },
      input: lines('I walk to the market', '/rules off', 'I wait'),
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    // "bey|ond" arrived in two pieces; the word is whole and every prose line fits in 40 columns.
    expect(out).toContain(
      'You walk the plank-ways toward the\nmarket, and beyond the last lantern the\nmist thins.',
    );
    // Under the prose: what changed, from the public part of the record.
    expect(out).toContain(
      'mist thins.\n  player location: tallow rest → brine market\n  30 min passed (18:00 → 18:30)\n',
    );
    expect(out).toContain('The dice and changes under each turn are hidden (/rules on|off).');
    expect(out).toMatch(/Nothing stirs\.\n\n/);
  });

  it('makes, chooses and uses a persona with /persona; words that match nothing spend no turn', async () => {
    const { dir } = workspace();
    const result = await runCli(['play', '--seed', '2'], {
      cwd: dir,
      input: lines(
        'hum a tune',
        '/persona new Mara Vell she -- A lamplighter with a burnt sleeve.',
        '/persona use Mara Vell',
        '/persona edit Mara Vell appearance=tall',
        '/persona',
        'go to the reedmaze',
        '/state',
        '/persona delete Mara Vell',
        '/persona',
      ),
    });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^MnesOS — Lanternmere \[offline\]/m);
    expect(out).toContain(
      '“hum a tune” is not something the rules can do here.\nWhat you can do here:\n- travel:',
    );
    expect(out).toContain('Created Mara Vell.');
    expect(out).toContain('You play Mara Vell from the next turn on.');
    expect(out).toContain('Saved Mara Vell.');
    expect(out).toContain('Mara Vell (she/her) (playing) — A lamplighter with a burnt sleeve.');
    expect(out).toContain('Mara Vell walks the plank-ways to the Reedmaze; it is evening when she arrives.');
    // "hum a tune" spent no turn: the clock moved only with the travel, and the turn counter is 1.
    expect(valuesOf(out, 'game_time')).toEqual(['"1147-03-09T19:00:00"']);
    expect(out).toContain('Deleted Mara Vell.');
    expect(out).toContain('No personas yet.');
  });
});
