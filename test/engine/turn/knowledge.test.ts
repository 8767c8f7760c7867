// Characters know only what they could know: a fact is learned by those present when it is recorded (or those
// `learned_by` names, plus those it is `told_to`); the NPC brain is shown only what each NPC learned and
// witnessed, and the Narrator what the player character knows plus the public world. Tested by prompt
// content: an NPC absent from the scene where a secret was told never receives it, through any path (its
// knowledge, the world summary, the story messages, lore looked up by the words, World Info keyed on them).
import { describe, expect, it } from 'vitest';
import { applyBatch, getFact, worldFromJson } from '../../../src/core/ledger/index.ts';
import { initialWorld } from '../../../src/engine/turn/index.ts';
import { collect, failure, initialState, promptText, scripted } from './helpers.ts';
import { conditionsCartridge } from './lore-conditions-fixture.ts';

const SECRET = 'key is under the altar stone';
const DEBT = 'owes the fish guild';

function worlds() {
  const cartridge = conditionsCartridge();
  const start = initialWorld(cartridge);
  // Turn 1, in the chapel: Mara tells Wren the secret; Bran is at the market.
  const told = applyBatch(
    start,
    [
      { type: 'set_scene', location: 'chapel', present: ['player', 'mara'] },
      { type: 'add_fact', fact_id: 'secret_key', subject: 'mara', predicate: `says the ${SECRET}` },
      { type: 'add_fact', fact_id: 'bran_debt', subject: 'bran', predicate: DEBT, learned_by: ['bran'] },
      {
        type: 'add_fact',
        fact_id: 'tide',
        predicate: 'the tide is late today',
        learned_by: ['mara'],
        told_to: [],
      },
    ],
    { turn: 1 },
  );
  // Turn 2: Wren walks to the market, where Bran is.
  const market = applyBatch(told, [{ type: 'set_scene', location: 'market', present: ['player', 'bran'] }], {
    turn: 2,
  });
  return { cartridge, start, told, market };
}

const MESSAGES = [
  { role: 'assistant' as const, content: 'The chapel is cold.' },
  { role: 'user' as const, content: 'I ask Mara what she hides.' },
  { role: 'assistant' as const, content: `Mara whispers that the ${SECRET}.` },
  { role: 'user' as const, content: 'I walk to the market.' },
  { role: 'assistant' as const, content: 'Bran waves a mackerel at you.' },
];

describe('who learns a fact', () => {
  it('those present, those learned_by names, and those it is told_to; a fact with no scene is public', () => {
    const { told, start } = worlds();
    expect(getFact(told, 'secret_key')!.knownBy).toEqual(['mara', 'player']);
    expect(getFact(told, 'bran_debt')!.knownBy).toEqual(['bran']);
    expect(getFact(told, 'tide')!.knownBy).toEqual(['mara']);
    const public_ = applyBatch(start, [{ type: 'add_fact', fact_id: 'sky', predicate: 'is grey' }], {
      turn: 1,
    });
    expect(getFact(public_, 'sky')!.knownBy).toBeUndefined();
    const also = applyBatch(
      told,
      [{ type: 'add_fact', fact_id: 'told', predicate: 'the bell is cracked', told_to: ['bran'] }],
      { turn: 2 },
    );
    expect(getFact(also, 'told')!.knownBy).toEqual(['bran', 'mara', 'player']);
    // The knowers survive a save: the world read back from JSON equals the live one.
    const read = worldFromJson(JSON.parse(JSON.stringify(also)));
    if (!read.ok) throw new Error(read.message);
    expect(getFact(read.world, 'told')!.knownBy).toEqual(['bran', 'mara', 'player']);
    // A stored world with a malformed knower list is refused, not read.
    const bad = JSON.parse(JSON.stringify(also)) as {
      facts: Record<string, Record<string, { knownBy?: unknown }>>;
    };
    for (const bucket of Object.values(bad.facts)) if (bucket.told) bucket.told.knownBy = ['Not A Key'];
    expect(worldFromJson(bad).ok).toBe(false);
  });
});

describe('knows() in a lore condition', () => {
  it('holds while the entity knows the fact', async () => {
    const { cartridge, told, start } = worlds();
    const { loreVerdicts } = await import('../../../src/engine/turn/index.ts');
    const lore = `# Wren's secret\nwhen: @ knows('player', 'secret_key')\nWren remembers the altar.\n\n# Bran's\nwhen: @ knows('bran', 'secret_key')\nx\n`;
    const c = conditionsCartridge({ 'bot_lore.md': lore });
    const state = initialState(cartridge) as never;
    const held = (w: typeof start) => [...loreVerdicts(c, state, w).sections.values()].map((v) => v.held);
    expect(held(told)).toEqual([true, false]);
    expect(held(start)).toEqual([false, false]);
  });
});

