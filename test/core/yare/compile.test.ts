// Load-time checks: errors before play, each with file:line:col, a stable code and a "did you mean".
import { describe, expect, it } from 'vitest';
import { MAX_NOTE_TEMPLATE_LENGTH } from '../../../src/core/yare/limits.ts';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { eventTools } from '../../../src/core/yare/tools.ts';
import { compileYaml, errorsOf, rulesOf } from '../../helpers/yare.ts';

const SCHEMA = `state_schema:
  player:
    hp: { type: int, default: 100, min: 0, max: 100, visibility: public }
    gold: { type: int, default: 0 }
`;

describe('paths are checked against state_schema', () => {
  it('an unknown state path in an expression is an error at its line and column, with a suggestion', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: note, message: "HP {state.player.hpp}" }
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('YARE_UNKNOWN_PATH');
    expect(errors[0]!.message).toContain('Did you mean `state.player.hp`?');
    expect(errors[0]!.place).toMatchObject({ file: 'yare.yaml', line: 8 });
    expect(errors[0]!.place!.col).toBe(39);
  });

  it('an unknown static var target is an error', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: set, var: state.player.gould, value: 1 }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_PATH']);
    expect(errors[0]!.message).toContain('state.player.gold');
  });

  it('a var that does not start with state. or temp. is refused', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: set, var: global.bad_path, value: 1 }
`);
    expect(errors[0]!.message).toContain("must start with 'state.' or 'temp.'");
  });

  it.each([
    [
      'state.player.',
      "'state.player.' ends with a '.': the name of the field after 'state.player.' is missing",
    ],
    ['state', "'state' names no field: write state.FIELD"],
    ['temp..x', "'temp..x' has an empty name after 'temp.' ('..')"],
    ['State.player.hp', "'State.player.hp' must start with 'state.' or 'temp.'"],
  ])('a var %s is refused for what is wrong with it, at its place', (target, message) => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: set, var: ${target}, value: 1 }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_BAD_STEP']);
    expect(errors[0]!.message).toContain(message);
    expect(errors[0]!.place).toMatchObject({ line: 8, col: 29 });
  });

  it('inputs. must be declared, macros. must exist, functions must be known, arity is checked', () => {
    const errors = errorsOf(`${SCHEMA}macros:
  bonus: "@ 2"
events:
  e:
    inputs: [target]
    steps:
      - { action: note, message: "{inputs.targte}" }
      - { action: note, message: "{macros.bonsu}" }
      - { action: note, message: "{sqrt(4)}" }
      - { action: note, message: "{abs(1, 2)}" }
      - { action: note, message: "{mystery}" }
`);
    expect(errors.map((e) => e.code)).toEqual([
      'YARE_UNKNOWN_INPUT',
      'YARE_UNKNOWN_MACRO',
      'YARE_UNKNOWN_FUNCTION',
      'YARE_ARITY',
      'YARE_UNKNOWN_PATH',
    ]);
    expect(errors[0]!.message).toContain('inputs.target');
    expect(errors[1]!.message).toContain('macros.bonus');
  });

  it('a call to an undeclared event is an error; to a declared one it is fine', () => {
    const errors = errorsOf(`${SCHEMA}events:
  a:
    steps:
      - { action: call, event: bee }
  b:
    steps: []
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_EVENT']);
    expect(errors[0]!.message).toContain('calls undefined event "bee"');
    expect(errors[0]!.message).toContain('Did you mean `b`?');
  });

  it('call args must be inputs of the callee', () => {
    const errors = errorsOf(`${SCHEMA}events:
  a:
    steps:
      - { action: call, event: b, args: { dmg: 10, extra: 1 } }
  b:
    inputs: [dmg]
    steps: []
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_INPUT']);
  });
});

describe('conditions and steps', () => {
  it('a condition without @ is an error (the original treated it as always true)', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - action: branch
        conditions:
          - if: "state.player.hp > 1"
            steps: []
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_NOT_AN_EXPRESSION']);
    expect(errors[0]!.place?.line).toBe(10);
  });

  it('unknown actions and misspelled fields are errors with suggestions', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: mutat, var: state.player.hp, op: add, value: 1 }
      - { action: set, var: state.player.hp, valu: 1 }
`);
    expect(errors[0]!.message).toContain('Did you mean `mutate`?');
    expect(errors.some((e) => e.message.includes('Did you mean `value`?'))).toBe(true);
  });

  it('list_remove needs exactly one of index or value', () => {
    for (const fields of ['', ', index: 0, value: 1']) {
      const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - { action: list_remove, var: temp.l${fields} }
`);
      expect(errors[0]!.message).toContain("exactly one of 'index' or 'value'");
    }
  });

  it(`a note template of ${MAX_NOTE_TEMPLATE_LENGTH} characters is fine and one more is refused`, () => {
    const ok = errorsOf(
      `${SCHEMA}events:\n  e:\n    steps:\n      - { action: note, message: "${'x'.repeat(MAX_NOTE_TEMPLATE_LENGTH)}" }\n`,
    );
    expect(ok).toEqual([]);
    const bad = errorsOf(
      `${SCHEMA}events:\n  e:\n    steps:\n      - { action: note, message: "${'x'.repeat(MAX_NOTE_TEMPLATE_LENGTH + 1)}" }\n`,
    );
    expect(bad[0]!.message).toContain('exceeds max length');
  });

  it('foreach bodies are checked too (the original skipped them)', () => {
    const errors = errorsOf(`${SCHEMA}events:
  e:
    steps:
      - action: foreach
        array: "@ [1, 2]"
        steps:
          - { action: note, message: "{state.nope}" }
          - { action: call, event: missing }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_PATH', 'YARE_UNKNOWN_EVENT']);
  });
});

