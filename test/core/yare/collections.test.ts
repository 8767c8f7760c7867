// Typed collections of records (issue 38 items 1, 2 and 4): a `collection` field's records have typed,
// defaulted, bounded properties with their own visibility; every path that reaches a property is checked
// at load when it is written out (a literal id, a computed key, a comprehension or foreach variable over
// values(), a macro parameter declared as a record) and at run time otherwise, each error naming the
// collection and the record; records are created by a step from a mapping whose values are evaluated,
// with ids the engine makes; containment follows the collection's parent property within a depth bound.

import { describe, expect, it } from 'vitest';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { MAX_CONTAINER_SIZE, MAX_CONTAINMENT_DEPTH } from '../../../src/core/yare/limits.ts';
import { pathIsPrivate } from '../../../src/core/yare/privacy.ts';
import { publicState } from '../../../src/core/yare/schema.ts';
import { errorsOf, rulesOf } from '../../helpers/yare.ts';

const SCHEMA = `state_schema:
  objs:
    type: collection
    visibility: public
    parent: loc
    record:
      name: { type: string }
      kind: { type: string, default: thing }
      loc: { type: string, default: "" }
      heat: { type: float, default: 20, min: -10, max: 100 }
      count: { type: int, default: 0, min: 0, max: 9 }
      secret: { type: int, default: 7, visibility: private }
    default:
      kitchen: { name: kitchen, kind: room }
      sink: { name: sink, loc: kitchen }
      cup: { name: cup, kind: dish, loc: sink, heat: 30.5 }
  out: { default: null }
`;

function withEvents(events: string): string {
  return `${SCHEMA}events:\n${events}`;
}

function run(events: string, event = 'e', inputs: Record<string, unknown> = {}, state?: unknown) {
  const rules = rulesOf(withEvents(events));
  return runEvent(rules, state ?? rules.initialState, event, inputs);
}

const setOut = (value: string) => `  e:
    inputs:
      x: { type: string, default: cup }
    steps:
      - action: set
        var: state.out
        value: "${value}"
`;

describe('the schema', () => {
  it('fills every record with its defaults and its id', () => {
    const rules = rulesOf(withEvents(setOut('@ 1')));
    const objs = (rules.initialState as { objs: Record<string, unknown> }).objs;
    expect(objs.sink).toEqual({
      id: 'sink',
      name: 'sink',
      kind: 'thing',
      loc: 'kitchen',
      heat: 20,
      count: 0,
      secret: 7,
    });
    expect(Object.keys(objs)).toEqual(['kitchen', 'sink', 'cup']);
  });

  it('refuses a default that does not fit: an unknown property, a wrong type, out of bounds, a wrong id', () => {
    const bad = (record: string) =>
      errorsOf(
        `state_schema:\n  c:\n    type: collection\n    record: { n: { type: int, max: 5 } }\n    default:\n      a: ${record}\nevents: {}\n`,
      )[0]!.message;
    expect(bad('{ m: 1 }')).toContain(
      "record 'a': records of state.c have no property 'm' (properties: id, n). Did you mean `n`?",
    );
    expect(bad('{ n: "x" }')).toContain('n "x" is not a int');
    expect(bad('{ n: 6 }')).toContain('6 is outside its bounds');
    expect(bad('{ id: b }')).toContain("a record's id is its key");
    expect(bad('3')).toContain("record 'a' must be a mapping");
  });

  it(`holds at most MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}) records in its default`, () => {
    const records = (n: number) => Array.from({ length: n }, (_, i) => `      r${i}: {}`).join('\n');
    const text = (n: number) =>
      `state_schema:\n  c:\n    type: collection\n    record: { n: { type: int } }\n    default:\n${records(n)}\nevents: {}\n`;
    expect(errorsOf(text(MAX_CONTAINER_SIZE))).toEqual([]);
    expect(errorsOf(text(MAX_CONTAINER_SIZE + 1))[0]!.message).toContain('MAX_CONTAINER_SIZE');
  });

  it('refuses a declared id, a parent that is no string property, a bad id_prefix, no record:', () => {
    const collection = (body: string) =>
      errorsOf(`state_schema:\n  c:\n    type: collection\n${body}\nevents: {}\n`);
    expect(collection('    record: { id: { type: string } }')[0]!.code).toBe('YARE_RESERVED_NAME');
    expect(collection('    parent: n\n    record: { n: { type: int } }')[0]!.message).toContain(
      'parent: must name a string property',
    );
    expect(collection('    parent: lok\n    record: { loc: { type: string } }')[0]!.message).toContain(
      'Did you mean `loc`?',
    );
    expect(collection('    id_prefix: "o-"\n    record: { n: { type: int } }')[0]!.message).toContain(
      'id_prefix',
    );
    expect(collection('    default: {}')[0]!.message).toContain('needs record:');
    expect(collection('    record: { n: { type: collection } }')[0]!.message).toContain(
      'Property c.*.n has unknown type "collection"',
    );
    expect(errorsOf('state_schema:\n  d: { type: dict, record: {} }\nevents: {}\n')[0]!.message).toContain(
      'goes with type: collection',
    );
  });
});

