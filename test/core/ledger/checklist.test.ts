// One test per rule of the ledger's conformance list (docs/ledger.md) that the pure core implements: event
// types, fields, keys, values, batches, references, the history and replay. Items owned by the turn, session or storage layers are listed in docs/ledger.md.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allFacts,
  applyBatch,
  getFact,
  type LogEntry,
  canonicalJson,
  checkRecordWorldChanges,
  currentFacts,
  DEFAULT_POLICY,
  emptyWorld,
  entityHistory,
  factsValidAt,
  foldLog,
  LedgerApplyError,
  LedgerIndex,
  type LedgerEvent,
  type LedgerPolicy,
  LEDGER_EVENT_TYPES,
  parseToolArguments,
  DEFAULT_LIMITS,
  policyFromStatePaths,
  relationshipTimeline,
  replayLog,
  threads,
  validateBatch,
  validateLedgerSection,
} from '../../../src/core/ledger/index.ts';
import { accepted, codes, given, statePathsOf, town, when } from './helpers.ts';

const mara = { event_type: 'create_entity', entity: 'mara', name: 'Mara' };

describe('A. allowlist, parsing and shape', () => {
  it('an event type outside the table is rejected and nothing in its batch applies', () => {
    const out = when(emptyWorld(), [mara, { event_type: 'execute_shell', command: 'rm -rf /' }]);
    expect(codes(out)).toEqual(['LEDGER_UNKNOWN_EVENT']);
    expect(out.ok || out.errors[0]!.index).toBe(1);
    // Nothing of the batch applies: committed through an index, the valid first event is not there either.
    const index = new LedgerIndex();
    const committed = index.commit(
      [mara, { event_type: 'execute_shell', command: 'rm -rf /' }],
      DEFAULT_POLICY,
      { turn: 1 },
    );
    expect(committed.ok).toBe(false);
    expect(index.log()).toHaveLength(0);
    expect(index.current.entities.mara).toBeUndefined();
    expect(canonicalJson(index.current)).toBe(canonicalJson(emptyWorld()));
  });

  it('plain-object member names as event types are unknown and never crash', () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(codes(when(emptyWorld(), [{ event_type: name }]))).toEqual(['LEDGER_UNKNOWN_EVENT']);
    }
  });

  it('near-miss spellings are unknown: matched byte-exactly, no normalisation', () => {
    for (const name of [
      'Create_Entity',
      ' create_entity',
      'create-entity',
      'сreate_entity',
      'create_entity\u200b',
      'create_entity ',
    ]) {
      expect(codes(when(emptyWorld(), [{ ...mara, event_type: name }]))).toEqual(['LEDGER_UNKNOWN_EVENT']);
    }
  });

  it('a missing, null or non-string event_type is rejected', () => {
    expect(codes(when(emptyWorld(), [{ entity: 'mara', name: 'Mara' }]))).toEqual(['LEDGER_MISSING_FIELD']);
    expect(codes(when(emptyWorld(), [{ ...mara, event_type: null }]))).toEqual(['LEDGER_MISSING_FIELD']);
    for (const bad of [1, true, ['create_entity'], { name: 'create_entity' }]) {
      expect(codes(when(emptyWorld(), [{ ...mara, event_type: bad }]))).toEqual(['LEDGER_BAD_TYPE']);
    }
  });

  it('unknown extra fields are rejected, not ignored', () => {
    const out = when(town(), [{ event_type: 'set_scene', summary: 'x', gold: 9999 }]);
    expect(codes(out)).toEqual(['LEDGER_UNKNOWN_FIELD']);
    expect(!out.ok && out.errors[0]!.field).toBe('gold');
  });

  it('missing required fields are rejected; optional fields absent or null mean the same', () => {
    expect(codes(when(emptyWorld(), [{ event_type: 'create_entity', entity: 'mara' }]))).toEqual([
      'LEDGER_MISSING_FIELD',
    ]);
    expect(codes(when(emptyWorld(), [{ event_type: 'create_entity', entity: 'mara', name: null }]))).toEqual([
      'LEDGER_MISSING_FIELD',
    ]);
    const absent = accepted(when(emptyWorld(), [mara]));
    const nulls = accepted(
      when(emptyWorld(), [{ ...mara, description: null, aliases: null, entity_type: null }]),
    );
    expect(canonicalJson(nulls)).toBe(canonicalJson(absent));
  });

  it('keys match ^[a-z][a-z0-9_]{0,63}$ and are not reserved', () => {
    for (const key of [
      'Mara',
      '10',
      '_x',
      'a-b',
      'a'.repeat(65),
      '',
      'constructor',
      'prototype',
      '__proto__',
    ]) {
      expect(codes(when(emptyWorld(), [{ ...mara, entity: key }]))).toEqual(['LEDGER_BAD_KEY']);
    }
    accepted(when(emptyWorld(), [{ ...mara, entity: `m${'a'.repeat(63)}` }]));
  });

  it('value accepts only a JSON scalar: finite, safe integers', () => {
    const w = town();
    const set = (value: unknown) =>
      when(w, [{ event_type: 'set_entity_attribute', entity: 'mara', attribute: 'mood', value }]);
    expect(codes(set({ $add: 50 }))).toEqual(['LEDGER_NOT_SCALAR']);
    expect(codes(set([1, 2]))).toEqual(['LEDGER_NOT_SCALAR']);
    expect(codes(set(JSON.parse('1e400')))).toEqual(['LEDGER_NON_FINITE']);
    expect(codes(set(JSON.parse('12345678901234567890')))).toEqual(['LEDGER_UNSAFE_INTEGER']);
    for (const ok of ['calm', 3, 2.5, true, null, Number.MAX_SAFE_INTEGER]) accepted(set(ok));
  });

  it('labels: non-empty, ≤ 40 chars, ≤ 16 items; duplicates after NFC are rejected (decided)', () => {
    const w = town();
    const cond = (conditions: unknown) =>
      when(w, [{ event_type: 'set_entity_conditions', entity: 'mara', conditions }]);
    expect(codes(cond(['']))).toEqual(['LEDGER_EMPTY']);
    expect(codes(cond(['x'.repeat(41)]))).toEqual(['LEDGER_TOO_LONG']);
    expect(codes(cond(Array.from({ length: 17 }, (_, i) => `c${i}`)))).toEqual(['LEDGER_TOO_MANY_LABELS']);
    // "é" precomposed and "e" + combining acute are the same label after NFC.
    expect(codes(cond(['caf\u00e9', 'cafe\u0301']))).toEqual(['LEDGER_DUPLICATE_LABEL']);
    accepted(cond(['x'.repeat(40)]));
  });

  it('text fields have maximum lengths; longer is rejected, not truncated', () => {
    expect(codes(when(emptyWorld(), [{ ...mara, name: 'M'.repeat(121) }]))).toEqual(['LEDGER_TOO_LONG']);
    expect(codes(when(emptyWorld(), [{ ...mara, description: 'd'.repeat(2001) }]))).toEqual([
      'LEDGER_TOO_LONG',
    ]);
    const w = accepted(when(emptyWorld(), [{ ...mara, description: 'd'.repeat(2000) }]));
    expect(w.entities.mara!.description).toHaveLength(2000);
  });

  it('text rejects C0 controls (newline only in prose), bidi overrides, zero-width and tag characters', () => {
    for (const name of [
      'a\u0000b',
      'a\tb',
      'a\nb',
      'a\u202eb',
      'a\u200bb',
      'a\u{E0041}b',
      'a\u2066b',
      'a\ufeffb',
    ]) {
      expect(codes(when(emptyWorld(), [{ ...mara, name }]))).toEqual(['LEDGER_CONTROL_CHAR']);
    }
    accepted(when(emptyWorld(), [{ ...mara, description: 'line one\nline two' }]));
    expect(codes(when(emptyWorld(), [{ ...mara, description: 'a\r\nb' }]))).toEqual(['LEDGER_CONTROL_CHAR']);
  });

  it('tool arguments must be one JSON object: no double encoding, truncation, duplicate keys, depth > 8, > 64 KiB', () => {
    const w = emptyWorld();
    const args = (text: string) => checkRecordWorldChanges(w, text, DEFAULT_POLICY);
    const first = (r: ReturnType<typeof args>) => (r.ok ? 'ok' : r.errors[0]!.code);
    expect(first(args(JSON.stringify(JSON.stringify({ events: [] }))))).toBe('LEDGER_NOT_OBJECT');
    expect(first(args('{"events": [{"event_type": "create_entity"'))).toBe('LEDGER_NOT_JSON');
    expect(first(args('{"events": [{"event_type": "add_fact", "event_type": "execute_shell"}]}'))).toBe(
      'LEDGER_DUPLICATE_KEY',
    );
    expect(first(args(`{"events": ${'['.repeat(8)}${']'.repeat(8)}}`))).toBe('LEDGER_TOO_DEEP');
    expect(first(args(`{"events": [], "x": "${'a'.repeat(64 * 1024)}"}`))).toBe('LEDGER_TOO_BIG');
    expect(first(args(JSON.stringify({ events: [mara] })))).toBe('ok');
  });

  it('a batch larger than 32 events is rejected whole', () => {
    const batch = Array.from({ length: 33 }, (_, i) => ({ ...mara, entity: `e${i}` }));
    expect(codes(when(emptyWorld(), batch))).toEqual(['LEDGER_BATCH_TOO_LARGE']);
    accepted(when(emptyWorld(), batch.slice(0, 32)));
  });
});

