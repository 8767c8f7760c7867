// The Director's free text (the scene context and guidance it gives the NPC brain, the scene directives it
// gives the Narrator) reaches each reader without what that reader may not know, copied out: a value of a
// field it may not see, the words of a fact it never learned. Tested by prompt content.
import { describe, expect, it } from 'vitest';
import { applyBatch } from '../../../src/core/ledger/index.ts';
import { MIN_SECRET_CHARS, MIN_SECRET_NUMBER } from '../../../src/engine/turn/director-text.ts';
import { SecretPhrases } from '../../../src/engine/turn/secret-phrases.ts';
import { initialWorld } from '../../../src/engine/turn/index.ts';
import { collect, initialState, type Loose, plain, promptText, scripted } from './helpers.ts';
import { CONDITIONS_YARE, conditionsCartridge } from './lore-conditions-fixture.ts';

const PASSWORD = 'moonlit orchard';
const DEBT = 'owes the fish guild';
const TIDE = 'the tide is late today';
const COMBINATION = 4471;

/** The chapel cartridge with a private password and combination, and an NPC-visible private bell count. */
function cartridge() {
  return conditionsCartridge({
    'yare.yaml': CONDITIONS_YARE.replace(
      '    cult_awake: { type: bool, default: false }',
      [
        '    cult_awake: { type: bool, default: false }',
        `    password: { type: string, default: "${PASSWORD}" }`,
        `    combination: { type: int, default: ${COMBINATION} }`,
        '    bell_rope: { type: string, default: "frayed hemp", npc_visibility: true }',
      ].join('\n'),
    ),
  });
}

function world(c: ReturnType<typeof cartridge>) {
  return applyBatch(
    initialWorld(c),
    [
      // Recorded before there is a scene: public, known to everyone.
      { type: 'add_fact', fact_id: 'stalls', predicate: 'the stalls open at dawn' },
      { type: 'set_scene', location: 'market', present: ['player', 'bran'] },
      { type: 'add_fact', fact_id: 'bran_debt', subject: 'bran', predicate: DEBT, learned_by: ['bran'] },
      { type: 'add_fact', fact_id: 'tide', predicate: TIDE, learned_by: ['mara'], told_to: [] },
    ],
    { turn: 1 },
  );
}

const intents = (id: string) => ({
  toolCalls: [
    {
      name: 'npc_intents',
      args: { intents: [{ npc_id: id, dialogue: '…', action_intent: 'wait', internal_monologue: '…' }] },
    },
  ],
});

describe("the Director's free text", () => {
  it('reaches each NPC call and the Narrator without what that reader may not know', async () => {
    const c = cartridge();
    const said = `Bran ${DEBT}; Mara knows ${TIDE}. The password is ${PASSWORD.toUpperCase()}, the combination ${COMBINATION}, the rope frayed hemp; the stalls open at dawn.`;
    const models = scripted({
      director: [
        {
          toolCalls: [
            {
              name: 'query_npc_intent',
              args: {
                present_npcs: [{ id: 'mara' }, { id: 'bran' }],
                scene_context: said,
                dm_directives: `Never mention ${COMBINATION}.`,
              },
            },
          ],
        },
        { text: `### 1. Outcomes\n${said}` },
      ],
      npc: [intents('mara'), intents('bran')],
      narrator: [{ text: 'Bran shrugs.' }],
    });
    const state = plain(initialState(c)) as Loose;
    const { record } = await collect({
      cartridge: c,
      state,
      world: world(c),
      ledgerTurn: 2,
      messages: [],
      input: 'I talk to Bran',
      seed: 1,
      models,
      ledgerMode: 'off',
    });
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([['query_npc_intent', true]]);
    const [mara, bran] = models.npc.requests.map(promptText);
    const situation = (prompt: string) => prompt.slice(prompt.indexOf('--- THE SITUATION ---'));
    // Mara learned the tide, not Bran's debt; neither NPC sees the private password or combination, both see
    // the NPC-visible rope; the public fact stays.
    expect(situation(mara!)).toContain(TIDE);
    expect(situation(mara!)).toContain('Bran (hidden); Mara knows the tide');
    expect(situation(mara!)).not.toContain(DEBT);
    expect(situation(bran!)).toContain(DEBT);
    expect(situation(bran!)).not.toContain(TIDE);
    for (const npc of [mara!, bran!]) {
      expect(npc.toLowerCase()).not.toContain(PASSWORD);
      expect(npc).not.toContain(String(COMBINATION));
      expect(npc).toContain('Never mention (hidden).');
      expect(situation(npc)).toContain('the rope frayed hemp');
      expect(situation(npc)).toContain('the stalls open at dawn');
    }
    // The Narrator tells what Wren knows: neither the debt nor the tide (learned by others), no private value.
    const narrator = promptText(models.narrator.requests[0]!);
    const directives = narrator.slice(narrator.indexOf("--- DIRECTOR'S SCENE DIRECTIVES ---"));
    expect(directives).toContain(
      'Bran (hidden); Mara knows the (hidden). The password is (hidden), the combination (hidden), the rope (hidden); the stalls open at dawn.',
    );
    expect(narrator.toLowerCase()).not.toContain(PASSWORD);
    expect(narrator).not.toContain(DEBT);
    expect(narrator).not.toContain(TIDE);
    // The Director wrote them, and the record keeps what it wrote.
    expect(record.directives).toContain(DEBT);
  });

  it(`hides values of ${MIN_SECRET_CHARS} characters or more and numbers from ${MIN_SECRET_NUMBER}, as whole words`, () => {
    const secrets = new SecretPhrases(100);
    for (const secret of ['moonlit orchard', 'abcde', '4471']) secrets.add(secret);
    expect(secrets.hide('The MOONLIT Orchard, abcde and 4471.')).toBe('The (hidden), (hidden) and (hidden).');
    // Inside a longer word or number it is another word.
    expect(secrets.hide('abcdefg 44710 x4471')).toBe('abcdefg 44710 x4471');
    expect(secrets.hide('')).toBe('');
  });
});