describe('checked at load where a path is written out', () => {
  it.each([
    ['a literal id', '@ state.objs.cup.lok'],
    ['a computed key', '@ state.objs[inputs.x].lok'],
    ['a computed key and a literal name', "@ state.objs[inputs.x]['lok']"],
    ['a comprehension variable over values()', '@ [o.lok for o in values(state.objs)]'],
    ['a sorted values()', "@ [o.lok for o in sorted(values(state.objs), key='name')]"],
  ])('%s: a misspelt property is an error with a did-you-mean', (_, value) => {
    const errors = errorsOf(withEvents(setOut(value)));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('YARE_UNKNOWN_PATH');
    expect(errors[0]!.message).toContain("have no property 'lok'");
    expect(errors[0]!.message).toContain('Did you mean `loc`?');
  });

  it('a foreach item over values(), a record parameter, a computed var and a create step', () => {
    const foreach = errorsOf(
      withEvents(`  e:
    steps:
      - action: foreach
        array: "@ values(state.objs)"
        item: o
        steps:
          - { action: set, var: state.out, value: "@ o.nmae" }
`),
    );
    expect(foreach[0]!.message).toContain('Did you mean `name`?');
    const param = errorsOf(
      `${SCHEMA}macros:\n  f:\n    params: [o: state.objs]\n    value: "@ o.nmae"\nevents: {}\n`,
    );
    expect(param[0]!.message).toContain("no property 'nmae'");
    const notCollection = errorsOf(
      `${SCHEMA}macros:\n  f:\n    params: [o: state.out]\n    value: "@ 1"\nevents: {}\n`,
    );
    expect(notCollection[0]!.message).toContain('is no collection');
    const target = errorsOf(
      withEvents(`  e:
    inputs: { x: { type: string } }
    steps:
      - { action: set, var: "state.objs[inputs.x].lok", value: x }
`),
    );
    expect(target[0]!.message).toContain("var: state.objs.*: records of state.objs have no property 'lok'");
    const create = errorsOf(
      withEvents(`  e:
    steps:
      - { action: create, in: state.objs, record: { nme: x, id: y } }
      - { action: create, in: state.out, record: {} }
`),
    );
    expect(create.map((e) => e.message)).toEqual([
      expect.stringContaining("no property 'nme'"),
      expect.stringContaining("'id' is made by the engine"),
      expect.stringContaining('state.out is no collection'),
    ]);
  });

  it('a computed key cannot pick a field of a domain; names after a scalar field are refused', () => {
    const rules = (target: string) =>
      errorsOf(
        `state_schema:\n  p:\n    hp: { type: int }\nevents:\n  e:\n    inputs: { k: { type: string } }\n    steps:\n      - { action: set, var: "${target}", value: 1 }\n`,
      );
    expect(rules('state.p[inputs.k]')[0]!.message).toContain('cannot pick a field of the domain state.p');
    expect(rules('state.p.hp[inputs.k]')[0]!.message).toContain('is a int field');
  });
});

