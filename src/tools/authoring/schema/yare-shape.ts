// The shape of `yare.yaml`, as docs/yare.md describes it. The compiler (src/core/yare) is the authority on
// meaning; this description drives the editor schema and the language server, and a test keeps the two in
// step: every key listed here compiles, and a key not listed is refused (or warned about) by both.

import {
  any,
  bool,
  type FileShape,
  int,
  list,
  num,
  type ObjectShape,
  obj,
  ref,
  str,
  union,
} from './shape.ts';

export const FIELD_TYPE_NAMES = ['int', 'float', 'bool', 'string', 'list', 'dict'] as const;
const IDENTIFIER = '^[A-Za-z_][A-Za-z0-9_]*$';

const visibility = str(
  'public: the Narrator and the player see it; private (default): rules and Director only.',
  ['public', 'private'],
);
const npcVisibility = bool('true lets the NPC brain see it (default false).');
const value = any(
  'A value: a number, true/false, null, a list or a mapping as is; "@ expr" is an expression; other text is literal.',
);
const expression = str('An expression: "@ state.player.hp > 0".');
const target = str('Where the step writes: a state. or temp. path, or "@ expr" yielding one.');

export const FIELD_SHAPE = obj(
  {
    type: str('The field type; values written are converted to it.', FIELD_TYPE_NAMES),
    default: any('The value in a new game (must match the type).'),
    min: num('Lower bound of an int or float field; writes are clamped.'),
    max: num('Upper bound of an int or float field; writes are clamped.'),
    visibility,
    npc_visibility: npcVisibility,
    description: str('A note for people reading the schema.'),
  },
  { doc: 'A field: a typed value the game remembers.' },
);

const DOMAIN_SHAPE = obj(
  { visibility, npc_visibility: npcVisibility, description: str('What this group of fields is.') },
  {
    doc: 'A domain: a group of fields (and nested domains).',
    extra: ref('stateNode'),
    keyPattern: IDENTIFIER,
  },
);

const INPUT_SHAPE = obj(
  {
    type: str('The input type; the given value is converted to it.', FIELD_TYPE_NAMES),
    enum: list(any(), 'The allowed values (matched ignoring case).'),
    default: any('Used when the input is not given; without one a typed input is required.'),
    description: str('Shown to the Director.'),
    values_from: str(
      "Where a string input's known values come from: a state list or dict (state.world.places), ledger.entities or ledger.<entity type>; the Director is offered them as an enum and held to them.",
    ),
  },
  { doc: 'A typed input of an event.' },
);

const steps = ref('steps', 'Steps, run in order.');

const CONDITION_SHAPE = obj(
  {
    if: expression,
    else: any('Marks the else arm (any value, even empty).'),
    steps,
  },
  { doc: 'One arm of a branch: if (or else) and steps.' },
);

/** Step fields by action, in the compiler's order (`action` itself is implied). */
export const STEP_SHAPES: Readonly<Record<string, ObjectShape>> = {
  set: obj({ var: target, value }, { doc: 'Writes a value.', required: ['var', 'value'] }),
  mutate: obj(
    { var: target, op: str('add, sub, mul or div.', ['add', 'sub', 'mul', 'div']), value },
    { doc: 'Changes a number in place, clamped to the field bounds.', required: ['var', 'op', 'value'] },
  ),
  branch: obj(
    {
      conditions: list(CONDITION_SHAPE, 'Arms tried in order; the first that holds runs.'),
      if: expression,
      steps,
      else: list(ref('step'), 'Steps run when the test does not hold.'),
    },
    { doc: 'Runs the steps of the first condition that holds.' },
  ),
  table_roll: obj(
    {
      roll: value,
      var: target,
      table: obj(
        {},
        {
          doc: 'Keys: an exact number (6), a range ("1-3") or an open range ("19+").',
          extra: value,
          keyPattern: '^(?:[0-9]+|[0-9]+-[0-9]+|[0-9]+\\+)$',
        },
      ),
    },
    { doc: 'Rolls, looks the result up in the table, writes the value.', required: ['roll', 'var', 'table'] },
  ),
  call: obj(
    {
      event: str('The event to run.'),
      args: obj({}, { doc: "The callee's inputs.", extra: value, keyPattern: IDENTIFIER }),
    },
    { doc: 'Runs another event, then continues.', required: ['event'] },
  ),
  note: obj(
    { message: str('A stage direction for the Narrator; {expression} pieces are filled in.') },
    { doc: 'Adds a line to the notes the Narrator reads.', required: ['message'] },
  ),
  list_push: obj(
    { var: target, item: value, value },
    { doc: 'Appends an item to a list.', required: ['var'] },
  ),
  list_remove: obj(
    { var: target, index: value, value },
    { doc: 'Removes one item, by index or by value (exactly one).', required: ['var'] },
  ),
  dict_set: obj(
    { var: target, key: value, value },
    { doc: 'Sets a key of a dict.', required: ['var', 'key', 'value'] },
  ),
  dict_delete: obj(
    { var: target, key: value },
    { doc: 'Removes a key of a dict.', required: ['var', 'key'] },
  ),
  foreach: obj(
    {
      array: value,
      item: str('Name of the current element (default item).'),
      index: str('Name of the current position (default index).'),
      steps,
    },
    { doc: 'Runs steps once per item of a list.', required: ['array', 'steps'] },
  ),
};