describe('the prompts hold only what each one knows', () => {
  it('an absent NPC never receives the secret; the present one and the Narrator get what they know', async () => {
    const { cartridge, market } = worlds();
    const intents = (id: string) => ({
      toolCalls: [
        {
          name: 'npc_intents',
          args: { intents: [{ npc_id: id, dialogue: '…', action_intent: 'wait', internal_monologue: '…' }] },
        },
      ],
    });
    const models = scripted({
      director: [
        {
          toolCalls: [
            { name: 'lore_lookup', args: { queries: ['altar'] } },
            {
              name: 'query_npc_intent',
              args: { present_npcs: [{ id: 'mara' }, { id: 'bran' }], scene_context: 'At the market.' },
            },
          ],
        },
        { text: '### 1. Outcomes\nBran shrugs.' },
      ],
      npc: [intents('mara'), intents('bran')],
      narrator: [{ text: 'Bran shrugs.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      world: market,
      ledgerTurn: 3,
      messages: MESSAGES,
      input: 'I ask Bran about the altar',
      seed: 1,
      models,
      ledgerMode: 'off',
    });
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([
      ['lore_lookup', true],
      ['query_npc_intent', true],
    ]);
    // Mara and Bran learned different things: two NPC calls.
    expect(models.npc.requests).toHaveLength(2);
    const [mara, bran] = models.npc.requests.map(promptText);
    expect(mara).toContain('Give the intents of: mara.');
    expect(bran).toContain('Give the intents of: bran.');

    // Bran was at the market when the secret was told: not in his knowledge, not in the story he is shown.
    expect(bran).not.toContain(SECRET);
    expect(bran).not.toContain('secret_key');
    expect(bran).toContain(DEBT);
    expect(bran).toContain('Bran waves a mackerel'); // the turn he was there for
    // He hears the player ask about the altar now, so the altar lore and World Info are his to know.
    expect(bran).toContain('old oak over a stone plinth');
    expect(bran).toContain('hollow steps');

    // Mara knows the secret (and the tide), not Bran's debt; she is not at the market, so she is shown no
    // story messages and no lore or World Info the story's words brought up.
    expect(mara).toContain(SECRET);
    expect(mara).toContain('the tide is late today');
    expect(mara).not.toContain(DEBT);
    expect(mara).not.toContain('mackerel');
    expect(mara).not.toContain('ask Bran');
    expect(mara).not.toContain('old oak over a stone plinth');
    expect(mara).not.toContain('hollow steps');

    // The Narrator tells what Wren knows (the secret, told in front of Wren) and the public world; not
    // Bran's debt or Mara's tide, which Wren never learned.
    const narrator = promptText(models.narrator.requests[0]!);
    expect(narrator).toContain(SECRET);
    expect(narrator).not.toContain(DEBT);
    expect(narrator).not.toContain('tide is late');
    // The Director is the game master: it sees the whole world.
    const director = promptText(models.director.requests[0]!);
    expect(director).toContain(DEBT);

    // The receipts say why each NPC call holds what it holds.
    const npcPrompts = record.prompts.filter((p) => p.role === 'npc');
    const history = npcPrompts[0]!.sections.find((s) => s.id === 'history')!;
    expect([history.included, history.items]).toEqual([false, []]);
    const knowledge = npcPrompts[1]!.sections.find((s) => s.id === 'knowledge')!;
    expect(knowledge.items!.map((i) => i.id)).toEqual(['fact:bran_debt']);
  });

  it('a Narrator never shown the secret when the player character was not there', async () => {
    const { cartridge, start } = worlds();
    const away = applyBatch(
      start,
      [
        { type: 'set_scene', location: 'chapel', present: ['mara', 'bran'] },
        { type: 'add_fact', fact_id: 'plot', predicate: `Mara tells Bran the ${SECRET}` },
      ],
      { turn: 1 },
    );
    const models = scripted({ director: [{ text: 'x' }], narrator: [{ text: 'y' }] });
    await collect({
      cartridge,
      state: initialState(cartridge),
      world: away,
      ledgerTurn: 2,
      messages: [],
      input: 'I wait',
      seed: 1,
      models,
      ledgerMode: 'off',
    });
    expect(promptText(models.narrator.requests[0]!)).not.toContain(SECRET);
    expect(promptText(models.director.requests[0]!)).toContain(SECRET);
  });
});

describe('on the offline path', () => {
  // What the player reads offline is told from the rules, the lore in play and the ledger, by no model: no
  // prompt is assembled, so no NPC is shown anything; and the prose never tells what the player character
  // did not learn — through lore in play by a condition on what it knows, the world, or the story.
  const LEDGER_LORE = `# Bran's ledger\nwhen: @ knows('player', 'debt_heard')\nBran ${DEBT}, and the guild wants it back.\n\n# The market\nStalls of fish and lanterns crowd the market square.\n`;

  async function offline(input: string, world: ReturnType<typeof worlds>['market']) {
    const cartridge = conditionsCartridge({ 'bot_lore.md': LEDGER_LORE });
    const options = {
      cartridge,
      state: initialState(cartridge),
      world,
      ledgerTurn: 3,
      messages: MESSAGES,
      input,
      seed: 1,
      models: null,
    };
    try {
      const { record } = await collect(options);
      expect(record.prompts).toEqual([]);
      return record.narration;
    } catch {
      // A free action or a question spends no turn: the answer is the turn's error message.
      const { error } = await failure(options);
      return (error as Error).message;
    }
  }

  it('never tells what the player character did not learn; tells it once they have', async () => {
    const { market } = worlds();
    const said: string[] = [];
    for (const input of [
      'look around',
      "examine Bran's ledger",
      'examine bran',
      'examine mara',
      'what can I do here',
      '/linger',
      '/help',
    ])
      said.push(await offline(input, market));
    const all = said.join('\n');
    expect(all).toContain('Stalls of fish'); // the lore in play is told
    expect(all).not.toContain(DEBT); // Bran's debt: learned by Bran alone
    expect(all).not.toContain('tide is late'); // learned by Mara alone
    expect(all).not.toContain('when:');
    // Told to the player character, the debt is theirs to know, and the section is in play.
    const knows = applyBatch(
      market,
      [{ type: 'add_fact', fact_id: 'debt_heard', predicate: 'heard of the debt', told_to: ['player'] }],
      { turn: 3 },
    );
    expect(await offline("examine Bran's ledger", knows)).toContain(DEBT);
  });
});