describe('B. referential integrity', () => {
  it('create_entity of an existing key (committed or earlier in the batch) is rejected', () => {
    expect(codes(when(town(), [mara]))).toEqual(['LEDGER_DUPLICATE']);
    expect(codes(when(emptyWorld(), [mara, { ...mara, name: 'Mara Two' }]))).toEqual(['LEDGER_DUPLICATE']);
  });

  it('references must exist at that point in the batch; order matters', () => {
    const give = { event_type: 'set_possession', item: 'lamp', owner: 'mara' };
    const lamp = { event_type: 'create_entity', entity: 'lamp', name: 'Lamp' };
    expect(codes(when(emptyWorld(), [mara, give, lamp]))).toEqual(['LEDGER_UNKNOWN_REF']);
    accepted(when(emptyWorld(), [mara, lamp, give]));
  });

  it('add_fact.object resolves to an entity or a fact ; ids and keys share one namespace', () => {
    const w = town();
    accepted(when(w, [{ event_type: 'add_fact', subject: 'mara', predicate: 'knows', object: 'key' }]));
    const c03 = accepted(
      when(w, [
        { event_type: 'add_fact', fact_id: 'key_found', subject: 'key', predicate: 'was found in the well' },
        { event_type: 'add_fact', subject: 'mara', predicate: 'knows', object: 'key_found' },
      ]),
    );
    expect(allFacts(c03).some((f) => f.object === 'key_found')).toBe(true);
    expect(codes(when(w, [{ event_type: 'add_fact', predicate: 'p', object: 'nothing' }]))).toEqual([
      'LEDGER_UNKNOWN_REF',
    ]);
    expect(codes(when(w, [{ event_type: 'add_fact', predicate: 'p', fact_id: 'mara' }]))).toEqual([
      'LEDGER_KEY_COLLISION',
    ]);
    const withFact = accepted(when(w, [{ event_type: 'add_fact', predicate: 'p', fact_id: 'rumour' }]));
    expect(codes(when(withFact, [{ ...mara, entity: 'rumour' }]))).toEqual(['LEDGER_KEY_COLLISION']);
  });

  it('an existing fact_id is rejected; without one the engine assigns f_<turn>_<index>', () => {
    const w = accepted(when(town(), [{ event_type: 'add_fact', predicate: 'p', fact_id: 'a_fact' }]));
    expect(codes(when(w, [{ event_type: 'add_fact', predicate: 'q', fact_id: 'a_fact' }]))).toEqual([
      'LEDGER_DUPLICATE',
    ]);
    const auto = accepted(
      when(
        town(),
        [
          mara && { event_type: 'set_entity_status', entity: 'mara', status: 'ok' },
          { event_type: 'add_fact', predicate: 'q' },
        ],
        DEFAULT_POLICY,
        { at: { turn: 7 } },
      ),
    );
    expect(allFacts(auto).map((f) => f.id)).toEqual(['f_7_1']);
    expect(codes(when(town(), [{ event_type: 'add_fact', predicate: 'q', fact_id: 'f_7_1' }]))).toEqual([
      'LEDGER_BAD_KEY',
    ]);
  });

  it('invalidate_fact on an unknown or already-invalidated fact is rejected', () => {
    const w = accepted(when(town(), [{ event_type: 'add_fact', predicate: 'p', fact_id: 'f3' }]));
    expect(codes(when(w, [{ event_type: 'invalidate_fact', fact_id: 'nope' }]))).toEqual([
      'LEDGER_UNKNOWN_REF',
    ]);
    const inv = { event_type: 'invalidate_fact', fact_id: 'f3' };
    expect(codes(when(w, [inv, inv]))).toEqual(['LEDGER_ALREADY_CLOSED']);
  });

  it('end_relationship needs an active tie; self ties are rejected unless the cartridge allows them', () => {
    const w = town();
    const tie = { source: 'mara', target: 'player', relationship: 'trusts' };
    expect(codes(when(w, [{ event_type: 'end_relationship', ...tie }]))).toEqual(['LEDGER_UNKNOWN_REF']);
    expect(
      codes(
        when(w, [
          { event_type: 'add_relationship', ...tie },
          { event_type: 'end_relationship', ...tie },
          { event_type: 'end_relationship', ...tie },
        ]),
      ),
    ).toEqual(['LEDGER_ALREADY_CLOSED']);
    const self = [{ event_type: 'add_relationship', source: 'mara', target: 'mara', relationship: 'doubts' }];
    expect(codes(when(w, self))).toEqual(['LEDGER_SELF_REFERENCE']);
    accepted(when(w, self, { ...DEFAULT_POLICY, allowSelfRelationships: true }));
  });

  it('opening an existing thread or resolving an unknown or resolved one is rejected', () => {
    const open = { event_type: 'open_story_thread', thread: 'heist', title: 'The heist' };
    const resolve = { event_type: 'resolve_story_thread', thread: 'heist' };
    expect(codes(when(emptyWorld(), [open, open]))).toEqual(['LEDGER_DUPLICATE']);
    expect(codes(when(emptyWorld(), [resolve]))).toEqual(['LEDGER_UNKNOWN_REF']);
    expect(codes(when(emptyWorld(), [open, resolve, resolve]))).toEqual(['LEDGER_ALREADY_CLOSED']);
  });

  it('set_scene.present and location must exist; present has no duplicates', () => {
    const w = town();
    expect(codes(when(w, [{ event_type: 'set_scene', present: ['ghost'] }]))).toEqual(['LEDGER_UNKNOWN_REF']);
    expect(codes(when(w, [{ event_type: 'set_scene', location: 'moon' }]))).toEqual(['LEDGER_UNKNOWN_REF']);
    expect(codes(when(w, [{ event_type: 'set_scene', present: ['mara', 'mara'] }]))).toEqual([
      'LEDGER_DUPLICATE_LABEL',
    ]);
  });
});

