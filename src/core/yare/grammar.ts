// The grammar of `yare.yaml`, as one table (docs/yare.md explains each key): every section, setting,
// field, input, event key, step kind and branch arm, with its kind, whether it is required, its allowed
// values and the text an editor shows. It is the one source of those facts: the compiler's shape passes
// (compile/shape*.ts, schema.ts) look their key lists, required fields and allowed values up here; the
// editor JSON Schema and the language server's key completion and hover are made from it
// (src/tools/authoring/schema); the authoring types an author's `yare.ts` is checked with are read from
// it at type level (src/core/cartridge/js-rules/define.ts). The compiler keeps what a table cannot say:
// expressions, paths, names that must resolve, and the wording of its messages.

import {
  any,
  bool,
  type FileShape,
  int,
  list,
  num,
  obj,
  oneOf,
  ref,
  type ShapeValue,
  str,
  tagged,
  union,
} from './grammar-shape.ts';

/** Names of macros, events, inputs, state fields and foreach locals. */
export const IDENTIFIER_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
/** The same pattern as a RegExp, for every reader of names (the compiler, the language server). */
export const IDENTIFIER = new RegExp(IDENTIFIER_PATTERN);

/** A table_roll key: an exact number, a range `1-5` or an open range `11+` (blanks around the parts). */
export const TABLE_KEY_PATTERN = '^\\s*(?:-?[0-9]+|-?[0-9]+\\s*-\\s*-?[0-9]+|-?[0-9]+\\s*\\+)\\s*$';

/** The types a value has: an input's, a record property's, and (with collection) a field's. */
const VALUE_TYPES = ['int', 'float', 'bool', 'string', 'list', 'dict'] as const;
const VALUE_TYPE = oneOf(VALUE_TYPES, 'The type; values written are converted to it.');
const FIELD_TYPE = oneOf(
  [...VALUE_TYPES, 'collection'],
  'The field type; values written are converted to it. collection: records of one shape, by id (record:).',
);
const VISIBILITY = oneOf(
  ['public', 'private'],
  'public: the Narrator and the player see it; private (default): rules and Director only.',
);
const NPC_VISIBILITY = bool('true lets the NPC brain see it (default false).');
const VALUE = any(
  'A value: a number, true/false, null, a list or a mapping as is; "@ expr" is an expression; other text is literal.',
);
const EXPRESSION = str('An expression: "@ state.player.hp > 0".');
const TARGET = str('Where the step writes: a state. or temp. path, or "@ expr" yielding one.');
const STEPS = ref('steps', 'Steps, run in order.');

/** A property of the records of a collection: a field's keys, but not another collection. */
export const PROPERTY_SHAPE = obj(
  {
    type: VALUE_TYPE,
    default: any('The value of a record that does not give one (must match the type).'),
    min: num('Lower bound of an int or float property; writes are clamped.'),
    max: num('Upper bound of an int or float property; writes are clamped.'),
    visibility: VISIBILITY,
    npc_visibility: NPC_VISIBILITY,
    description: str('A note for people reading the schema.'),
  },
  { doc: 'A property every record of the collection has.' },
);

export const FIELD_SHAPE = obj(
  {
    type: FIELD_TYPE,
    default: any('The value in a new game (must match the type).'),
    min: num('Lower bound of an int or float field; writes are clamped.'),
    max: num('Upper bound of an int or float field; writes are clamped.'),
    visibility: VISIBILITY,
    npc_visibility: NPC_VISIBILITY,
    description: str('A note for people reading the schema.'),
    record: obj(
      {},
      {
        doc: 'A collection: the properties every record has (each with a type, default, bounds, visibility).',
        extra: PROPERTY_SHAPE,
        keyPattern: IDENTIFIER_PATTERN,
      },
    ),
    parent: str(
      'A collection: the property holding the id of the record that contains a record, for within(), descendants() and ancestors().',
    ),
    id_prefix: str(
      'A collection: the text before the number of each id a create step makes (default none: 12).',
    ),
  },
  { doc: 'A field: a typed value the game remembers.' },
);

/** A domain's own settings; its other keys are its fields and nested domains. */
export const DOMAIN_SHAPE = obj(
  {
    visibility: VISIBILITY,
    npc_visibility: NPC_VISIBILITY,
    description: str('What this group of fields is.'),
    per_character: bool(
      'true (a top-level domain, one per cartridge): each character at a shared table has its own copy, kept in state.players.<character>; rules read and write the acting character’s as this domain.',
    ),
  },
  {
    doc: 'A domain: a group of fields (and nested domains).',
    extra: ref('stateNode'),
    keyPattern: IDENTIFIER_PATTERN,
  },
);

