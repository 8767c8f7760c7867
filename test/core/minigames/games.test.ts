// The mini-games' pure logic: each played to success and to failure with a seeded shuffle and a fake
// clock; configs checked against the manifests at and past each bound; the manifests agree with the
// lights_out logic's own constants; load-time checking of `_pending_interaction` configs.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import {
  abortScramble,
  choose,
  newScramble,
  readScrambleConfig,
  scrambleHooks,
  scrambleMetrics,
  submit,
  unchoose,
} from '../../../src/core/minigames/articulation-scramble.ts';
import {
  ARTICULATION_SCRAMBLE,
  checkMinigameConfig,
  configJsonSchema,
  LIGHTS_OUT,
  MINIGAMES,
  REFLEX_DIAL,
  seededRandom,
} from '../../../src/core/minigames/index.ts';
import {
  dialHooks,
  dialMetrics,
  inZone,
  needleAngle,
  newDial,
  nextZoneTime,
  readDialConfig,
  START_CLEARANCE_DEGREES,
  stopNeedle,
} from '../../../src/core/minigames/reflex-dial.ts';
import { codesOf, errorsOf, MINIMAL_LORE, where } from '../cartridge/helpers.ts';

const PASSWORD = {
  difficulty: {
    prompt: 'Say the password.',
    correct_sequence: ['ash', 'over', 'water'],
    confuse_words: ['ember', 'under'],
    max_time_seconds: 30,
  },
  narrative_hooks: { on_success: 'The bar lifts.', on_failure: 'He laughs.', on_timeout: 'He yawns.' },
};

function scrambleConfig(config: unknown = PASSWORD) {
  const read = readScrambleConfig(config);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  return read.config;
}

/** Chooses the given words by text, in order. */
function say(game: ReturnType<typeof newScramble>, words: string[], now: number) {
  let next = game;
  for (const word of words) next = choose(next, next.bank.indexOf(word), now);
  return next;
}

describe('articulation_scramble', () => {
  it('the bank is the sequence and the decoys, shuffled the same way for the same seed', () => {
    const a = newScramble(scrambleConfig(), seededRandom(7), 0);
    const b = newScramble(scrambleConfig(), seededRandom(7), 0);
    expect(a.bank).toEqual(b.bank);
    expect([...a.bank].sort()).toEqual(['ash', 'ember', 'over', 'under', 'water']);
  });

  it('played to success: the exact words in order, in time; metrics include the list-valued selected_sequence', () => {
    const game = newScramble(scrambleConfig(), seededRandom(1), 1_000);
    const done = submit(say(game, ['ash', 'over', 'water'], 5_000), 6_500);
    expect(done.status).toBe('completed');
    expect(scrambleMetrics(done)).toEqual({
      success: true,
      selected_sequence: ['ash', 'over', 'water'],
      time_spent_seconds: 5.5,
    });
    expect(scrambleHooks(done)).toEqual(['The bar lifts.']);
  });

  it('played to failure: wrong order; and undo takes back the last word', () => {
    const game = newScramble(scrambleConfig(), seededRandom(1), 0);
    const undone = unchoose(say(game, ['ash', 'under'], 100), 200);
    expect(undone.chosen).toHaveLength(1);
    const done = submit(say(undone, ['water', 'over'], 300), 400);
    expect(done.status).toBe('failed');
    expect(scrambleMetrics(done).selected_sequence).toEqual(['ash', 'water', 'over']);
    expect(scrambleHooks(done)).toEqual(['He laughs.']);
  });

  it('the time limit: answering at the last millisecond counts, one later is a timeout', () => {
    const game = say(newScramble(scrambleConfig(), seededRandom(1), 0), ['ash', 'over', 'water'], 1);
    expect(submit(game, 29_999).status).toBe('completed');
    const late = submit(game, 30_000);
    expect(late.status).toBe('failed');
    expect(late.ending).toBe('timeout');
    expect(scrambleHooks(late)).toEqual(['He yawns.']);
  });

  it('giving up is aborted; moves after the end change nothing', () => {
    const stopped = abortScramble(newScramble(scrambleConfig(), seededRandom(1), 0), 10);
    expect(stopped.status).toBe('aborted');
    expect(choose(stopped, 0, 20)).toBe(stopped);
  });
});

function dialConfig(difficulty: Record<string, unknown>, hooks: Record<string, string> = {}) {
  const read = readDialConfig({ difficulty, narrative_hooks: hooks });
  if (!read.ok) throw new Error(read.errors.join('\n'));
  return read.config;
}