describe('C. semantics of absolute events', () => {
  const setMood = { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'mood', value: 'calm' };

  it('setting an attribute twice leaves the same state as once', () => {
    const once = accepted(when(town(), [setMood]));
    const twice = accepted(when(once, [setMood]));
    expect(canonicalJson(twice)).toBe(canonicalJson(once));
  });

  it('"+50" is stored as the string "+50"; 50 stores the number 50', () => {
    const w = accepted(when(town(), [{ ...setMood, attribute: 'trust', value: '+50' }]));
    expect(w.entities.mara!.attributes.trust).toBe('+50');
    const again = accepted(when(w, [{ ...setMood, attribute: 'trust', value: 50 }]));
    expect(again.entities.mara!.attributes.trust).toBe(50);
  });

  it('set_entity_conditions replaces the set', () => {
    const w = accepted(
      when(town(), [
        { event_type: 'set_entity_conditions', entity: 'mara', conditions: ['a', 'b'] },
        { event_type: 'set_entity_conditions', entity: 'mara', conditions: ['c'] },
      ]),
    );
    expect(w.entities.mara!.conditions).toEqual(['c']);
  });

  it('set_possession leaves exactly one owner; clear_possession leaves none', () => {
    const w = accepted(when(town(), [{ event_type: 'set_possession', item: 'key', owner: 'player' }]));
    expect(w.entities.key!.holder).toBe('player');
    expect(Object.values(w.entities).filter((e) => e.key === 'key')).toHaveLength(1);
    const cleared = accepted(when(w, [{ event_type: 'clear_possession', item: 'key' }]));
    expect(cleared.entities.key!.holder).toBeUndefined();
  });

  it('set_current_location and set_scene replace, never merge', () => {
    const w = accepted(
      when(town(), [
        { event_type: 'set_current_location', entity: 'mara', location: 'forge' },
        { event_type: 'set_scene', location: 'forge', present: ['mara'] },
        { event_type: 'set_scene', summary: 'Only a summary' },
      ]),
    );
    expect(w.entities.mara!.location).toBe('forge');
    expect(w.scene).toMatchObject({ summary: 'Only a summary', present: [] });
    expect(w.scene!.location).toBeUndefined();
  });

  it('only create_entity creates; every other event fails on an unknown key', () => {
    const w = town();
    const ghosts: Record<string, unknown>[] = [
      { event_type: 'set_entity_status', entity: 'ghost', status: 'x' },
      { event_type: 'set_entity_attribute', entity: 'ghost', attribute: 'a', value: 1 },
      { event_type: 'set_entity_conditions', entity: 'ghost', conditions: [] },
      { event_type: 'set_current_location', entity: 'ghost', location: 'tavern' },
      { event_type: 'set_possession', item: 'ghost', owner: 'mara' },
      { event_type: 'clear_possession', item: 'ghost' },
      { event_type: 'add_fact', subject: 'ghost', predicate: 'p' },
      { event_type: 'add_relationship', source: 'ghost', target: 'mara', relationship: 'r' },
      { event_type: 'set_scene', present: ['ghost'] },
    ];
    for (const event of ghosts) expect(codes(when(w, [event]))).toEqual(['LEDGER_UNKNOWN_REF']);
  });
});

