// What the terminal shows: the spinner (only on a terminal), state changes, and /debug for each kind of
// stored record.

import { describe, expect, it } from 'vitest';
import { formatChanges, formatDebug, formatNotes, MAX_DEBUG_VALUE_CHARS } from '../../src/cli/play/render.ts';
import { createSpinner, SPINNER_FRAMES, SPINNER_INTERVAL_MS } from '../../src/cli/play/spinner.ts';
import { turnRecordOf } from '../../src/session/records.ts';
import { runTurnToRecord } from '../../src/turn/index.ts';
import { initialState, lanternmere, scripted } from '../turn/helpers.ts';

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
    // A refused call shows its arguments and the error the Director got back.
    expect(text).toMatch(/round 1 travel\(\{"destination":"mars"\}\) → error: .*mars/);
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
