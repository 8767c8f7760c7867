// The terminal forms of articulation_scramble and reflex_dial: each played to success and to failure
// through the text driver with a fake clock, and through `mnesos play` on the Ember Toll cartridge (a
// real process reading a pipe), where the result becomes an interaction turn that runs the resolver.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TerminalMinigames } from '../../../src/apps/cli/play/minigame-text.ts';
import { seededRandom } from '../../../src/core/minigames/index.ts';
import { lines, runCli, SPAWN_TIMEOUT_MS, workspaces } from './helpers.ts';

const EMBER_TOLL = resolve(dirname(fileURLToPath(import.meta.url)), '../../../cartridges/ember-toll');

function pending(minigame_id: string, config: unknown) {
  return { _pending_interaction: { interaction_type: 'minigame', minigame_id, resolver_event: 'r', config } };
}

const PASSWORD = {
  difficulty: {
    prompt: 'Say it.',
    correct_sequence: ['ash', 'over', 'water'],
    confuse_words: ['ember'],
    max_time_seconds: 30,
  },
};

describe('articulation_scramble in the terminal', () => {
  it('lists the words with numbers and says how to answer', () => {
    const games = new TerminalMinigames({ random: seededRandom(1), now: () => 0 });
    const intro = games.start(pending('articulation_scramble', PASSWORD)) ?? '';
    expect(intro).toContain('Mini-game: articulation scramble. Say it.');
    expect(intro).toMatch(/Words: 1\) \S+ {3}2\) \S+ {3}3\) \S+ {3}4\) \S+/);
    expect(intro).toContain('You have 30 seconds.');
  });

  it('played to success by typing the words', () => {
    const games = new TerminalMinigames({ random: seededRandom(1), now: () => 1_000 });
    games.start(pending('articulation_scramble', PASSWORD));
    const answer = games.input('Ash over WATER');
    expect(answer?.output).toContain('Right: "ash over water"');
    expect(answer?.result).toMatchObject({
      minigame_id: 'articulation_scramble',
      status: 'completed',
      metrics: { success: true, selected_sequence: ['ash', 'over', 'water'] },
    });
    expect(games.active).toBe(false);
  });

  it('played to failure by numbers in the wrong order; a word not in the bank is asked again', () => {
    let now = 0;
    const games = new TerminalMinigames({ random: () => 0, now: () => now });
    const intro = games.start(pending('articulation_scramble', PASSWORD)) ?? '';
    expect(games.input('ash banana')?.output).toContain("'banana' is not one of the words left");
    const numberOf = (word: string) => [...intro.matchAll(/(\d+)\) (\S+)/g)].find((m) => m[2] === word)?.[1];
    now = 4_000;
    const answer = games.input(`${numberOf('water')} ${numberOf('over')} ${numberOf('ash')}`);
    expect(answer?.output).toContain('Wrong: "water over ash"');
    expect(answer?.result?.status).toBe('failed');
    expect(answer?.result?.metrics?.time_spent_seconds).toBe(4);
  });

  it('an answer after the time limit fails as a timeout', () => {
    let now = 0;
    const games = new TerminalMinigames({ random: seededRandom(2), now: () => now });
    games.start(pending('articulation_scramble', PASSWORD));
    now = 30_000;
    const answer = games.input('ash over water');
    expect(answer?.output).toContain('Too slow');
    expect(answer?.result?.status).toBe('failed');
  });
});

describe('reflex_dial in the terminal', () => {
  const DIAL = { difficulty: { indicator_speed: 0.5, zone_width_degrees: 60, required_success_hits: 2 } };

  it('played to success: Enter when the needle is in the zone, twice', () => {
    let now = 0;
    const random = seededRandom(4);
    const games = new TerminalMinigames({ random, now: () => now });
    const intro = games.start(pending('reflex_dial', DIAL)) ?? '';
    expect(intro).toContain('one turn every 2000 ms');
    const zone = /zone (\d+)°–(\d+)°/.exec(intro);
    expect(zone).not.toBeNull();
    // The middle of the zone, in ms after the start (2000 ms a turn).
    const middle = (text: string) => {
      const [, from, to] = /[Zz]one:? (\d+)°–(\d+)°/.exec(text) ?? [];
      return ((Number(from) + Number(to)) / 2) * (2000 / 360);
    };
    now += middle(intro);
    const first = games.input('') ?? { output: '' };
    expect(first.output).toContain('Hit at');
    expect(first.output).toContain('1 of 2 hits');
    now += middle(first.output);
    const second = games.input('');
    expect(second?.output).toContain('The dial gives way.');
    expect(second?.result).toMatchObject({
      minigame_id: 'reflex_dial',
      status: 'completed',
      metrics: { hits: 2, misses: 0 },
    });
  });

  it('played to failure: six presses at once all miss', () => {
    let now = 0;
    const games = new TerminalMinigames({ random: seededRandom(4), now: () => now });
    games.start(pending('reflex_dial', DIAL));
    let last: ReturnType<TerminalMinigames['input']>;
    for (let i = 0; i < 6; i++) {
      now += 5;
      last = games.input('');
    }
    expect(last?.output).toContain('Out of attempts.');
    expect(last?.result).toMatchObject({ status: 'failed', metrics: { hits: 0, misses: 6 } });
  });

  it('a broken config is offered only as giving up', () => {
    const games = new TerminalMinigames();
    const intro = games.start(pending('reflex_dial', { difficulty: { indicator_speed: 99 } })) ?? '';
    expect(intro).toContain('config.difficulty.indicator_speed');
    expect(games.input('')?.result?.status).toBe('aborted');
  });

  it('a mini-game without a terminal form (lights_out) is left to /resolve', () => {
    expect(new TerminalMinigames().start(pending('lights_out', {}))).toBeUndefined();
  });
});

const workspace = workspaces();

describe('mnesos play on Ember Toll (rules in yare.ts)', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('the password mini-game played in the terminal: wrong, then right; the resolver runs each time', async () => {
    const { dir } = workspace();
    const result = await runCli(['play', EMBER_TOLL, '--seed', '1'], {
      cwd: dir,
      input: lines('/recite_password', 'ember under ash', '/recite_password', 'ash over water', '/state'),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Mini-game: articulation scramble.');
    expect(out).toContain('Wrong: "ember under ash".');
    expect(out).toContain('The words come out wrong; the keeper laughs.');
    expect(out).toContain('Right: "ash over water".');
    expect(out).toContain('The password is right; the keeper lifts the bar without a word.');
    expect(out).toMatch(/"crossed": true/);
    expect(out).toMatch(/"knows_password": true/);
  });

  it('the gate lock (reflex dial): giving up sends an aborted result', async () => {
    const { dir } = workspace();
    const result = await runCli(['play', EMBER_TOLL], {
      cwd: dir,
      input: lines('/pick_gate_lock', 'give up', '/state'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Mini-game: reflex dial.');
    expect(result.stdout).toContain('You give up.');
    expect(result.stdout).toContain('A pin snaps; the lock holds.');
    expect(result.stdout).toMatch(/"crossed": false/);
  });
});