describe('D. write policy', () => {
  const schema = {
    player: { hp: { type: 'int' }, gold: { type: 'int' } },
    current_location: { type: 'string' },
  };

  it('rules-owned attributes cannot be written by a narrator batch, on any entity', () => {
    const policy = policyFromStatePaths(statePathsOf(schema));
    for (const [entity, attribute] of [
      ['player', 'gold'],
      ['mara', 'gold'],
      ['player', 'hp'],
      ['player', 'player_gold'],
      ['mara', 'current_location'],
      ['mara', 'location'],
    ]) {
      const out = when(
        town(),
        [{ event_type: 'set_entity_attribute', entity, attribute, value: 9999 }],
        policy,
      );
      expect(codes(out)).toEqual(['LEDGER_RULES_OWNED']);
    }
  });

  it('declared attributes are checked for type, range and per-turn change; undeclared follow the policy', () => {
    const section = validateLedgerSection(
      {
        attributes: {
          trust: { type: 'int', min: 0, max: 10, max_change: 3 },
          mood: { type: 'string', enum: ['calm', 'angry'] },
        },
        undeclared_attributes: 'reject',
      },
      { statePaths: statePathsOf(schema) },
    );
    if (!section.ok) throw new Error(JSON.stringify(section.issues));
    const policy = section.value.policy;
    const set = (world: ReturnType<typeof town>, attribute: string, value: unknown) =>
      when(world, [{ event_type: 'set_entity_attribute', entity: 'mara', attribute, value }], policy);
    const w = town(policy);
    expect(codes(set(w, 'trust', 'high'))).toEqual(['LEDGER_ATTRIBUTE_TYPE']);
    expect(codes(set(w, 'trust', 11))).toEqual(['LEDGER_OUT_OF_RANGE']);
    expect(codes(set(w, 'mood', 'happy'))).toEqual(['LEDGER_OUT_OF_RANGE']);
    expect(codes(set(w, 'colour', 'red'))).toEqual(['LEDGER_UNDECLARED_ATTRIBUTE']);
    const three = accepted(set(w, 'trust', 3));
    expect(codes(set(three, 'trust', 7))).toEqual(['LEDGER_CHANGE_TOO_LARGE']);
    accepted(set(three, 'trust', 6));
    // Two writes in one batch cannot leapfrog the cap: both compare with the value before the batch.
    expect(
      codes(
        when(
          three,
          [
            { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'trust', value: 6 },
            { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'trust', value: 9 },
          ],
          policy,
        ),
      ),
    ).toEqual(['LEDGER_CHANGE_TOO_LARGE']);
    accepted(
      when(w, [{ event_type: 'set_entity_attribute', entity: 'mara', attribute: 'colour', value: 'red' }]),
    );
  });

  it('an item reaches the player only from the scene, from a present holder, or when grantable', () => {
    const w = town();
    const give = (item: string) => [{ event_type: 'set_possession', item, owner: 'player' }];
    expect(codes(when(w, give('sword')))).toEqual(['LEDGER_IMPLAUSIBLE']); // at the forge, player in the tavern
    accepted(when(w, give('key'))); // mara holds it and is present
    accepted(when(w, give('sword'), { ...DEFAULT_POLICY, grantableItems: new Set(['sword']) }));
    accepted(when(w, give('sword'), { ...DEFAULT_POLICY, player: null }));
    // Judged on the world as of the batch's start: moving the scene, the item or its holder first in the
    // same batch does not make the grant plausible; the next batch may use what this one did.
    const sceneAtForge = [{ event_type: 'set_scene', location: 'forge', present: ['player'] }];
    expect(codes(when(w, [...sceneAtForge, ...give('sword')]))).toEqual(['LEDGER_IMPLAUSIBLE']);
    expect(
      codes(
        when(w, [
          { event_type: 'set_scene', location: 'tavern', present: ['player', 'sword'] },
          ...give('sword'),
        ]),
      ),
    ).toEqual(['LEDGER_IMPLAUSIBLE']);
    expect(
      codes(
        when(w, [
          { event_type: 'set_current_location', entity: 'sword', location: 'tavern' },
          ...give('sword'),
        ]),
      ),
    ).toEqual(['LEDGER_IMPLAUSIBLE']);
    accepted(when(accepted(when(w, sceneAtForge)), give('sword')));
    // An item the batch creates is judged by where it was created, against the scene as it was.
    const coin = (location: string) => [
      { event_type: 'create_entity', entity: 'coin', name: 'Coin', entity_type: 'item' },
      { event_type: 'set_current_location', entity: 'coin', location },
      ...give('coin'),
    ];
    expect(codes(when(w, coin('forge')))).toEqual(['LEDGER_IMPLAUSIBLE']);
    accepted(when(w, coin('tavern')));
  });

  it('a thread with declared conditions resolves only when they hold in the ledger', () => {
    const section = validateLedgerSection({
      threads: {
        brothers: { requires: [{ fact: 'brothers_found' }, { entity: 'mara', status: 'reunited' }] },
      },
    });
    if (!section.ok) throw new Error('section');
    const policy = section.value.policy;
    const w = given(
      [[mara, { event_type: 'open_story_thread', thread: 'brothers', title: 'Find her brothers' }]],
      policy,
    );
    const resolve = {
      event_type: 'resolve_story_thread',
      thread: 'brothers',
      resolution: '(quest complete)',
    };
    expect(codes(when(w, [resolve], policy))).toEqual(['LEDGER_CONDITIONS_UNMET']);
    expect(
      codes(
        when(w, [{ event_type: 'add_fact', fact_id: 'brothers_found', predicate: 'found' }, resolve], policy),
      ),
    ).toEqual(['LEDGER_CONDITIONS_UNMET']);
    // Conditions are read as of the batch's start: establishing them in the same batch does not count.
    const establish = [
      { event_type: 'add_fact', fact_id: 'brothers_found', predicate: 'found' },
      { event_type: 'set_entity_status', entity: 'mara', status: 'reunited' },
    ];
    expect(codes(when(w, [...establish, resolve], policy))).toEqual(['LEDGER_CONDITIONS_UNMET']);
    accepted(when(accepted(when(w, establish, policy)), [resolve], policy));
  });

  it('envelope fields supplied by the model are unknown fields', () => {
    for (const field of ['turn', 'recorded_at', 'source', 'batch_id', 'schema_version']) {
      expect(codes(when(emptyWorld(), [{ ...mara, [field]: 1 }]))).toEqual(['LEDGER_UNKNOWN_FIELD']);
    }
  });
});

