// What the terminal shows: the spinner (only on a terminal), state changes, and /debug for each kind of
// stored record.

import { describe, expect, it } from 'vitest';
import {
  formatChanges,
  formatDebug,
  formatNotes,
  MAX_DEBUG_VALUE_CHARS,
} from '../../../src/apps/cli/play/render.ts';
import { createSpinner, SPINNER_FRAMES, SPINNER_INTERVAL_MS } from '../../../src/apps/cli/play/spinner.ts';
import {
  MAX_WRAP_WIDTH,
  MIN_WRAP_WIDTH,
  WordWrapper,
  wrapLines,
  wrapText,
  wrapWidth,
} from '../../../src/apps/cli/play/wrap.ts';
import {
  describeOutcome,
  MAX_OUTCOME_ITEMS,
  publicOutcome,
} from '../../../src/engine/turn/public-outcome.ts';
import { turnRecordOf } from '../../../src/engine/session/records.ts';
import { runTurnToRecord } from '../../../src/engine/turn/index.ts';
import { initialState, lanternmere, scripted } from '../../engine/turn/helpers.ts';

function fakeTimers() {
  const timers: { fn: () => void; ms: number }[] = [];
  let cleared = 0;
  return {
    timers,
    cleared: () => cleared,
    options: {
      setInterval: (fn: () => void, ms: number) => {
        timers.push({ fn, ms });
        return timers.length;
      },
      clearInterval: () => {
        cleared += 1;
      },
    },
  };
}

describe('spinner', () => {
  it('writes nothing at all when the stream is not a terminal', () => {
    const written: string[] = [];
    const t = fakeTimers();
    const spinner = createSpinner({ isTTY: false, write: (s) => written.push(s) }, t.options);
    spinner.start('working');
    spinner.stop();
    expect(written).toEqual([]);
    expect(t.timers).toHaveLength(0);
    expect(spinner.active).toBe(false);
  });

  it('on a terminal draws frames with its label, relabels without a second timer, and clears its line', () => {
    const written: string[] = [];
    const t = fakeTimers();
    const spinner = createSpinner({ isTTY: true, write: (s) => written.push(s) }, t.options);
    spinner.start('The Director is working…');
    expect(spinner.active).toBe(true);
    expect(t.timers).toHaveLength(1);
    expect(t.timers[0]!.ms).toBe(SPINNER_INTERVAL_MS);
    t.timers[0]!.fn();
    spinner.start('The Narrator is writing…');
    expect(t.timers).toHaveLength(1);
    spinner.stop();
    spinner.stop();
    expect(t.cleared()).toBe(1);
    expect(written[0]).toBe(`\r\u001b[2K${SPINNER_FRAMES[0]} The Director is working…`);
    expect(written[1]).toBe(`\r\u001b[2K${SPINNER_FRAMES[1]} The Director is working…`);
    expect(written[2]).toContain('The Narrator is writing…');
    expect(written.at(-1)).toBe('\r\u001b[2K');
    expect(written).toHaveLength(4);
  });
});

describe('formatChanges and formatNotes', () => {
  it('writes one line per change, new and deleted values marked', () => {
    expect(
      formatChanges([
        { op: 'set', path: ['player', 'gold'], before: 20, after: 12 },
        { op: 'set', path: ['flags', 'met'], after: true },
        { op: 'delete', path: ['foe'], before: 'wisp' },
      ]),
    ).toEqual([
      'state.player.gold: 20 → 12',
      'state.flags.met: (new) → true',
      'state.foe: "wisp" → (deleted)',
    ]);
  });

  it('shows notes without their SYSTEM LOG wrappers', () => {
    expect(formatNotes(['[SYSTEM LOG: The door opens.]', 'plain'])).toBe('The door opens.\nplain');
    expect(formatNotes([])).toBe('Nothing happens.');
  });
});

