// A scripted game of 32 turns across two scenes (the tavern, then the old mill): facts are added and
// invalidated, the iron key changes hands twice, a relationship ends, a thread resolves. Every batch goes
// through the validator and the index, as the turn layer will do; stateAt is checked at several turns.
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  currentFacts,
  entityHistory,
  factsValidAt,
  foldLog,
  getFact,
  LedgerIndex,
  proposeBatch,
  relationshipTimeline,
  summarizeWorld,
  threads,
  validateLedgerSection,
} from '../../../src/core/ledger/index.ts';
import { statePathsOf } from './helpers.ts';

const section = validateLedgerSection(
  {
    attributes: {
      mood: { type: 'string', enum: ['calm', 'wary', 'angry', 'relieved'] },
      trust: { type: 'int', min: 0, max: 10, max_change: 3 },
    },
    threads: { missing_miller: { requires: [{ fact: 'miller_found' }] } },
    world: [
      { event_type: 'create_entity', entity: 'player', name: 'Wren', entity_type: 'person' },
      {
        event_type: 'create_entity',
        entity: 'mara',
        name: 'Mara',
        entity_type: 'person',
        aliases: ['the innkeeper'],
      },
      { event_type: 'create_entity', entity: 'tavern', name: 'The Crooked Lantern', entity_type: 'place' },
      { event_type: 'create_entity', entity: 'mill', name: 'The Old Mill', entity_type: 'place' },
      { event_type: 'create_entity', entity: 'iron_key', name: 'Iron key', entity_type: 'item' },
      { event_type: 'set_possession', item: 'iron_key', owner: 'mara' },
      { event_type: 'set_current_location', entity: 'player', location: 'tavern' },
      { event_type: 'set_current_location', entity: 'mara', location: 'tavern' },
      {
        event_type: 'set_scene',
        summary: 'Rain on the tavern windows',
        location: 'tavern',
        present: ['player', 'mara'],
      },
    ],
  },
  { statePaths: statePathsOf({ player: { hp: { type: 'int' }, gold: { type: 'int' } } }) },
);

type Wire = Record<string, unknown>;
const attr = (entity: string, attribute: string, value: unknown): Wire => ({
  event_type: 'set_entity_attribute',
  entity,
  attribute,
  value,
});

// Turn → batch. Turns without an entry commit an empty batch (prose only).
const SCRIPT: Record<number, Wire[]> = {
  1: [
    attr('mara', 'mood', 'wary'),
    { event_type: 'open_story_thread', thread: 'missing_miller', title: 'The miller has gone missing' },
  ],
  2: [
    {
      event_type: 'add_fact',
      fact_id: 'miller_at_mill',
      subject: 'mara',
      predicate: 'believes the miller is hiding at the mill',
    },
  ],
  3: [
    attr('mara', 'trust', 2),
    { event_type: 'add_relationship', source: 'mara', target: 'player', relationship: 'confides in' },
  ],
  5: [attr('mara', 'trust', 5)],
  6: [{ event_type: 'set_possession', item: 'iron_key', owner: 'player' }], // first change of hands
  7: [
    {
      event_type: 'add_fact',
      fact_id: 'key_opens_mill',
      subject: 'iron_key',
      predicate: 'opens the mill door',
    },
  ],
  9: [
    { event_type: 'create_entity', entity: 'bram', name: 'Bram', entity_type: 'person' },
    { event_type: 'set_current_location', entity: 'bram', location: 'tavern' },
  ],
  10: [
    {
      event_type: 'set_scene',
      summary: 'Bram the smuggler joins the table',
      location: 'tavern',
      present: ['player', 'mara', 'bram'],
    },
  ],
  11: [{ event_type: 'add_fact', subject: 'bram', predicate: 'claims', object: 'miller_at_mill' }],
  12: [
    attr('mara', 'mood', 'angry'),
    { event_type: 'end_relationship', source: 'mara', target: 'player', relationship: 'confides in' },
  ],
  13: [{ event_type: 'set_entity_conditions', entity: 'player', conditions: ['soaked'] }],
  15: [
    { event_type: 'set_current_location', entity: 'player', location: 'mill' },
    { event_type: 'set_current_location', entity: 'bram', location: 'mill' },
  ],
  16: [
    {
      event_type: 'set_scene',
      summary: 'The mill wheel creaks in the dark',
      location: 'mill',
      present: ['player', 'bram'],
    },
  ],
  17: [{ event_type: 'set_entity_conditions', entity: 'player', conditions: [] }],
  18: [{ event_type: 'invalidate_fact', fact_id: 'miller_at_mill', reason: 'the mill is empty' }],
  19: [
    {
      event_type: 'add_fact',
      fact_id: 'miller_in_cellar',
      subject: 'bram',
      predicate: 'knows the miller is in the cellar',
    },
  ],
  20: [{ event_type: 'set_possession', item: 'iron_key', owner: 'bram' }], // second change of hands
  22: [
    { event_type: 'create_entity', entity: 'miller', name: 'Oswin the miller', entity_type: 'person' },
    { event_type: 'set_current_location', entity: 'miller', location: 'mill' },
  ],
  23: [
    {
      event_type: 'add_fact',
      fact_id: 'miller_found',
      subject: 'miller',
      predicate: 'was found in the cellar',
    },
    { event_type: 'set_entity_status', entity: 'miller', status: 'rescued' },
  ],
  24: [
    {
      event_type: 'resolve_story_thread',
      thread: 'missing_miller',
      resolution: 'Oswin was locked in his own cellar',
    },
  ],
  25: [
    { event_type: 'add_relationship', source: 'miller', target: 'player', relationship: 'owes a debt to' },
  ],
  27: [{ event_type: 'open_story_thread', thread: 'who_locked', title: 'Who locked the cellar?' }],
  28: [{ event_type: 'set_entity_status', entity: 'bram', status: 'suspected' }],
  30: [
    { event_type: 'clear_possession', item: 'iron_key' },
    { event_type: 'set_current_location', entity: 'iron_key', location: 'mill' },
  ],
  32: [
    {
      event_type: 'set_scene',
      summary: 'Dawn over the mill pond',
      location: 'mill',
      present: ['player', 'miller', 'bram'],
    },
  ],
};