describe('reflex_dial', () => {
  const config = dialConfig(
    { indicator_speed: 0.5, zone_width_degrees: 60, required_success_hits: 2 },
    { on_hit: 'Click.', on_miss: 'Scrape.', on_success: 'Open.', on_failure: 'Jammed.' },
  );

  it('the needle turns at the configured speed; the zone never covers the start', () => {
    const game = newDial(config, seededRandom(3), 1_000);
    expect(needleAngle(game, 1_000)).toBe(0);
    expect(needleAngle(game, 1_500)).toBeCloseTo(90);
    expect(needleAngle(game, 3_000)).toBeCloseTo(0);
    for (let seed = 0; seed < 200; seed++) {
      const g = newDial(config, seededRandom(seed), 0);
      expect(g.zoneStart).toBeGreaterThanOrEqual(START_CLEARANCE_DEGREES);
      expect(g.zoneStart + 60).toBeLessThanOrEqual(360 - START_CLEARANCE_DEGREES);
      expect(inZone(g, 0)).toBe(false);
    }
  });

  it('played to success: two presses inside the zone', () => {
    let game = newDial(config, seededRandom(5), 0);
    let now = 0;
    for (let i = 0; i < 2; i++) {
      now = nextZoneTime(game, now);
      game = stopNeedle(game, now);
      expect(game.last?.hit).toBe(true);
    }
    expect(game.status).toBe('completed');
    expect(dialMetrics(game)).toMatchObject({ success: true, hits: 2, misses: 0 });
    expect(dialMetrics(game).avg_reaction_time_ms).toBeGreaterThan(0);
    expect(dialHooks(game)).toEqual(['Click.', 'Open.']);
  });

  it('played to failure: six misses (three times the hits needed) lose; five do not', () => {
    let game = newDial(config, seededRandom(5), 0);
    let now = 0;
    for (let i = 0; i < 5; i++) {
      now += 1; // at once: the needle is still near 0°, outside the zone
      game = stopNeedle(game, now);
    }
    expect(game.status).toBe('playing');
    game = stopNeedle(game, now + 1);
    expect(game.status).toBe('failed');
    expect(dialMetrics(game)).toEqual({ success: false, hits: 0, misses: 6, avg_reaction_time_ms: 0 });
    expect(dialHooks(game)).toEqual(['Scrape.', 'Jammed.']);
  });

  it('with key_sequence, the wrong key inside the zone is a miss; the right one a hit', () => {
    const keyed = dialConfig({ required_success_hits: 1, key_sequence: ['a', 's'] });
    const game = newDial(keyed, seededRandom(9), 0);
    const at = nextZoneTime(game, 0);
    expect(stopNeedle(game, at, 's').last?.hit).toBe(false);
    expect(stopNeedle(game, at, 'A').status).toBe('completed');
  });
});

describe('manifests', () => {
  it('three games, each with its metrics and config schema', () => {
    expect(MINIGAMES.map((m) => m.minigame_id)).toEqual([
      'lights_out',
      'articulation_scramble',
      'reflex_dial',
    ]);
    expect(ARTICULATION_SCRAMBLE.metrics.find((m) => m.name === 'selected_sequence')?.kind).toBe('text_list');
    const schema = configJsonSchema(REFLEX_DIAL) as {
      properties: { difficulty: { properties: Record<string, unknown> } };
    };
    expect(schema.properties.difficulty.properties.indicator_speed).toMatchObject({
      minimum: 0.05,
      maximum: 3,
    });
  });

  it.each([
    ['grid_size at its bounds', LIGHTS_OUT, { difficulty: { grid_size: 7 } }, []],
    ['grid_size past its bound', LIGHTS_OUT, { difficulty: { grid_size: 8 } }, ['difficulty.grid_size']],
    ['a fractional int', LIGHTS_OUT, { difficulty: { max_moves: 2.5 } }, ['difficulty.max_moves']],
    ['an unknown setting', LIGHTS_OUT, { difficulty: { speed: 1 } }, ['difficulty.speed']],
    ['an unknown hook', LIGHTS_OUT, { narrative_hooks: { on_win: 'x' } }, ['narrative_hooks.on_win']],
    ['a computed value is trusted', LIGHTS_OUT, { difficulty: { grid_size: '@ state.size' } }, []],
    [
      'the required sequence missing',
      ARTICULATION_SCRAMBLE,
      { difficulty: { prompt: 'x' } },
      ['difficulty.correct_sequence'],
    ],
    [
      '12 words (the limit)',
      ARTICULATION_SCRAMBLE,
      { difficulty: { correct_sequence: Array(12).fill('w') } },
      [],
    ],
    [
      '13 words',
      ARTICULATION_SCRAMBLE,
      { difficulty: { correct_sequence: Array(13).fill('w') } },
      ['difficulty.correct_sequence'],
    ],
    [
      'an empty word',
      ARTICULATION_SCRAMBLE,
      { difficulty: { correct_sequence: ['a', ' '] } },
      ['difficulty.correct_sequence.1'],
    ],
    ['speed 3 (the limit)', REFLEX_DIAL, { difficulty: { indicator_speed: 3 } }, []],
    ['speed 3.01', REFLEX_DIAL, { difficulty: { indicator_speed: 3.01 } }, ['difficulty.indicator_speed']],
  ])('config check: %s', (_name, manifest, config, paths) => {
    expect(checkMinigameConfig(manifest, config).map((p) => p.path.join('.'))).toEqual(paths);
  });
});

