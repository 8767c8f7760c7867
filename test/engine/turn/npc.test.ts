// The NPC brain's selection (credit scoring, threshold, batch size) and its checked structured output.
import { describe, expect, it } from 'vitest';
import { selectNpcs } from '../../../src/engine/turn/npc.ts';
import { rulesOf } from '../../helpers/yare.ts';
import { collect, initialState, lanternmere, scripted } from './helpers.ts';

function rules(settings: string, templates: string) {
  return rulesOf(`${settings}\nnpc_templates:\n${templates}`);
}

const ids = (selected: { id: string }[]) => selected.map((s) => s.id);

describe('selectNpcs', () => {
  const templates = `
  boss: { type: name, description: "The boss.", credit: 10 }
  minion: { type: tag, description: "A minion.", credit: 2 }
  orc: { type: tag, description: "An orc.", credit: 3 }
  brute: { type: tag, description: "A brute.", credit: 3 }
  sage: { type: name, description: "A sage without credit." }
`;

  it('keeps NPCs at or above the threshold (default 5) and drops the rest', () => {
    const r = rules('', templates);
    expect(r.engineSettings).toEqual({ npcMinCreditThreshold: 5, maxBatchedNpcs: 3 });
    expect(
      ids(
        selectNpcs(r, [
          { id: 'b', template: 'boss' },
          { id: 'm', tags: ['minion'] },
        ]),
      ),
    ).toEqual(['b']);
  });

  it('adds template and tag credits: 3 + 3 qualifies, 3 alone does not', () => {
    const r = rules('', templates);
    expect(
      ids(
        selectNpcs(r, [
          { id: 'two', tags: ['orc', 'brute'] },
          { id: 'one', tags: ['orc'] },
        ]),
      ),
    ).toEqual(['two']);
    // A repeated tag counts once.
    expect(ids(selectNpcs(r, [{ id: 'x', tags: ['orc', 'orc'] }]))).toEqual([]);
  });

  it('keeps the best max_batched_npcs, stable among equal scores', () => {
    const r = rules('engine_settings: { max_batched_npcs: 3 }', templates);
    const present = [
      { id: 'e', tags: ['orc', 'minion'] },
      { id: 'a', template: 'boss' },
      { id: 'b', template: 'boss' },
      { id: 'c', template: 'boss' },
    ];
    expect(ids(selectNpcs(r, present))).toEqual(['a', 'b', 'c']);
  });

  it('treats a template without credit as meeting the threshold', () => {
    const r = rules('engine_settings: { npc_min_credit_threshold: 7 }', templates);
    expect(ids(selectNpcs(r, [{ id: 's', template: 'sage' }]))).toEqual(['s']);
  });

  it('takes a bare id naming a type-name template as that template, and writes one profile line each', () => {
    const r = rules('', templates);
    expect(selectNpcs(r, [{ id: 'boss' }, { id: 'nobody' }])).toEqual([
      { id: 'boss', score: 10, profile: 'NPC: boss | Profile: The boss.' },
    ]);
  });

  it('with a threshold of 0 keeps unknown characters with a fallback profile', () => {
    const r = rules('engine_settings: { npc_min_credit_threshold: 0 }', templates);
    expect(selectNpcs(r, [{ id: 'stranger' }])[0]?.profile).toBe('NPC: stranger | Profile: NPC id=stranger');
  });
});

describe('the NPC answer', () => {
  it('is checked against its schema; an invalid answer is an error for the Director, not for the turn', async () => {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [
        {
          toolCalls: [
            { name: 'query_npc_intent', args: { present_npcs: [{ id: 'mother_hesk' }], scene_context: 'x' } },
          ],
        },
        { text: '### 1. Outcomes\nfine' },
      ],
      npc: [
        { toolCalls: [{ name: 'npc_intents', args: { intents: [{ npc_id: 'mother_hesk', dialogue: 7 }] } }] },
      ],
      narrator: [{ text: '.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'hello',
      seed: 1,
      models,
    });
    expect(record.tools[0]!.ok).toBe(false);
    expect(record.tools[0]!.content).toMatch(
      /NPC brain gave an invalid answer .*'intents\.0\.dialogue' must be a string/,
    );
    expect(record.usage.npc.calls).toBe(1);
    expect(record.narration).toBe('.');
    // It was asked with a forced structured-output tool.
    expect(models.npc.requests[0]!.toolChoice).toEqual({ tool: 'npc_intents' });
    expect(models.npc.requests[0]!.system).toContain('Keeper of the Tallow Rest');
  });
});
