// Ember Toll — a small cartridge whose rules are written in TypeScript (docs/studio.md). The default
// export is the same rules object yare.yaml would hold; the engine runs this module in its sandbox
// (QuickJS in WebAssembly: no clock, no randomness, no I/O) and compiles what it returns like YAML.
// The helpers below are the reason to write rules as code: one function writes three similar events.
import { defineRules } from 'mnesos';

type Coin = 'copper' | 'silver' | 'ember';

/** What each way of paying costs, and the note the Narrator gets. */
const TOLLS: Record<Coin, { price: number; mood: string }> = {
  copper: { price: 2, mood: 'bites the coin, grunts, and waves the player through' },
  silver: { price: 5, mood: 'bows a little too low and lifts the bar at once' },
  ember: { price: 9, mood: 'stares at the glowing coin in silence, then opens both gates' },
};

const note = (text: string) => ({ action: 'note', message: `[SYSTEM LOG: ${text}]` }) as const;

function payEvent(coin: Coin) {
  const { price, mood } = TOLLS[coin];
  return {
    description: `Pay the bridge toll with ${coin} (${price} coins).`,
    intents: [`pay in ${coin}`, `pay with ${coin}`, `give ${coin}`],
    steps: [
      {
        action: 'branch',
        conditions: [
          { if: '@ state.player.crossed', steps: [note('The player is already across. Describe the far bank.')] },
          {
            if: `@ state.player.coins < ${price}`,
            steps: [note(`The player cannot pay ${price} coins. Describe the keeper's scorn.`)],
          },
          {
            else: true,
            steps: [
              { action: 'mutate', var: 'state.player.coins', op: 'sub', value: price },
              { action: 'set', var: 'state.player.crossed', value: true },
              note(`The keeper ${mood}. The player pays ${price} coins ({state.player.coins} left) and crosses. Describe the bridge.`),
            ],
          },
        ],
      },
    ],
  } as const;
}

/** A mini-game start: the client plays it, then the engine runs the resolver with its result. */
function startMinigame(minigameId: string, resolver: string, config: Record<string, unknown>) {
  return {
    action: 'set',
    var: 'state._pending_interaction',
    value: { interaction_type: 'minigame', minigame_id: minigameId, resolver_event: resolver, config },
  } as const;
}

const RESULT_INPUTS = {
  status: { type: 'string', enum: ['completed', 'failed', 'aborted'], default: 'aborted' },
  metrics: { type: 'dict', default: {} },
  data: { type: 'dict', default: {} },
} as const;

export default defineRules({
  version: '1.0',
  bot_name: 'Ember Toll',
  state_schema: {
    game_time: { type: 'string', default: '0412-10-01T20:00:00', visibility: 'public' },
    _pending_interaction: { type: 'dict', default: {} },
    player: {
      visibility: 'public',
      coins: { type: 'int', default: 6, min: 0, max: 99 },
      hp: { type: 'int', default: 10, min: 0, max: 10 },
      crossed: { type: 'bool', default: false },
      knows_password: { type: 'bool', default: false },
    },
  },
  macros: {
    sneak_roll: '@ roll(1d20) + 2',
  },
  events: {
    pay_copper: payEvent('copper'),
    pay_silver: payEvent('silver'),
    pay_ember: payEvent('ember'),
    sneak_across: {
      description: 'Try to slip past the toll keeper without paying.',
      intents: ['sneak', 'sneak across', 'slip past', 'cross without paying'],
      steps: [
        { action: 'set', var: 'temp.roll', value: '@ macros.sneak_roll' },
        {
          action: 'branch',
          if: '@ temp.roll >= 14',
          steps: [
            { action: 'set', var: 'state.player.crossed', value: true },
            note('The player rolled {temp.roll} and slips across unseen. Describe the held breath.'),
          ],
          else: [
            { action: 'mutate', var: 'state.player.hp', op: 'sub', value: 2 },
            note('The player rolled {temp.roll}; the keeper catches them with his staff (2 damage, {state.player.hp} HP left).'),
          ],
        },
      ],
    },
    pick_gate_lock: {
      description: "Pick the lock of the keeper's side gate (a reflex mini-game).",
      intents: ['pick the lock', 'pick lock', 'open the side gate'],
      steps: [
        startMinigame('reflex_dial', 'resolve_gate_lock', {
          difficulty: { indicator_speed: 0.5, zone_width_degrees: 60, required_success_hits: 2 },
        }),
        note('The player kneels at the side gate and works the lock. Describe the tumblers.'),
      ],
    },
    recite_password: {
      description: "Recite the ferrymen's password to cross for free (a word-order mini-game).",
      intents: ['say the password', 'recite the password', 'password'],
      steps: [
        startMinigame('articulation_scramble', 'resolve_password', {
          difficulty: {
            prompt: 'Say the ferrymen’s password.',
            prefix: 'The words are:',
            correct_sequence: ['ash', 'over', 'water'],
            confuse_words: ['ember', 'under'],
            max_time_seconds: 30,
          },
        }),
        note('The keeper folds his arms and waits for the password. Describe his patience.'),
      ],
    },
    resolve_gate_lock: {
      internal: true,
      inputs: RESULT_INPUTS,
      steps: [
        {
          action: 'branch',
          if: "@ inputs.status == 'completed'",
          steps: [
            { action: 'set', var: 'state.player.crossed', value: true },
            note('The lock clicks open; the player slips through the side gate.'),
          ],
          else: [note('A pin snaps; the lock holds. Describe the keeper looking up.')],
        },
      ],
    },
    resolve_password: {
      internal: true,
      inputs: RESULT_INPUTS,
      steps: [
        {
          action: 'branch',
          if: "@ inputs.status == 'completed'",
          steps: [
            { action: 'set', var: 'state.player.crossed', value: true },
            { action: 'set', var: 'state.player.knows_password', value: true },
            note('The password is right; the keeper lifts the bar without a word.'),
          ],
          else: [note('The words come out wrong; the keeper laughs. Describe it.')],
        },
      ],
    },
  },
});