function play() {
  if (!section.ok) throw new Error(JSON.stringify(section.issues));
  const { policy, world } = section.value;
  const index = new LedgerIndex({ snapshotInterval: 4 });
  index.append({ turn: 0, gameTime: '1199-03-01T18:00:00', events: world });
  const live = new Map<number, string>([[0, canonicalJson(index.current)]]);
  for (let turn = 1; turn <= 32; turn++) {
    const gameTime = `1199-03-${String(1 + Math.floor(turn / 12)).padStart(2, '0')}T${String(18 + (turn % 6)).padStart(2, '0')}:00:00`;
    const result = proposeBatch(index.current, SCRIPT[turn] ?? [], policy, { at: { turn, gameTime } });
    if (!result.ok) throw new Error(`turn ${turn}: ${JSON.stringify(result.errors)}`);
    index.append({ turn, gameTime, events: result.events });
    expect(canonicalJson(index.current)).toBe(canonicalJson(result.world));
    live.set(turn, canonicalJson(index.current));
  }
  return { index, live, policy };
}

describe('a scripted 32-turn game across two scenes', () => {
  it('commits every turn, and stateAt matches the live world at every turn', () => {
    const { index, live } = play();
    expect(index.length).toBe(33);
    for (const [turn, hash] of live) expect(canonicalJson(index.stateAt(turn))).toBe(hash);
    expect(canonicalJson(foldLog(index.log()))).toBe(live.get(32));
  });

  it('stateAt shows the world as it was: the key in three hands, scenes, mood, facts, ties, threads', () => {
    const { index } = play();
    const at = (t: number) => index.stateAt(t);
    expect([at(5), at(6), at(19), at(20), at(30)].map((w) => w.entities.iron_key!.holder)).toEqual([
      'mara',
      'player',
      'player',
      'bram',
      undefined,
    ]);
    expect(at(30).entities.iron_key!.location).toBe('mill');
    expect(at(14).scene!.location).toBe('tavern');
    expect(at(16).scene!.location).toBe('mill');
    expect(at(11).entities.mara!.attributes.mood).toBe('wary');
    expect(at(12).entities.mara!.attributes.mood).toBe('angry');
    expect(at(13).entities.player!.conditions).toEqual(['soaked']);
    expect(at(17).entities.player!.conditions).toEqual([]);
    expect(factsValidAt(at(17), 17).map((f) => f.id)).toContain('miller_at_mill');
    expect(factsValidAt(at(18), 18).map((f) => f.id)).not.toContain('miller_at_mill');
    expect(getFact(at(32), 'miller_at_mill')!.invalidated).toMatchObject({
      turn: 18,
      reason: 'the mill is empty',
    });
    // Bram's claim (turn 11) points at a fact, not an entity (C03), and survives the withdrawal of its object.
    expect(getFact(at(32), 'f_11_0')).toMatchObject({
      subject: 'bram',
      predicate: 'claims',
      object: 'miller_at_mill',
    });
    expect(relationshipTimeline(at(11), 'mara', 'player')[0]!.periods[0]!.ended).toBeUndefined();
    expect(relationshipTimeline(at(32), 'mara', 'player')[0]!.periods[0]).toMatchObject({
      started: { turn: 3 },
      ended: { turn: 12 },
    });
    expect(threads(at(23), { status: 'open' }).map((t) => t.key)).toEqual(['missing_miller']);
    expect(threads(at(32), { status: 'resolved' })[0]).toMatchObject({
      key: 'missing_miller',
      resolved: { turn: 24 },
    });
    expect(threads(at(32), { status: 'open' }).map((t) => t.key)).toEqual(['who_locked']);
    expect(entityHistory(index.log(), 'iron_key').map((h) => h.turn)).toEqual([0, 0, 6, 7, 20, 30, 30]);
  });

  it('the policy held during play: rules-owned gold, the trust cap and the thread condition', () => {
    const { index, policy } = play();
    const w = index.stateAt(4);
    expect(proposeBatch(w, [attr('player', 'gold', 9999)], policy)).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_RULES_OWNED' }],
    });
    expect(proposeBatch(w, [attr('mara', 'trust', 9)], policy)).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_CHANGE_TOO_LARGE' }],
    });
    const early = index.stateAt(20);
    expect(
      proposeBatch(early, [{ event_type: 'resolve_story_thread', thread: 'missing_miller' }], policy),
    ).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_CONDITIONS_UNMET' }],
    });
  });

  it('the summary at the end leads with the mill scene and the facts about who is there', () => {
    const { index } = play();
    const summary = summarizeWorld(index.current, { tokenBudget: 400 });
    expect(summary.text.split('\n')[0]).toBe(
      'Scene (turn 32) at The Old Mill [mill]: "Dawn over the mill pond"',
    );
    expect(summary.text).toContain('- [who_locked] Who locked the cellar?');
    expect(summary.text).not.toContain('missing_miller');
    expect(summary.included).toMatchObject({ scene: 1, present: 3, threads: 1 });
    expect(currentFacts(index.current).length).toBe(summary.included.facts + summary.dropped.facts);
  });
});
