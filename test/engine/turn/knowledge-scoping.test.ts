// Knowledge scoping without holes (docs/ledger.md, "Free text a character reads"): what a character does not
// know reaches its prompt through no free text — the Director's words, the lore, World Info, the story
// history, the world summary — not by count (210 newer facts than the secrets, past the old cap of 200), not
// by part of a predicate ("the cracked third stair"), not by a short value ("Q7Z"). The one who knows sees
// it. At MAX_SECRET_FACTS_SCANNED current facts the text is scoped; one past it the free text is left out;
// the phrase index's bound is tested at and past MAX_SECRET_PHRASES. Tested by prompt content.

import { describe, expect, it } from 'vitest';
import { applyBatch, type LedgerEvent, type World } from '../../../src/core/ledger/index.ts';
import {
  LEFT_OUT_TEXT,
  MAX_SECRET_FACTS_SCANNED,
  MAX_SECRET_PHRASES,
} from '../../../src/engine/turn/director-text.ts';
import { initialWorld } from '../../../src/engine/turn/index.ts';
import { phrasesOf, SecretPhrases } from '../../../src/engine/turn/secret-phrases.ts';
import { collect, initialState, promptText, scripted } from './helpers.ts';
import { conditionsCartridge } from './lore-conditions-fixture.ts';

const VAULT = 'the vault key lies beneath the cracked third stair';
const PART = 'the cracked third stair';
const TRAITOR = 'the abbot betrayed the order to the crown';
const CODE = 'Q7Z';

const LORE = `# The old stair
Old tales say ${PART} creaks at night.

# The cloister
when: @ not state.world.night
The cloister is quiet; some whisper that ${TRAITOR}.
`;

const WORLD_INFO = JSON.stringify({
  entries: {
    '0': {
      uid: 0,
      key: ['stair'],
      content: `Door codes like ${CODE} are carved by ${PART}.`,
      comment: 'stair',
    },
  },
});

function cartridge() {
  return conditionsCartridge({ 'bot_lore.md': LORE, 'world_info.json': WORLD_INFO });
}

/** Facts in batches of the ledger's batch size. */
function withFacts(world: World, events: readonly LedgerEvent[], turn: number): World {
  let out = world;
  for (let i = 0; i < events.length; i += 32) out = applyBatch(out, events.slice(i, i + 32), { turn });
  return out;
}

const filler = (n: number, learnedBy: string[]) =>
  Array.from(
    { length: n },
    (_, i): LedgerEvent => ({
      type: 'add_fact',
      fact_id: `filler_${i}`,
      predicate: `mara counted candle${i} in the nave`,
      learned_by: learnedBy,
    }),
  );

/**
 * Mara learns three secrets alone in the chapel, then 210 newer facts (past the old cap of 200); the abbot's
 * status copies one. Wren (the player) and Bran are at the market, where the turn is played.
 */
function world(extra = 210): World {
  const c = cartridge();
  const secrets = applyBatch(
    initialWorld(c),
    [
      { type: 'set_scene', location: 'chapel', present: ['mara'] },
      { type: 'add_fact', fact_id: 'vault', predicate: VAULT, learned_by: ['mara'] },
      { type: 'add_fact', fact_id: 'code', predicate: 'the door code is', value: CODE, learned_by: ['mara'] },
      { type: 'add_fact', fact_id: 'traitor', predicate: TRAITOR, learned_by: ['mara'] },
      { type: 'create_entity', entity: 'abbot', name: 'The Abbot' },
      { type: 'set_entity_status', entity: 'abbot', status: `rumoured: ${TRAITOR}` },
    ],
    { turn: 1 },
  );
  const crowded = withFacts(secrets, filler(extra, ['mara']), 1);
  return applyBatch(
    crowded,
    [{ type: 'set_scene', location: 'market', present: ['player', 'bran', 'mara', 'abbot'] }],
    { turn: 2 },
  );
}

const HISTORY = [
  { role: 'user' as const, content: 'I ask about the stair.' },
  { role: 'assistant' as const, content: `Someone mutters that ${VAULT}, and that ${TRAITOR}.` },
];

const intents = (id: string) => ({
  toolCalls: [
    {
      name: 'npc_intents',
      args: { intents: [{ npc_id: id, dialogue: '…', action_intent: 'wait', internal_monologue: '…' }] },
    },
  ],
});

/** One turn at the market: the Director copies every secret to both NPCs and to the Narrator. */
async function play(w: World) {
  const said = `Word for word: ${VAULT}; ${TRAITOR}; the door code is ${CODE}. In part: ${PART}. The stalls open.`;
  const models = scripted({
    director: [
      {
        toolCalls: [
          { name: 'lore_lookup', args: { queries: ['stair', 'cloister'] } },
          {
            name: 'query_npc_intent',
            args: { present_npcs: [{ id: 'mara' }, { id: 'bran' }], scene_context: said, history_turns: 2 },
          },
        ],
      },
      { text: `### 1. Outcomes\n${said}` },
    ],
    npc: [intents('mara'), intents('bran')],
    narrator: [{ text: 'The market hums.' }],
  });
  const c = cartridge();
  const { record } = await collect({
    cartridge: c,
    state: initialState(c),
    world: w,
    ledgerTurn: 3,
    messages: HISTORY,
    input: 'I ask Bran about the stair and the cloister',
    seed: 1,
    models,
    ledgerMode: 'inline',
  });
  const byCast = (id: string) =>
    models.npc.requests.map(promptText).find((p) => p.includes(`Give the intents of: ${id}.`))!;
  // The Narrator's prompt without the player's own history (the story the player read: the player
  // character's, sent as it was shown; docs/ledger.md).
  let narrator = promptText(models.narrator.requests[0]!);
  for (const message of HISTORY) narrator = narrator.replaceAll(message.content, '');
  return { record, mara: byCast('mara'), bran: byCast('bran'), narrator };
}