describe('E. history, invalidation and as-of queries', () => {
  function session(): LedgerIndex {
    const index = new LedgerIndex({ snapshotInterval: 2 });
    const commit = (turn: number, batch: Record<string, unknown>[]) => {
      const result = validateBatch(index.current, batch, DEFAULT_POLICY, { at: { turn } });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      index.append({ turn, gameTime: `1199-01-0${turn}T00:00:00`, events: result.events });
    };
    commit(1, [
      mara,
      { event_type: 'create_entity', entity: 'player', name: 'Player' },
      { event_type: 'add_fact', fact_id: 'rumour', predicate: 'the well is dry' },
      { event_type: 'add_relationship', source: 'mara', target: 'player', relationship: 'trusts' },
      { event_type: 'open_story_thread', thread: 'well', title: 'The dry well' },
    ]);
    commit(2, [{ event_type: 'set_entity_status', entity: 'mara', status: 'worried' }]);
    commit(3, [
      { event_type: 'invalidate_fact', fact_id: 'rumour', reason: 'it rained' },
      { event_type: 'end_relationship', source: 'mara', target: 'player', relationship: 'trusts' },
      { event_type: 'resolve_story_thread', thread: 'well', resolution: 'rain' },
      { event_type: 'set_entity_status', entity: 'mara', status: 'relieved' },
    ]);
    return index;
  }

  it('an invalidated fact keeps its record with turn, game time and reason; as-of queries see it before', () => {
    const index = session();
    const fact = getFact(index.current, 'rumour')!;
    expect(fact.invalidated).toEqual({ turn: 3, gameTime: '1199-01-03T00:00:00', reason: 'it rained' });
    expect(currentFacts(index.current).map((f) => f.id)).not.toContain('rumour');
    expect(getFact(index.stateAt(2), 'rumour')!.invalidated).toBeUndefined();
    expect(factsValidAt(index.current, 2).map((f) => f.id)).toContain('rumour');
    expect(factsValidAt(index.current, 3).map((f) => f.id)).not.toContain('rumour');
  });

  it('an ended relationship keeps when it began and ended; it is active in stateAt(T−1)', () => {
    const index = session();
    const [tie] = relationshipTimeline(index.current, 'mara', 'player', 'trusts');
    expect(tie!.periods).toEqual([
      {
        started: { turn: 1, gameTime: '1199-01-01T00:00:00' },
        ended: { turn: 3, gameTime: '1199-01-03T00:00:00' },
      },
    ]);
    expect(relationshipTimeline(index.stateAt(2), 'mara', 'player')[0]!.periods[0]!.ended).toBeUndefined();
  });

  it('a resolved thread keeps its resolution; earlier status is recoverable with stateAt', () => {
    const index = session();
    expect(threads(index.current, { status: 'resolved' })[0]).toMatchObject({
      key: 'well',
      resolved: { turn: 3, resolution: 'rain' },
    });
    expect(threads(index.stateAt(2), { status: 'open' }).map((t) => t.key)).toEqual(['well']);
    expect(index.stateAt(2).entities.mara!.status).toBe('worried');
    expect(index.stateAt(1).entities.mara!.status).toBeUndefined();
    expect(entityHistory(index.log(), 'mara').map((h) => h.turn)).toEqual([1, 1, 2, 3, 3]);
  });

  it('stateAt(N) equals the fold of every committed event with turn ≤ N, for every N', () => {
    const index = session();
    const live: string[] = [];
    for (let n = 0; n <= 4; n++) live.push(canonicalJson(index.stateAt(n)));
    for (let n = 0; n <= 4; n++) expect(canonicalJson(foldLog(index.log(), n))).toBe(live[n]);
    expect(live[0]).toBe(canonicalJson(emptyWorld()));
  });

  it('the committed log is append-only and returned entries are frozen', () => {
    const index = session();
    const log = index.log();
    expect(() => {
      (log[0]!.events as LedgerEvent[]).push({ type: 'set_scene' });
    }).toThrow(TypeError);
    expect(() => {
      (log[0]!.events[0] as { name: string }).name = 'Evil';
    }).toThrow(TypeError);
    (log as LogEntry[]).length = 0; // a copy: the index is untouched
    expect(index.log()).toHaveLength(3);
    // Append-only: besides reading, the index's only methods add entries (a class's methods are not
    // enumerable, so they are listed by name).
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(index));
    const readers = ['constructor', 'current', 'length', 'lastTurn', 'log', 'stateAt', 'countUpTo'];
    expect(methods.filter((name) => !readers.includes(name)).sort()).toEqual(['append', 'commit']);
    // Appending at or before the last committed turn is refused, so history cannot be rewritten either.
    expect(() => index.append({ turn: 1, events: [] })).toThrow(RangeError);
    expect(index.log()).toHaveLength(3);
  });
});