describe('at run time', () => {
  it('reading a record that does not exist is an error naming the collection and the id', () => {
    for (const value of [
      '@ state.objs[inputs.x].name',
      '@ state.objs.plate.name',
      "@ within(state.objs, inputs.x, 'sink')",
    ]) {
      const r = run(setOut(value), 'e', { x: 'plate' });
      expect(!r.ok && r.error.code).toBe('YARE_BAD_PATH');
      expect(!r.ok && r.error.message).toContain("state.objs has no record 'plate'");
    }
  });

  it('a computed property name must be a property', () => {
    const r = run(setOut("@ state.objs[inputs.x]['na' + 'me']"));
    expect(r.ok && r.state.out).toBe('cup');
    const bad = run(setOut("@ state.objs[inputs.x]['no' + 'pe']"));
    expect(!bad.ok && bad.error.message).toContain("records of state.objs have no property 'nope'");
  });

  it('float properties read as floats, by a literal path and by a computed key', () => {
    const r = run(setOut("@ str(state.objs.sink.heat) + ' ' + str(state.objs[inputs.x].heat)"));
    expect(r.ok && r.state.out).toBe('20.0 30.5');
  });

  it('writes are coerced and clamped; a property of a missing record, or an id, is refused', () => {
    const r = run(`  e:
    steps:
      - { action: set, var: state.objs.cup.count, value: "12" }
      - { action: set, var: "state.objs['sink'].heat", value: 500 }
`);
    expect(r.ok && (r.state.objs as Record<string, { count: number; heat: number }>).cup!.count).toBe(9);
    expect(r.ok && (r.state.objs as Record<string, { heat: number }>).sink!.heat).toBe(100);
    const missing = run(`  e:\n    steps:\n      - { action: set, var: state.objs.plate.count, value: 1 }\n`);
    expect(!missing.ok && missing.error.message).toContain("state.objs has no record 'plate'");
    const mutated = run(
      `  e:\n    steps:\n      - { action: mutate, var: state.objs.plate.count, op: add, value: 1 }\n`,
    );
    expect(!mutated.ok && mutated.error.message).toContain("state.objs has no record 'plate'");
    const id = run(`  e:\n    steps:\n      - { action: set, var: state.objs.cup.id, value: mug }\n`);
    expect(!id.ok && id.error.message).toContain("a record's id is its key");
  });

  it('a record written whole is made a record: defaults filled, types coerced, unknown properties refused', () => {
    const r = run(`  e:
    steps:
      - { action: set, var: state.objs.plate, value: { name: plate, count: "3" } }
      - { action: dict_set, var: state.objs, key: "'bowl'", value: { name: bowl } }
`);
    const objs = r.ok ? (r.state.objs as Record<string, unknown>) : {};
    expect(objs.plate).toEqual({
      id: 'plate',
      name: 'plate',
      kind: 'thing',
      loc: '',
      heat: 20,
      count: 3,
      secret: 7,
    });
    expect(objs.bowl).toMatchObject({ id: 'bowl', kind: 'thing' });
    const bad = run(
      `  e:\n    steps:\n      - { action: set, var: state.objs.plate, value: { nmae: plate } }\n`,
    );
    expect(!bad.ok && bad.error.code).toBe('YARE_BAD_PATH');
    expect(!bad.ok && bad.error.message).toContain(
      "record 'plate': records of state.objs have no property 'nmae'",
    );
    const badId = run(
      `  e:\n    steps:\n      - { action: set, var: state.objs.plate, value: { id: cup } }\n`,
    );
    expect(!badId.ok && badId.error.message).toContain("a record's id is its key");
  });
});

describe('create', () => {
  const make = `  make:
    inputs: { what: { type: string } }
    steps:
      - action: create
        in: state.objs
        record: { name: "@ inputs.what", kind: "'dish'", loc: sink, heat: "@ 40 + 1" }
        var: temp.id
      - { action: set, var: state.out, value: "@ temp.id" }
  drop:
    inputs: { id: { type: string } }
    steps:
      - { action: dict_delete, var: state.objs, key: "@ inputs.id" }
`;

  it('evaluates the mapping’s values, defaults the rest, and writes the new id', () => {
    const r = run(make, 'make', { what: 'plate' });
    expect(r.ok && r.state.out).toBe('0');
    expect(r.ok && (r.state.objs as Record<string, unknown>)['0']).toEqual({
      id: '0',
      name: 'plate',
      kind: 'dish',
      loc: 'sink',
      heat: 41,
      count: 0,
      secret: 7,
    });
    expect(r.ok && r.state._next_ids).toEqual({ objs: 1 });
  });

  it('never gives an id twice: past the ones made, deleted included, and past every numbered id held', () => {
    const rules = rulesOf(withEvents(make));
    let state: unknown = rules.initialState;
    const ids: unknown[] = [];
    for (const [event, inputs] of [
      ['make', { what: 'a' }],
      ['make', { what: 'b' }],
      ['drop', { id: '1' }],
      ['make', { what: 'c' }],
    ] as const) {
      const r = runEvent(rules, state, event, inputs);
      if (!r.ok) throw new Error(r.error.message);
      state = r.state;
      if (event === 'make') ids.push(r.state.out);
    }
    expect(ids).toEqual(['0', '1', '2']);
    const handWritten = { ...(rules.initialState as object), objs: { '41': { name: 'x' } } };
    const r = runEvent(rules, handWritten, 'make', { what: 'd' });
    expect(r.ok && r.state.out).toBe('42');
  });

  it('uses the id_prefix, and refuses a record past MAX_CONTAINER_SIZE', () => {
    const rules = rulesOf(`state_schema:
  c: { type: collection, id_prefix: o, record: { n: { type: int } } }
events:
  make:
    steps:
      - { action: create, in: state.c, record: { n: 1 }, var: temp.id }
      - { action: note, message: "{temp.id}" }
`);
    expect(runEvent(rules, rules.initialState, 'make')).toMatchObject({ ok: true, notes: ['o0'] });
    const full = (n: number) => ({
      c: Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, { n: 0 }])),
    });
    expect(runEvent(rules, full(MAX_CONTAINER_SIZE - 1), 'make')).toMatchObject({
      ok: true,
      notes: [`o${MAX_CONTAINER_SIZE - 1}`],
    });
    const past = runEvent(rules, full(MAX_CONTAINER_SIZE), 'make');
    expect(!past.ok && past.error.code).toBe('YARE_CONTAINER_LIMIT');
  });
});