export const INPUT_SHAPE = obj(
  {
    type: oneOf(VALUE_TYPES, 'The input type; the given value is converted to it.'),
    enum: list(any(), 'The allowed values (matched ignoring case).'),
    default: any('Used when the input is not given; without one a typed input is required.'),
    description: str('Shown to the Director.'),
    values_from: str(
      "Where a string input's known values come from: a state list or dict (state.world.places), ledger.entities or ledger.<entity type>; the Director is offered them as an enum and held to them.",
    ),
  },
  { doc: 'A typed input of an event.' },
);

/** One arm of a `conditions:` branch. */
export const CONDITION_SHAPE = obj(
  {
    if: EXPRESSION,
    else: any('Marks the else arm (any value, even empty).'),
    steps: STEPS,
  },
  { doc: 'One arm of a branch: if (or else) and steps.' },
);

/** Step fields by action, in the order the compiler's messages list them (`action` itself is implied). */
export const STEP_SHAPES = {
  set: obj({ var: TARGET, value: VALUE }, { doc: 'Writes a value.', required: ['var', 'value'] }),
  mutate: obj(
    { var: TARGET, op: oneOf(['add', 'sub', 'mul', 'div'], 'add, sub, mul or div.'), value: VALUE },
    { doc: 'Changes a number in place, clamped to the field bounds.', required: ['var', 'op', 'value'] },
  ),
  branch: obj(
    {
      conditions: list(CONDITION_SHAPE, 'Arms tried in order; the first that holds runs.'),
      if: EXPRESSION,
      steps: STEPS,
      else: list(ref('step'), 'Steps run when the test does not hold.'),
    },
    { doc: 'Runs the steps of the first condition that holds.' },
  ),
  table_roll: obj(
    {
      roll: VALUE,
      var: TARGET,
      table: obj(
        {},
        {
          doc: 'Keys: an exact number (6), a range ("1-3") or an open range ("19+").',
          extra: VALUE,
          keyPattern: TABLE_KEY_PATTERN,
        },
      ),
    },
    { doc: 'Rolls, looks the result up in the table, writes the value.', required: ['roll', 'var', 'table'] },
  ),
  call: obj(
    {
      event: str('The event to run.'),
      args: obj({}, { doc: "The callee's inputs.", extra: VALUE, keyPattern: IDENTIFIER_PATTERN }),
    },
    { doc: 'Runs another event, then continues.', required: ['event'] },
  ),
  note: obj(
    { message: str('A stage direction for the Narrator; {expression} pieces are filled in.') },
    { doc: 'Adds a line to the notes the Narrator reads.', required: ['message'] },
  ),
  list_push: obj(
    { var: TARGET, item: VALUE, value: VALUE },
    {
      doc: 'Appends an item (given as item, or value) to a list.',
      required: ['var'],
      oneRequired: [{ keys: ['item', 'value'], exclusive: false }],
    },
  ),
  list_remove: obj(
    { var: TARGET, index: VALUE, value: VALUE },
    {
      doc: 'Removes one item, by index or by value (exactly one).',
      required: ['var'],
      oneRequired: [{ keys: ['index', 'value'], exclusive: true }],
    },
  ),
  dict_set: obj(
    { var: TARGET, key: VALUE, value: VALUE },
    { doc: 'Sets a key of a dict.', required: ['var', 'key', 'value'] },
  ),
  dict_delete: obj(
    { var: TARGET, key: VALUE },
    { doc: 'Removes a key of a dict.', required: ['var', 'key'] },
  ),
  create: obj(
    {
      in: str('The collection the record joins: a state. path.'),
      record: obj(
        {},
        {
          doc: 'The new record: a value for each property (read as any step value: "@ expr", a literal); the others take their defaults.',
          extra: VALUE,
          keyPattern: IDENTIFIER_PATTERN,
        },
      ),
      var: TARGET,
    },
    {
      doc: 'Creates a record with an id the engine makes; var: (optional) is where that id is written.',
      required: ['in', 'record'],
    },
  ),
  foreach: obj(
    {
      array: VALUE,
      item: str('Name of the current element (default item).'),
      index: str('Name of the current position (default index).'),
      steps: STEPS,
    },
    { doc: 'Runs steps once per item of a list.', required: ['array', 'steps'] },
  ),
} as const;