/** Every form of the three secrets a reader who does not know them must never be shown. */
const LEAKS = [VAULT, TRAITOR, PART, 'cracked third', 'third stair', 'abbot betrayed', CODE, 'q7z'];

function expectNoSecret(prompt: string, who: string) {
  const lower = prompt.toLowerCase();
  for (const leak of LEAKS) expect(lower.includes(leak.toLowerCase()), `${who}: ${leak}`).toBe(false);
}

describe('a character who was not there', () => {
  it('is shown none of it, through any text, with 210 newer facts; the one who knows is', async () => {
    const { record, mara, bran, narrator } = await play(world());
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([
      ['lore_lookup', true],
      ['query_npc_intent', true],
    ]);
    expectNoSecret(bran, 'Bran');
    expectNoSecret(narrator, 'the Narrator');
    // Each text still reaches Bran, with the secrets hidden: the lore, World Info, history and the Director's.
    expect(bran).toContain('Old tales say the (hidden) creaks at night.');
    expect(bran).toContain('Door codes like (hidden) are carved by the (hidden).');
    expect(bran).toContain('Someone mutters that the (hidden), and that the (hidden).');
    // "door code" is a pair of the code's own predicate ("the door code is"): hidden too.
    expect(bran).toContain(
      'Word for word: the (hidden); the (hidden); the (hidden) is (hidden). In part: the (hidden).',
    );
    expect(bran).toContain('The stalls open.');
    // The Narrator's lore in play, World Info, world summary and directives.
    expect(narrator).toContain('The cloister is quiet; some whisper that the (hidden).');
    expect(narrator).toContain('Door codes like (hidden)');
    expect(narrator).toContain('rumoured: the (hidden)');
    expect(narrator).toContain('In part: the (hidden).');
    // Mara learned all three: she is shown them (her facts, and the Director's words unhidden).
    expect(mara).toContain(VAULT);
    expect(mara).toContain(`the door code is ${CODE}`);
    expect(mara).toContain(`In part: ${PART}.`);
    // The Director wrote them, and the record keeps what it wrote.
    expect(record.directives).toContain(PART);
  });

  it(`at ${MAX_SECRET_FACTS_SCANNED} current facts the text is scoped; one more and it is left out`, async () => {
    const base = world(0);
    const current = (w: World) => Object.values(w.facts).flatMap((b) => Object.values(b)).length;
    const at = withFacts(base, filler(MAX_SECRET_FACTS_SCANNED - current(base), ['mara']), 2);
    expect(current(at)).toBe(MAX_SECRET_FACTS_SCANNED);
    const scoped = await play(at);
    expectNoSecret(scoped.bran, 'Bran');
    expect(scoped.bran).toContain('In part: the (hidden).');
    expect(scoped.bran).toContain('Old tales say the (hidden)');
    expect(scoped.bran).not.toContain(LEFT_OUT_TEXT);

    const past = withFacts(at, [{ type: 'add_fact', fact_id: 'one_more', predicate: 'one more fact' }], 3);
    const left = await play(past);
    expectNoSecret(left.bran, 'Bran');
    expectNoSecret(left.narrator, 'the Narrator');
    expect(left.bran).toContain(LEFT_OUT_TEXT);
    expect(left.bran).not.toContain('Old tales say');
    expect(left.bran).not.toContain('Someone mutters');
    const bransLore = left.record.prompts
      .filter((p) => p.role === 'npc')
      .map((p) => p.sections.find((s) => s.id === 'lore')!)
      .find((s) => s.reason.startsWith('left out'));
    expect(bransLore?.reason).toContain('(MAX_SECRET_FACTS_SCANNED)');
    expect(bransLore?.included).toBe(false);
    expect(left.narrator).toContain(LEFT_OUT_TEXT);
  }, 120_000);
});

describe('the phrase rule', () => {
  it('pairs of consecutive content words, or the one content word; stop words and single characters skipped', () => {
    expect(phrasesOf(VAULT)).toEqual([
      'vault key',
      'key lies',
      'lies cracked',
      'cracked third',
      'third stair',
    ]);
    expect(phrasesOf('Q7Z')).toEqual(['q7z']);
    expect(phrasesOf('7')).toEqual([]);
    expect(phrasesOf('42')).toEqual(['42']);
    expect(phrasesOf('the of it')).toEqual([]);
  });

  it('hides a copy whole, in part and in another case; leaves a single common word of a longer secret', () => {
    const secrets = new SecretPhrases(100);
    secrets.add(VAULT);
    secrets.add(CODE);
    expect(secrets.hide(`THE CRACKED THIRD STAIR; q7z; the stair; a third cup; Q7Za`)).toBe(
      'THE (hidden); (hidden); the stair; a third cup; Q7Za',
    );
  });

  it('a phrase the reader knows is never hidden', () => {
    const secrets = new SecretPhrases(100);
    secrets.add('the altar stone hides the key');
    secrets.add('the altar stone is cracked', true);
    expect(secrets.hide('the altar stone hides the key')).toBe('the altar (hidden)');
  });

  it(`holds ${MAX_SECRET_PHRASES} phrases; one more marks it over (its text is then left out)`, () => {
    const secrets = new SecretPhrases(MAX_SECRET_PHRASES);
    for (let i = 0; i < MAX_SECRET_PHRASES; i++) secrets.add(`w${i}`);
    expect(secrets.size).toBe(MAX_SECRET_PHRASES);
    expect(secrets.over).toBe(false);
    secrets.add('w0'); // a phrase already there costs nothing
    expect(secrets.over).toBe(false);
    secrets.add('w_past');
    expect(secrets.over).toBe(true);
  });
});
