// The shape of a scenario file (`tests/*.yaml` in a cartridge): the one description the scenario parser
// checks against and the editor schema is made from. docs/authoring.md explains each key.

import { MAX_PROPERTY_SEEDS } from '../scenario/limits.ts';
import { any, type FileShape, int, list, obj, oneOf, ref, str, union } from './shape.ts';

const path = str('A state path, e.g. state.player.hp (checked against the state schema).');
const bound = union('A number, or an "@ expression" read from the state.', { kind: 'number' }, str());

/** Expectation keys; each expectation has exactly one of these (plus `path` for equals/between). */
export const EXPECTATION_SHAPE = obj(
  {
    path,
    equals: any('The value the path must hold (with path).'),
    between: list(bound, 'Inclusive [low, high] the path must lie in (with path).', 2),
    check: str('An expression that must be true: "@ state.player.hp <= state.player.max_hp".'),
    note: str('Some note of the step contains this text.'),
    no_note: str('No note of the step contains this text.'),
    narration: str("The turn's narration contains this text."),
    refused: str('The event was refused with this code (e.g. YARE_BAD_INPUT).'),
    not_refused: str(
      'No rule run of the step (a cycle tick, a resolver, an event) was refused with this code.',
    ),
    ran: str('This event ran during the turn (directly, from a tick, or as a mini-game resolver).'),
    entity: str('The world ledger holds an entity with this key.'),
    fact: obj(
      { predicate: str(), subject: str(), object: str() },
      { doc: 'The world ledger holds a current fact like this.', required: ['predicate'] },
    ),
    thread: str('The world ledger holds an open story thread with this key.'),
  },
  { doc: 'One expectation.' },
);

const scriptEntries = list(any(), 'Scripted model responses, in order: {text, toolCalls: [{name, args}]}.');
const expect = list(EXPECTATION_SHAPE, 'What must hold after this step.');

export const STEP_SHAPE = obj(
  {
    event: str('Run this rule event (any event, internal ones too).'),
    inputs: obj({}, { doc: "The event's inputs.", extra: any() }),
    turn: str("A whole turn: the player's words, with a scripted Director and Narrator."),
    director: scriptEntries,
    narrator: scriptEntries,
    npc: scriptEntries,
    minigame: obj(
      {
        id: str('The minigame_id of the pending interaction.'),
        status: oneOf(['completed', 'failed', 'aborted'], 'How the mini-game ended.'),
        metrics: obj({}, { extra: any() }),
        data: obj({}, { extra: any() }),
      },
      { doc: 'A mini-game result sent as a turn; the resolver event runs.', required: ['id', 'status'] },
    ),
    seed: int('The dice seed of this step (default: the scenario seed plus the step number).', 0),
    expect,
  },
  { doc: 'One step: exactly one of event, turn or minigame.' },
);

const start = {
  seed: int('The dice seed (default 1).', 0),
  state: obj(
    {},
    { doc: 'Starting state: only the fields that matter; the rest are defaults.', extra: any() },
  ),
  save: str('Start from tests/saves/NAME.json instead of state.'),
};

export const SCENARIO_SHAPE = obj(
  {
    name: str('What this scenario shows.'),
    ...start,
    steps: list(ref('step')),
    expect,
    transcript: {
      kind: 'boolean',
      doc: 'Compare the observed record with the blessed transcript (mnesos test --bless writes it).',
    },
  },
  { doc: 'A scenario: a start, steps, expectations.', required: ['name', 'steps'] },
);

export const PROPERTY_SHAPE = obj(
  {
    name: str('What always holds.'),
    seeds: list(int(undefined, 0), `[first, last] seeds to try, at most ${MAX_PROPERTY_SEEDS} of them.`, 2),
    state: start.state,
    save: start.save,
    steps: list(ref('step')),
    always: list(EXPECTATION_SHAPE, 'Checked after every step, for every seed.'),
  },
  {
    doc: 'A property: steps run once per seed; `always` must hold after each step.',
    required: ['name', 'seeds', 'steps', 'always'],
  },
);

export const SCENARIO_FILE: FileShape = {
  title: 'MnesOS scenario file',
  root: obj(
    {
      scenarios: list(SCENARIO_SHAPE, 'Scenarios, run in order, each from its own start.'),
      properties: list(PROPERTY_SHAPE, 'Checks over a range of seeds.'),
    },
    { doc: 'A cartridge test file (tests/*.yaml).' },
  ),
  definitions: { step: STEP_SHAPE },
};