describe('formatDebug', () => {
  it('explains the first message and unknown records', () => {
    expect(
      formatDebug({
        kind: 'genesis',
        version: 1,
        cartridge: { name: 'x', contentHash: 'h', versionId: 'v' },
        persona: null,
        seed: 1,
      }),
    ).toContain('No turn played yet');
    expect(formatDebug(undefined)).toContain('newer engine');
  });

  it('shows an online turn: notes, rolls, tool calls with arguments and results, prompt sections, token use, timings', async () => {
    const cartridge = await lanternmere();
    const state = {
      ...initialState(cartridge),
      player: { ...(initialState(cartridge).player as object), location: 'reedmaze' },
    };
    const { record } = await runTurnToRecord({
      cartridge,
      state,
      messages: [],
      input: 'I search the reeds',
      seed: 3,
      models: scripted({
        director: [
          {
            text: '### 1. Outcomes\nSearch.',
            toolCalls: [
              { name: 'explore_fen', args: {} },
              { name: 'travel', args: { destination: 'mars' } },
            ],
          },
          // A failed call earns the Director another round.
          { text: '### 1. Outcomes\nThe player searches.' },
        ],
        narrator: [{ text: 'Reeds whisper.' }],
      }),
    });
    const text = formatDebug(turnRecordOf(record));
    expect(text).toContain('Turn (online, seed 3, director:');
    expect(text).toContain('Input: I search the reeds');
    expect(text).toMatch(/Rolls:\n {2}roll\(1d20\): 1d20 → \[\d+\] = \d+/);
    expect(text).toContain('round 1 explore_fen({}) → ok');
    // A refused call's arguments are not stored: their length and hash stand in, beside the error the
    // Director got back (`{"destination":"mars"}` is 22 characters).
    expect(text).toMatch(/round 1 travel\(‹refused: 22 chars, sha256 [0-9a-f]{12}›\) → error: .*mars/);
    expect(text).toMatch(/director #1: \d+ of 8000 tokens/);
    expect(text).toMatch(/ {4}state: \d+ tokens, included \(/);
    expect(text).toMatch(/narrator: 1 call\(s\), \d+ in \(0 cached\), \d+ out/);
    expect(text).toMatch(/Timings: .*total \d+ ms/);
  });

  it(`cuts a long value at ${MAX_DEBUG_VALUE_CHARS} characters and says how long it was`, () => {
    const text = formatDebug({
      kind: 'author-event',
      version: 1,
      event: 'travel',
      inputs: { destination: 'x'.repeat(1000) },
      seed: 2,
      notes: ['n'],
      rolls: [{ expr: 'roll(1d6)', dice: '1d6', faces: [4], total: 4 }],
      stateAfter: {},
    });
    expect(text).toContain('Event run by hand: travel');
    expect(text).toMatch(/… \(\d+ chars\) \(seed 2\)/);
    expect(text).toContain('roll(1d6): 1d6 → [4] = 4');
    const shown = /travel (\S+)…/.exec(text)?.[1] ?? '';
    expect(shown.length).toBe(MAX_DEBUG_VALUE_CHARS);
  });
});

describe('prose wrapped at the terminal width', () => {
  it('breaks at word boundaries, also when the text streams in pieces that split words', () => {
    const text =
      'The mist parts beyond the last lantern and the reeds bow low as something large moves through them.';
    const whole = wrapText(text, 30);
    for (const line of whole.split('\n')) expect(line.length).toBeLessThanOrEqual(30);
    expect(whole.replaceAll('\n', ' ')).toBe(text);
    // The same text in pieces that cut words in two ("bey|ond") wraps exactly the same.
    let streamed = '';
    const wrapper = new WordWrapper(30, (piece) => {
      streamed += piece;
    });
    for (let i = 0; i < text.length; i += 7) wrapper.push(text.slice(i, i + 7));
    wrapper.end();
    expect(streamed).toBe(whole);
    expect(streamed).not.toMatch(/bey\nond/);
  });

  it('joins the lines of a paragraph, keeps paragraphs and list items, and cuts a word longer than a line', () => {
    expect(wrapText('one two\nthree\n\nfour\n- a list item', 40)).toBe(
      'one two three\n\nfour\n- a list item',
    );
    expect(wrapText('x'.repeat(25), 20)).toBe(`${'x'.repeat(20)}\n${'x'.repeat(5)}`);
    expect(wrapText('a'.repeat(19), 20)).toBe('a'.repeat(19));
  });

  it('wraps separate lines one by one, each under its own indentation, at the width and not before', () => {
    const help = 'Commands:\n  /look — look around: the place, who and what is here\n/x';
    expect(wrapLines(help, 30)).toBe(
      'Commands:\n  /look — look around: the\n    place, who and what is\n    here\n/x',
    );
    for (const line of wrapLines(help, 30).split('\n')) expect(line.length).toBeLessThanOrEqual(30);
    expect(wrapLines('a'.repeat(30), 30)).toBe('a'.repeat(30)); // at the width: kept
    expect(wrapLines('aaaa bbbb', 8)).toBe('aaaa\n  bbbb'); // just past it: wrapped
    expect(wrapLines(help, 0)).toBe(help);
  });

  it(`wraps between ${MIN_WRAP_WIDTH} and ${MAX_WRAP_WIDTH} columns, and not at all below`, () => {
    expect(wrapWidth(undefined)).toBe(0);
    expect(wrapWidth(MIN_WRAP_WIDTH - 1)).toBe(0);
    expect(wrapWidth(MIN_WRAP_WIDTH)).toBe(MIN_WRAP_WIDTH);
    expect(wrapWidth(MAX_WRAP_WIDTH)).toBe(MAX_WRAP_WIDTH);
    expect(wrapWidth(MAX_WRAP_WIDTH + 1)).toBe(MAX_WRAP_WIDTH);
    expect(wrapText('no wrapping at all here', 0)).toBe('no wrapping at all here');
  });
});

describe('the rules under each turn', () => {
  it('lists the dice and the public changes, never a private field', async () => {
    const cartridge = await lanternmere();
    // biome-ignore lint/suspicious/noExplicitAny: JSON state in a test
    const fight = JSON.parse(JSON.stringify(initialState(cartridge))) as Record<string, any>;
    fight.player.location = 'reedmaze';
    fight.foe = { name: 'bog lurcher', hp: 14, armor: 11, attack_power: 4, damage_dice: '1d6' };
    // The first seed whose attack lands (the seeds are fixed, so this is always the same one).
    let landed: Awaited<ReturnType<typeof runTurnToRecord>>['record'] | undefined;
    for (let seed = 1; landed === undefined && seed < 100; seed++) {
      const played = await runTurnToRecord({
        cartridge,
        state: fight,
        messages: [],
        input: '/attack',
        seed,
        models: null,
      });
      // biome-ignore lint/suspicious/noExplicitAny: JSON state in a test
      if ((played.record.stateAfter as any).foe.hp < 14) landed = played.record;
    }
    if (landed === undefined) throw new Error('no seed below 100 lands a blow');
    const record = landed;
    const lines = describeOutcome(publicOutcome(cartridge.rules, record));
    // Each roll says what it was for. To-hit and damage dice are shown; the attack bonus and both armours
    // are private (named as a modifier, never valued); the creature's damage dice are private: total only.
    const hitOrMiss = (passed: boolean | undefined) => (passed ? 'hit' : 'miss');
    expect(lines.slice(0, record.rolls.length)).toEqual(
      record.rolls.map((r) => {
        switch (r.label?.macro) {
          case 'player_attack_roll':
            return `player attack roll 1d20 + modifier: ${r.total} — ${hitOrMiss(r.label.check?.passed)}`;
          case 'hook_damage':
            return `hook damage 1d6+1: ${r.total} + 1 = ${r.total + 1}`;
          case 'foe_attack_roll':
            return `foe attack roll 1d20 + modifier: ${r.total} — ${hitOrMiss(r.label.check?.passed)}`;
          case 'foe_damage':
            return `foe damage: ${r.total}`;
          default:
            return `loot 1d6: ${r.total} → ${r.label?.entry}`;
        }
      }),
    );
    expect(lines[0]).toMatch(/^player attack roll 1d20 \+ modifier: \d+ — hit$/);
    expect(lines.join('\n')).not.toMatch(/armor|attack_power|attack_bonus|damage_dice|world turn/);
    // biome-ignore lint/suspicious/noExplicitAny: JSON state in a test
    const hp = (record.stateAfter as any).foe.hp as number;
    expect(lines).toContain(`foe hp 14 → ${hp} (${hp - 14})`);
  });

  it('says what was gained and used, and how much time passed', () => {
    const rules = { schema: { kind: 'domain', children: new Map(), visibility: 'public' } } as never;
    const outcome = publicOutcome(rules, {
      rolls: [{ expr: 'roll(2d4)', dice: '2d4', faces: [3, 1], total: 4 }],
      delta: [
        { op: 'set', path: ['player', 'gold'], before: 20, after: 50 },
        {
          op: 'set',
          path: ['player', 'inventory'],
          before: ['hook', 'brine tonic'],
          after: ['hook', 'lamp oil'],
        },
        { op: 'set', path: ['_pending_interaction'], before: {}, after: { a: 1 } },
      ],
      time: {
        before: '1147-03-09T18:00:00',
        after: '1147-03-09T20:30:00',
        advancedSeconds: 9000,
        mode: 'engine',
      },
    });
    expect(describeOutcome(outcome)).toEqual([
      'roll 2d4: 3 + 1 = 4',
      'player gold 20 → 50 (+30)',
      'player inventory: + lamp oil',
      'player inventory: − brine tonic',
      '2 h 30 min passed (18:00 → 20:30)',
    ]);
  });

  it('shows the clock after alone when the game had no clock before the turn', () => {
    const outcome = {
      rolls: [],
      changes: [],
      more: 0,
      time: { before: '', after: '0001-01-01T00:15:00', seconds: 900 },
    };
    expect(describeOutcome(outcome)).toEqual(['15 min passed (now 00:15)']);
  });

  it(`lists at most ${MAX_OUTCOME_ITEMS} rolls and changes, and counts the rest`, () => {
    const rules = { schema: { kind: 'domain', children: new Map(), visibility: 'public' } } as never;
    const rolls = (n: number) =>
      Array.from({ length: n }, () => ({ expr: 'roll(1d6)', dice: '1d6', faces: [2], total: 2 }));
    const none = { before: '', after: '', advancedSeconds: 0, mode: 'engine' as const };
    const at = publicOutcome(rules, { rolls: rolls(MAX_OUTCOME_ITEMS), delta: [], time: none });
    expect(at.rolls).toHaveLength(MAX_OUTCOME_ITEMS);
    expect(at.more).toBe(0);
    const past = publicOutcome(rules, { rolls: rolls(MAX_OUTCOME_ITEMS + 1), delta: [], time: none });
    expect(past.rolls).toHaveLength(MAX_OUTCOME_ITEMS);
    expect(describeOutcome(past).at(-1)).toBe('… 1 more');
  });
});