describe('containment over the parent property', () => {
  it('within, ancestors and descendants (depth first, in the collection’s order)', () => {
    const r = run(
      setOut(
        "@ [within(state.objs, 'cup', 'kitchen'), within(state.objs, 'kitchen', 'cup'), ancestors(state.objs, 'cup'), descendants(state.objs, 'kitchen')]",
      ),
    );
    expect(r.ok && r.state.out).toEqual([true, false, ['sink', 'kitchen'], ['sink', 'cup']]);
  });

  it(`a cycle is refused past MAX_CONTAINMENT_DEPTH (${MAX_CONTAINMENT_DEPTH}); a chain of that depth is followed`, () => {
    const chain = (n: number, cycle: boolean) => {
      const objs: Record<string, unknown> = {};
      for (let i = 0; i <= n; i++)
        objs[`r${i}`] = { name: `r${i}`, loc: i === n ? (cycle ? 'r0' : '') : `r${i + 1}` };
      return { objs, out: null };
    };
    const rules = rulesOf(withEvents(setOut("@ len(ancestors(state.objs, 'r0'))")));
    expect(runEvent(rules, chain(MAX_CONTAINMENT_DEPTH, false), 'e')).toMatchObject({
      ok: true,
      state: { out: MAX_CONTAINMENT_DEPTH },
    });
    const past = runEvent(rules, chain(MAX_CONTAINMENT_DEPTH + 1, false), 'e');
    expect(!past.ok && past.error.message).toContain('MAX_CONTAINMENT_DEPTH');
    const cycle = runEvent(rules, chain(3, true), 'e');
    expect(!cycle.ok && cycle.error.message).toContain('make a circle');
  });

  it(`descendants and within follow MAX_CONTAINMENT_DEPTH (${MAX_CONTAINMENT_DEPTH}) levels, not one more`, () => {
    const chain = (n: number) => {
      const objs: Record<string, unknown> = {};
      for (let i = 0; i <= n; i++) objs[`r${i}`] = { name: `r${i}`, loc: i === n ? '' : `r${i + 1}` };
      return { objs, out: null };
    };
    const below = (n: number) =>
      rulesOf(
        withEvents(setOut(`@ [len(descendants(state.objs, 'r${n}')), within(state.objs, 'r0', 'r${n}')]`)),
      );
    const at = runEvent(below(MAX_CONTAINMENT_DEPTH), chain(MAX_CONTAINMENT_DEPTH), 'e');
    expect(at).toMatchObject({ ok: true, state: { out: [MAX_CONTAINMENT_DEPTH, true] } });
    const past = runEvent(below(MAX_CONTAINMENT_DEPTH + 1), chain(MAX_CONTAINMENT_DEPTH + 1), 'e');
    expect(!past.ok && past.error.message).toContain('MAX_CONTAINMENT_DEPTH');
    const withinPast = rulesOf(
      withEvents(setOut(`@ within(state.objs, 'r0', 'r${MAX_CONTAINMENT_DEPTH + 1}')`)),
    );
    const refused = runEvent(withinPast, chain(MAX_CONTAINMENT_DEPTH + 1), 'e');
    expect(!refused.ok && refused.error.message).toContain('MAX_CONTAINMENT_DEPTH');
  });

  it('the first argument must be a collection that declares parent:, checked at load', () => {
    expect(errorsOf(withEvents(setOut("@ within(state.out, 'a', 'b')")))[0]!.message).toContain(
      'within() takes a collection of state_schema that declares parent:',
    );
  });
});

describe('visibility is per property', () => {
  it('the public view of a record leaves its private properties out', () => {
    const rules = rulesOf(withEvents(setOut('@ 1')));
    const shown = publicState(rules.initialState, rules.schema) as {
      objs: Record<string, Record<string, unknown>>;
    };
    expect(shown.objs.cup).toEqual({
      id: 'cup',
      name: 'cup',
      kind: 'dish',
      loc: 'sink',
      heat: 30.5,
      count: 0,
    });
    expect(pathIsPrivate(rules.schema, ['objs', 'cup', 'secret'])).toBe(true);
    expect(pathIsPrivate(rules.schema, ['objs', 'cup', 'name'])).toBe(false);
    expect(pathIsPrivate(rules.schema, ['objs'])).toBe(true);
  });
});