describe('F. atomicity', () => {
  it('one invalid event first, middle or last applies nothing and names its index and reason', () => {
    const good = (i: number) => ({ ...mara, entity: `m${i}` });
    const bad = { event_type: 'set_entity_status', entity: 'ghost', status: 'x' };
    for (const position of [0, 2, 4]) {
      const batch: unknown[] = [good(0), good(1), good(2), good(3)];
      batch.splice(position, 0, bad);
      const out = when(emptyWorld(), batch);
      expect(out.ok).toBe(false);
      expect(!out.ok && out.errors).toEqual([
        expect.objectContaining({ index: position, code: 'LEDGER_UNKNOWN_REF', field: 'entity' }),
      ]);
    }
  });

  it('a batch for a turn at or before the last committed turn is refused by the ledger index', () => {
    const index = new LedgerIndex();
    index.append({ turn: 5, events: [{ type: 'create_entity', entity: 'mara', name: 'Mara' }] });
    const before = canonicalJson(index.current);
    expect(() => index.append({ turn: 5, events: [] })).toThrow(RangeError);
    expect(() => index.append({ turn: 4, events: [] })).toThrow(RangeError);
    expect(canonicalJson(index.current)).toBe(before);
    expect(index.length).toBe(1);
  });

  it('an exception inside apply in mid-batch leaves the committed world unchanged', () => {
    const index = new LedgerIndex();
    index.append({ turn: 1, events: [{ type: 'create_entity', entity: 'mara', name: 'Mara' }] });
    const before = canonicalJson(index.current);
    // An event that bypassed validation: apply throws after the first event already changed the draft.
    const poisoned: LedgerEvent[] = [
      { type: 'set_entity_status', entity: 'mara', status: 'changed' },
      { type: 'set_entity_status', entity: 'ghost', status: 'x' },
    ];
    expect(() => index.append({ turn: 2, events: poisoned })).toThrow(LedgerApplyError);
    expect(canonicalJson(index.current)).toBe(before);
    expect(index.length).toBe(1);
    expect(() => applyBatch(index.current, poisoned, { turn: 2 })).toThrow(LedgerApplyError);
    expect(index.current.entities.mara!.status).toBeUndefined();
  });
});