describe('configs are checked when a cartridge loads', () => {
  const yare = (config: string, id = 'reflex_dial') => `version: "1.0"
state_schema:
  _pending_interaction: { type: dict, default: {} }
events:
  start:
    steps:
      - action: branch
        if: "@ true"
        steps:
          - action: set
            var: state._pending_interaction
            value:
              interaction_type: minigame
              minigame_id: ${id}
              resolver_event: done
              config: ${config}
  done:
    internal: true
    inputs: { status: { type: string, default: aborted }, metrics: { type: dict, default: {} } }
    steps: []
`;
  const load = (text: string) =>
    loadCartridgeFromFiles(
      new Map([
        ['yare.yaml', text],
        ['bot_lore.md', MINIMAL_LORE],
      ]),
      'mem',
    );

  it('a good config loads; a bad one is an error at the setting', () => {
    expect(load(yare('{ difficulty: { indicator_speed: 1 } }')).ok).toBe(true);
    const bad = load(yare('{ difficulty: { indicator_speed: 9 } }'));
    expect(codesOf(errorsOf(bad))).toEqual(['CART_MINIGAME_CONFIG']);
    expect(errorsOf(bad)[0]?.message).toContain(
      'reflex_dial config.difficulty.indicator_speed must be a number from 0.05 to 3',
    );
    // At the value 9.
    expect(where(errorsOf(bad)[0])).toBe('yare.yaml:16:56');
  });

  it('an unknown mini-game is a warning naming the known ones', () => {
    const result = load(yare('{}', 'tetris'));
    expect(result.ok).toBe(true);
    expect(codesOf(result.warnings)).toContain('CART_MINIGAME_UNKNOWN');
  });

  it('every start the rules compiler walks is checked (else, conditions, foreach), in file order with its other errors', () => {
    const start = (speed: number, indent: string) =>
      [
        '- action: set',
        '  var: state._pending_interaction',
        '  value:',
        '    minigame_id: reflex_dial',
        '    resolver_event: done',
        `    config: { difficulty: { indicator_speed: ${speed} } }`,
      ]
        .map((line) => `${indent}${line}`)
        .join('\n');
    const text = `state_schema:
  _pending_interaction: { type: dict, default: {} }
  hp: { type: int, default: 1 }
events:
  start:
    steps:
      - action: branch
        if: "@ state.hp > 0"
        steps: []
        else:
${start(7, '          ')}
      - action: set
        var: state.hpp
        value: 1
      - action: branch
        conditions:
          - if: "@ state.hp > 1"
            steps:
${start(8, '              ')}
      - action: foreach
        array: "@ [1, 2]"
        item: n
        steps:
${start(9, '          ')}
  done:
    internal: true
    inputs: { status: { type: string, default: aborted }, metrics: { type: dict, default: {} } }
    steps: []
`;
    const errors = errorsOf(load(text));
    expect(errors.map((e) => `${where(e)} ${e.code}`)).toEqual([
      'yare.yaml:16:56 CART_MINIGAME_CONFIG',
      'yare.yaml:18:14 YARE_UNKNOWN_PATH',
      'yare.yaml:29:60 CART_MINIGAME_CONFIG',
      'yare.yaml:39:56 CART_MINIGAME_CONFIG',
    ]);
    expect(errors[0]?.message).toContain('indicator_speed must be a number from 0.05 to 3, got 7');
  });

  it('a missing required setting is placed at the mapping that lacks it', () => {
    const bad = load(yare('{ difficulty: {} }', 'articulation_scramble'));
    expect(errorsOf(bad).map((e) => `${where(e)} ${e.code}`)).toEqual([
      'yare.yaml:16:37 CART_MINIGAME_CONFIG',
    ]);
    expect(errorsOf(bad)[0]?.message).toMatch(
      /^articulation_scramble config\.difficulty\.correct_sequence is required/,
    );
  });

  it('a start whose value JSON cannot hold is left to the run (the write fails there), not a crash', () => {
    const result = load(yare('{ difficulty: { indicator_speed: .inf } }'));
    expect(codesOf(errorsOf(result))).not.toContain('CART_MINIGAME_CONFIG');
  });
});
