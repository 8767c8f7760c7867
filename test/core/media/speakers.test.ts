// Who can speak a quoted line (src/core/media/speakers.ts): the cartridge's starting entities and the
// session's world (an entity the story introduced), by name and alias, and the lore's headings; a voice set
// for one name of an entity reads the lines given to any of its names.

import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { applyBatch, emptyWorld } from '../../../src/core/ledger/index.ts';
import { castVoices, planSpeech, speakerEntities, speakerNames } from '../../../src/core/media/index.ts';

const YARE = `state_schema:
  player:
    gold: { type: int, default: 5 }
events: {}
ledger:
  world:
    - { event_type: create_entity, entity: hesk, name: Mother Hesk, aliases: [Hesk] }
`;

function cartridge() {
  const loaded = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', YARE],
      ['bot_lore.md', '# Lore\n### Warden Ysolde Marr\nShe keeps the gate.\n'],
    ]),
    'speakers-test',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('; '));
  return loaded.cartridge;
}

describe('speakers', () => {
  it('names the starting entities, the session world’s new ones and the lore’s headings', () => {
    const world = applyBatch(
      emptyWorld(),
      [{ type: 'create_entity', entity: 'tobin', name: 'Tobin Quell', aliases: ['the boy'] }],
      { turn: 1 },
    );
    const c = cartridge();
    expect(speakerEntities(c, world)).toEqual([
      ['Mother Hesk', 'Hesk'],
      ['Tobin Quell', 'the boy'],
    ]);
    expect(speakerNames(c, world)).toEqual([
      'Mother Hesk',
      'Hesk',
      'Tobin Quell',
      'the boy',
      'Warden Ysolde Marr',
    ]);
    expect(speakerNames(c)).toEqual(['Mother Hesk', 'Hesk', 'Warden Ysolde Marr']);

    const voices = castVoices(
      speakerEntities(c, world),
      new Map([
        ['Mother Hesk', 'nova'],
        ['Tobin Quell', 'onyx'],
      ]),
    );
    const plan = planSpeech(
      '"Sit," says Hesk. "Aye," says the boy.',
      { narrator: 'nar', npcs: voices },
      undefined,
      speakerNames(c, world),
    );
    expect(plan.requests.filter((r) => r.speaker.kind === 'npc').map((r) => [r.text, r.voice])).toEqual([
      ['Sit,', 'nova'],
      ['Aye,', 'onyx'],
    ]);
  });
});