export const EVENT_SHAPE = obj(
  {
    description: str('What the event does, for the Director.'),
    inputs: union(
      'What the caller supplies.',
      obj({}, { extra: INPUT_SHAPE, keyPattern: IDENTIFIER_PATTERN }),
      list(str(), 'Input names only: values pass through unconverted.'),
    ),
    steps: STEPS,
    trigger_on: oneOf(
      ['cycle_tick', 'after_event'],
      'cycle_tick: runs once per turn, before the Director; after_event: runs after each event the player makes happen.',
    ),
    internal: bool('true: never offered to a model; runs from call, a tick or the engine.'),
    intents: list(str(), 'Phrases a player might type, for offline matching.'),
  },
  { doc: 'Something that can happen.' },
);

/**
 * A macro with parameters: `macros.NAME(args)`. Pure (it reads its parameters, `state.` and other pure
 * macros; it rolls no dice), and it may dispatch on a kind: `by:` names it, `cases:` gives the value for
 * each kind (a key may list several, `"cup, plate"`), `value:` for every other kind.
 */
export const MACRO_FUNCTION_SHAPE = obj(
  {
    params: list(str(), 'Parameter names, read by name inside (o, x).'),
    value: EXPRESSION,
    by: str('Dispatch: an expression giving a kind, as "@ o.kind"; the case of that kind is the value.'),
    cases: obj(
      {},
      {
        doc: 'The value for each kind ("cup, plate": several kinds share one); value: for the others.',
        extra: EXPRESSION,
      },
    ),
    description: str('What the macro gives, for people reading the rules.'),
  },
  { doc: 'A macro with parameters, called as macros.NAME(args).', required: ['params'] },
);

export const NPC_TEMPLATE_SHAPE = obj(
  {
    type: oneOf(['name', 'tag'], 'name: one person; tag: an archetype.'),
    description: str('Who this is, for the NPC brain.'),
    credit: int('Score toward engine_settings.npc_min_credit_threshold.'),
  },
  {
    doc: 'A character or archetype the NPC brain may voice.',
    required: ['type', 'description'],
    unknownIsWarning: true,
  },
);

export const ENGINE_SETTINGS_SHAPE = obj(
  {
    npc_min_credit_threshold: int('NPCs scoring below this are left out (default 5).', 0),
    max_batched_npcs: int('At most this many NPCs are asked at once (default 3).', 1),
  },
  { doc: 'Engine tuning.', unknownIsWarning: true },
);

export const TOP_LEVEL_SHAPE = obj(
  {
    version: union('Free text, not interpreted.', str(), num()),
    bot_name: str("The game's display name."),
    state_schema: obj(
      {},
      { doc: 'Everything the rules track.', extra: ref('stateNode'), keyPattern: IDENTIFIER_PATTERN },
    ),
    macros: obj(
      {},
      {
        doc: 'Named expressions, used as macros.NAME (or macros.NAME(args) with params:).',
        extra: union('An expression, or a macro with parameters.', EXPRESSION, MACRO_FUNCTION_SHAPE),
        keyPattern: IDENTIFIER_PATTERN,
      },
    ),
    events: obj({}, { doc: 'What can happen.', extra: EVENT_SHAPE, keyPattern: IDENTIFIER_PATTERN }),
    npc_templates: obj({}, { doc: 'Characters the NPC brain may voice.', extra: NPC_TEMPLATE_SHAPE }),
    engine_settings: ENGINE_SETTINGS_SHAPE,
    separate_npc: bool('Accepted for compatibility with MnesOS 0.6.'),
    separate_npc_brain: any('Accepted for compatibility with MnesOS 0.6.'),
    ledger: any('Narrator-owned world attributes and the starting world (docs/ledger.md).'),
    invariants: obj(
      {},
      {
        doc: 'Conditions that must hold in every reachable state, by name: "@ state.player.hp >= 0".',
        extra: EXPRESSION,
        keyPattern: IDENTIFIER_PATTERN,
      },
    ),
  },
  { doc: 'A YARE rules file.', unknownIsWarning: true },
);

const DEFINITIONS = {
  stateNode: union('A field (it has a type or a default) or a domain of fields.', FIELD_SHAPE, DOMAIN_SHAPE),
  step: tagged('action', STEP_SHAPES, 'A step: a mapping with an action.'),
  steps: list(ref('step'), 'Steps, run in order.'),
} as const;

/** The whole grammar: the file's root and the named shapes it refers to. */
export const YARE_GRAMMAR = {
  title: 'MnesOS yare.yaml',
  root: TOP_LEVEL_SHAPE,
  definitions: DEFINITIONS,
} as const satisfies FileShape;

/** The TypeScript type of the data a shape of this grammar describes. */
export type YareValue<S> = ShapeValue<S, typeof DEFINITIONS>;