describe('G. replay and determinism', () => {
  const log = () => {
    const index = new LedgerIndex({ snapshotInterval: 3 });
    let world = emptyWorld();
    for (let turn = 1; turn <= 10; turn++) {
      const batch =
        turn === 1
          ? [mara]
          : [
              { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'count', value: turn },
              { event_type: 'add_fact', predicate: `p${turn}` },
            ];
      const r = validateBatch(world, batch, DEFAULT_POLICY, { at: { turn } });
      if (!r.ok) throw new Error('rejected');
      world = index.append({ turn, events: r.events });
    }
    return index;
  };

  it('replaying the log from empty equals the live world, twice identically', () => {
    const index = log();
    const first = foldLog(index.log());
    expect(first).toEqual(index.current);
    expect(canonicalJson(first)).toBe(canonicalJson(index.current));
    expect(canonicalJson(foldLog(index.log()))).toBe(canonicalJson(first));
  });

  it('a snapshot plus the tail equals the full fold (every K)', () => {
    const index = log();
    for (let n = 0; n <= 10; n++)
      expect(canonicalJson(index.stateAt(n))).toBe(canonicalJson(foldLog(index.log(), n)));
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('apply reads no clock, randomness, environment or locale', () => {
    const tz = process.env.TZ;
    const hashes = new Set<string>();
    try {
      for (const [zone, date] of [
        ['UTC', '2001-01-01'],
        ['Asia/Tokyo', '2040-06-30'],
      ] as const) {
        process.env.TZ = zone;
        vi.useFakeTimers();
        vi.setSystemTime(new Date(date));
        // Spies installed after the fake clock, so only the ledger's own calls could count.
        const random = vi.spyOn(Math, 'random');
        const now = vi.spyOn(Date, 'now');
        const perf = vi.spyOn(performance, 'now');
        const compare = vi.spyOn(String.prototype, 'localeCompare');
        const localeDate = vi.spyOn(Date.prototype, 'toLocaleString');
        hashes.add(canonicalJson(foldLog(log().log())));
        expect(random).not.toHaveBeenCalled();
        expect(now).not.toHaveBeenCalled();
        expect(perf).not.toHaveBeenCalled();
        expect(compare).not.toHaveBeenCalled();
        expect(localeDate).not.toHaveBeenCalled();
        vi.restoreAllMocks();
        vi.useRealTimers();
      }
    } finally {
      vi.restoreAllMocks();
      vi.useRealTimers();
      // `process.env.TZ = undefined` would store the string "undefined": remove it instead.
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(process.env.TZ).toBe(tz);
    expect(hashes.size).toBe(1);
  });

  it('replay re-validates every event: a stored event the validator refuses fails the load precisely', () => {
    const policy: LedgerPolicy = policyFromStatePaths(statePathsOf({ player: { gold: { type: 'int' } } }));
    const ok = replayLog(
      [{ turn: 1, events: [{ event_type: 'create_entity', entity: 'player', name: 'P' }] }],
      policy,
    );
    expect(ok.ok).toBe(true);
    const tampered = replayLog(
      [
        { turn: 1, events: [{ event_type: 'create_entity', entity: 'player', name: 'P' }] },
        {
          turn: 2,
          events: [{ event_type: 'set_entity_attribute', entity: 'player', attribute: 'gold', value: 9999 }],
        },
      ],
      policy,
    );
    expect(tampered).toMatchObject({
      ok: false,
      entry: 1,
      turn: 2,
      errors: [{ index: 0, code: 'LEDGER_RULES_OWNED' }],
    });
  });
});

describe('H. the vocabulary is generated from the table', () => {
  it('the table has its 14 event types, in order (spec.test.ts checks each)', () => {
    expect([...LEDGER_EVENT_TYPES]).toEqual([
      'create_entity',
      'set_entity_status',
      'set_entity_attribute',
      'set_entity_conditions',
      'set_current_location',
      'set_possession',
      'clear_possession',
      'add_fact',
      'invalidate_fact',
      'add_relationship',
      'end_relationship',
      'open_story_thread',
      'resolve_story_thread',
      'set_scene',
    ]);
  });
});

it('a 100,000-deep value is refused by the iterative guard before any recursion', () => {
  let deep: unknown = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const out = validateBatch(emptyWorld(), deep);
  expect(out).toMatchObject({ ok: false, errors: [{ index: -1, code: 'LEDGER_TOO_DEEP' }] });
  const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const parsed = parseToolArguments(text, { ...DEFAULT_LIMITS, maxJsonBytes: 1_000_000 });
  expect(parsed).toMatchObject({ ok: false, error: { code: 'LEDGER_TOO_DEEP' } });
});