export const EVENT_SHAPE = obj(
  {
    description: str('What the event does, for the Director.'),
    inputs: union(
      'What the caller supplies.',
      obj({}, { extra: INPUT_SHAPE, keyPattern: IDENTIFIER }),
      list(str(), 'Input names only: values pass through unconverted.'),
    ),
    steps,
    trigger_on: str('cycle_tick: runs once per turn, before the Director.', ['cycle_tick']),
    internal: bool('true: never offered to a model; runs from call, a tick or the engine.'),
    intents: list(str(), 'Phrases a player might type, for offline matching.'),
  },
  { doc: 'Something that can happen.' },
);

export const NPC_TEMPLATE_SHAPE = obj(
  {
    type: str('name: one person; tag: an archetype.', ['name', 'tag']),
    description: str('Who this is, for the NPC brain.'),
    credit: num('Score toward engine_settings.npc_min_credit_threshold.'),
  },
  { doc: 'A character or archetype the NPC brain may voice.', unknownIsWarning: true },
);

export const ENGINE_SETTINGS_SHAPE = obj(
  {
    npc_min_credit_threshold: int('NPCs scoring below this are left out (default 5).'),
    max_batched_npcs: int('At most this many NPCs are asked at once (default 3).', 0),
  },
  { doc: 'Engine tuning.', unknownIsWarning: true },
);

export const YARE_TOP_SHAPE = obj(
  {
    version: union('Free text, not interpreted.', str(), num()),
    bot_name: str("The game's display name."),
    state_schema: obj(
      {},
      { doc: 'Everything the rules track.', extra: ref('stateNode'), keyPattern: IDENTIFIER },
    ),
    macros: obj(
      {},
      { doc: 'Named expressions, used as macros.NAME.', extra: expression, keyPattern: IDENTIFIER },
    ),
    events: obj({}, { doc: 'What can happen.', extra: EVENT_SHAPE, keyPattern: IDENTIFIER }),
    invariants: obj(
      {},
      {
        doc: 'Conditions that must hold after every event, name: "@ condition" (checked in play and by mnesos explore).',
        extra: str('A condition on state. and macros.: "@ state.keeper.debt >= 0".'),
        keyPattern: IDENTIFIER,
      },
    ),
    npc_templates: obj({}, { doc: 'Characters the NPC brain may voice.', extra: NPC_TEMPLATE_SHAPE }),
    engine_settings: ENGINE_SETTINGS_SHAPE,
    separate_npc: bool('Accepted for compatibility with MnesOS 0.6.'),
    separate_npc_brain: any('Accepted for compatibility with MnesOS 0.6.'),
    ledger: any('Narrator-owned world attributes and the starting world (docs/ledger.md).'),
  },
  { doc: 'A YARE rules file.', unknownIsWarning: true },
);

export const YARE_FILE: FileShape = {
  title: 'MnesOS yare.yaml',
  root: YARE_TOP_SHAPE,
  definitions: {
    stateNode: union(
      'A field (it has a type or a default) or a domain of fields.',
      FIELD_SHAPE,
      DOMAIN_SHAPE,
    ),
    step: { kind: 'tagged', tag: 'action', doc: 'A step: a mapping with an action.', variants: STEP_SHAPES },
    steps: list(ref('step'), 'Steps, run in order.'),
  },
};