describe('schema', () => {
  it.each(['state', 'temp', 'inputs', 'macros', 'config'])(
    'a domain named %s is a reserved-name error',
    (name) => {
      const errors = errorsOf(`state_schema:\n  ${name}:\n    x: { type: int, default: 0 }\n`);
      expect(errors[0]!.code).toBe('YARE_RESERVED_NAME');
    },
  );

  it('a reserved field name is an error', () => {
    expect(
      errorsOf('state_schema:\n  player:\n    inputs: { type: int, default: 0 }\n')[0]!.message,
    ).toContain('reserved name');
  });

  it('builds the initial state from defaults, nested to any depth', () => {
    const rules = rulesOf(`state_schema:
  player:
    hp: { default: 100 }
    name: { default: "Hero" }
    pack:
      gold: { type: int, default: 5 }
      potions: { type: list, default: ["heal"] }
  current_location: { type: string, default: "Crossroads" }
  level: { type: int }
`);
    expect(JSON.parse(JSON.stringify(rules.initialState))).toEqual({
      player: { hp: 100, name: 'Hero', pack: { gold: 5, potions: ['heal'] } },
      current_location: 'Crossroads',
      level: 0,
    });
  });

  it('a field named `type` inside a domain is a field, not a type (seed template npc.type)', () => {
    const rules = rulesOf(`state_schema:
  npc:
    type: { type: string, default: "villager" }
    hp: { type: int, default: 30 }
`);
    expect(JSON.parse(JSON.stringify(rules.initialState))).toEqual({ npc: { type: 'villager', hp: 30 } });
  });

  it('default type mismatch and unknown field keys are errors', () => {
    const errors = errorsOf(`state_schema:
  player:
    hp: { type: int, default: "lots" }
    mana: { type: int, defualt: 3 }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_BAD_SCHEMA', 'YARE_BAD_SCHEMA']);
    expect(errors[1]!.message).toContain('Did you mean `default`?');
  });

  it('a default list over MAX_CONTAINER_SIZE is refused at load', () => {
    const list = Array.from({ length: 101 }, (_, i) => i).join(', ');
    expect(errorsOf(`state_schema:\n  l: { type: list, default: [${list}] }\n`)[0]!.message).toContain(
      'MAX_CONTAINER_SIZE',
    );
  });
});

describe('macros', () => {
  it('a macro may omit the leading @ (the seed template does)', () => {
    const rules = rulesOf(
      `${SCHEMA}macros:\n  attack: "roll(1d20) + 5"\n  mixed: "roll(1d20) + @state.player.gold"\n`,
    );
    expect([...rules.macros.keys()]).toEqual(['attack', 'mixed']);
  });

  it('a macro cycle is an error', () => {
    const errors = errorsOf(`${SCHEMA}macros:\n  a: "@ macros.b + 1"\n  b: "@ macros.a + 1"\n`);
    expect(errors.map((e) => e.code)).toContain('YARE_MACRO_CYCLE');
  });

  it('a macro that reads an input the event does not declare is an error at the use', () => {
    const errors = errorsOf(`${SCHEMA}macros:
  dmg: "@ inputs.power + 1"
events:
  ok:
    inputs: [power]
    steps: [{ action: note, message: "{macros.dmg}" }]
  bad:
    steps: [{ action: note, message: "{macros.dmg}" }]
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('inputs.power');
  });
});

describe('events as tools', () => {
  it('public events become tools with JSON Schema; internal, resolver and cycle-tick events do not', () => {
    const rules = rulesOf(`state_schema:
  _pending_interaction: { type: dict, default: {} }
events:
  combat_strike:
    description: Attack someone.
    inputs:
      attacker: { type: string, default: "player", enum: ["player", "npc"], description: "Who attacks" }
      power: { type: int, description: "Bonus" }
    steps: []
  start_game:
    steps:
      - action: set
        var: state._pending_interaction
        value: { interaction_type: minigame, minigame_id: lights_out, resolver_event: resolve_game, config: {} }
  resolve_game:
    inputs: [status]
    steps: []
  helper:
    internal: true
    steps: []
  tick:
    trigger_on: cycle_tick
    steps: []
`);
    const tools = eventTools(rules);
    expect(tools.map((t) => t.name)).toEqual(['combat_strike', 'start_game']);
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        attacker: { type: 'string', enum: ['player', 'npc'], default: 'player', description: 'Who attacks' },
        power: { type: 'integer', description: 'Bonus' },
      },
      required: ['power'],
      additionalProperties: false,
    });
    expect(rules.events.get('resolve_game')!.resolver).toBe(true);
  });

  it('a resolver_event that does not exist is an error', () => {
    const errors = errorsOf(`events:
  start:
    steps:
      - action: set
        var: state._pending_interaction
        value: { interaction_type: minigame, minigame_id: x, resolver_event: nowhere, config: {} }
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_EVENT']);
  });
});

describe('top level', () => {
  it('prompt_directives inside yare.yaml is an error; unknown keys warn', () => {
    const { diagnostics } = compileYaml(
      'prompt_directives: { narrator: x }\nbot_name: x\nversion: "1"\nfancy: 1\n',
    );
    expect(diagnostics.find((d) => d.severity === 'error')!.message).toContain('prompt_directives.yaml');
    expect(diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message)).toEqual([
      "Unknown top-level key 'fancy' in yare.yaml is ignored.",
    ]);
  });

  it('npc_templates are validated', () => {
    const errors = errorsOf(`npc_templates:
  boss: { type: name, description: "Big", credit: 10 }
  grunt: { type: monster, description: "x" }
  mute: { type: tag }
`);
    expect(errors.map((e) => e.message)).toEqual([
      'npc_templates entry \'grunt\' has invalid type "monster". Allowed values: name, tag.',
      "npc_templates entry 'mute' must have a 'description' string.",
    ]);
  });

  it('separate_npc must be a boolean', () => {
    expect(errorsOf('separate_npc: "yes"\n')[0]!.message).toMatch(/separate_npc.*boolean/);
    expect(errorsOf('separate_npc: false\n')).toEqual([]);
  });
});

describe('a line break YAML made inside an expression string', () => {
  const rules = (value: string) => `state_schema:
  text: { type: string, default: "" }
events:
  e:
    steps:
      - action: set
        var: state.text
        value: ${value}
`;

  it('is explained: YAML turned \\n into a line break before the expression was read', () => {
    const errors = errorsOf(rules(`"@ 'a\\n' + 'b'"`));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('YARE_SYNTAX');
    expect(errors[0]!.message).toContain("a line break before the closing '");
    expect(errors[0]!.message).toContain('YAML has already turned \\n into a line break');
    expect(errors[0]!.place).toMatchObject({ line: 8 });
  });

  it('the two ways the message suggests both give the newline', () => {
    for (const written of [`"@ 'a\\\\n' + 'b'"`, `'@ ''a\\n'' + ''b'''`]) {
      const compiled = rulesOf(rules(written));
      const result = runEvent(compiled, compiled.initialState, 'e', {});
      expect(result.ok && result.state.text).toBe('a\nb');
    }
  });

  it('a string left open on one line keeps the plain message', () => {
    const errors = errorsOf(rules(`"@ 'abc + 1"`));
    expect(errors[0]!.message).toContain("unterminated string: no closing '");
    expect(errors[0]!.message).not.toContain('YAML');
  });
});
