// Narration fidelity check (src/engine/turn/fidelity.ts): the cost of checking one narration of 2,000 characters
// against a Lanternmere turn's facts (public state before and after, the changes, rolls, notes), for prose
// that agrees with them and for prose with contradictions (found and corrected). Target: under 1 ms per
// narration (median). Run alone with `npx tsx bench/fidelity.ts` (one JSON line per row).

import { loadCartridge } from '../src/adapters/files/index.ts';
import { checkNarration, type FidelityFacts } from '../src/engine/turn/fidelity.ts';
import { diffStates, type StateValue, toStateValue } from '../src/core/yare/index.ts';
import { median, percentile, round3 } from './common.ts';

// biome-ignore lint/suspicious/noExplicitAny: a state built field by field for the benchmark
type Loose = Record<string, any>;

const RUNS = 2_000;
const TARGET_MS = 1;

/** Prose of exactly `chars` characters: whole sentences, then neutral words to fill the length. */
function narrationOf(sentences: readonly string[], chars: number): string {
  let text = '';
  for (let i = 0; ; i++) {
    const next = `${sentences[i % sentences.length]} `;
    if (text.length + next.length > chars) break;
    text += next;
  }
  while (text.length < chars) text += 'reeds ';
  return text.slice(0, chars);
}

export async function benchFidelity(): Promise<Array<Record<string, unknown>>> {
  const cartridge = await loadCartridge(new URL('../cartridges/lanternmere', import.meta.url).pathname);
  if (!cartridge.ok) throw new Error('lanternmere does not load');
  const rules = cartridge.cartridge.rules;
  const before = JSON.parse(JSON.stringify(toStateValue(rules.initialState as never))) as Loose;
  const after = JSON.parse(JSON.stringify(before)) as Loose;
  after.player.gold = 15;
  after.player.hp = 19;
  after.player.inventory = [...after.player.inventory, 'brine tonic'];
  after.foe = { ...after.foe, name: 'mire wisp', hp: 3 };
  const facts: FidelityFacts = {
    rules,
    stateBefore: before,
    stateAfter: after,
    delta: diffStates(before as Record<string, StateValue>, after as Record<string, StateValue>),
    rolls: [{ expr: '1d20', dice: '1d20', faces: [13], total: 17 }],
    notes: [
      '[SYSTEM LOG: The wisp strikes for 5 damage.]',
      '[SYSTEM LOG: The player buys a brine tonic for 5 gold.]',
    ],
    advancedSeconds: 1800,
  };
  const clean = narrationOf(
    [
      'The market smells of brine and tallow, and the lanterns sway over the stalls.',
      'You pay 5 gold and pocket the brine tonic; your purse holds 15 gold now.',
      'The mire wisp lashes out and deals 5 damage before it drifts back over the water.',
      'You roll a 17, and the hook bites deep into the pale light.',
      'After 30 minutes of haggling the merchant finally smiles.',
    ],
    2_000,
  );
  const contradicting = narrationOf(
    [
      'The market smells of brine and tallow, and the lanterns sway over the stalls.',
      'You pay 9 gold and pocket the brine tonic; your purse holds 11 gold now.',
      'The mire wisp dies with a hiss as the hook bites deep.',
      'You pick up an eelskin cloak from the stall.',
      'After 3 hours of haggling the merchant finally smiles.',
    ],
    2_000,
  );
  const rows: Array<Record<string, unknown>> = [];
  for (const [name, text] of [
    ['clean', clean],
    ['contradictions', contradicting],
  ] as const) {
    let found = 0;
    for (let i = 0; i < 200; i++) found = checkNarration(text, facts).found.length; // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      checkNarration(text, facts);
      times.push(performance.now() - t0);
    }
    const sorted = [...times].sort((a, b) => a - b);
    rows.push({
      bench: `fidelity.check_2000_chars.${name}`,
      chars: text.length,
      contradictions: found,
      runs: RUNS,
      median_ms: round3(median(times)),
      p95_ms: round3(percentile(sorted, 95)),
      target_ms: TARGET_MS,
      within_target: median(times) < TARGET_MS,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchFidelity()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
