// Model answers for the generator tests: a first draft with three known errors, and the repair.

export const LORE = '# Mill Pond\n\nA mill beside a cold, deep pond. The miller is old and kind.\n';

/** yare.yaml with `{{HP}}`, `{{OP}}` and `{{GRID}}` to fill in. */
const YARE_TEMPLATE = `version: "1.0"
bot_name: "Mill Pond"
state_schema:
  _pending_interaction: { type: dict, default: {} }
  player:
    visibility: public
    hp: { type: int, default: 10, min: 0, max: 10 }
    dry: { type: bool, default: true }
events:
  swim_across:
    description: "The player swims across the cold pond."
    intents: ["swim", "swim across"]
    steps:
      - action: mutate
        var: state.player.{{HP}}
        op: {{OP}}
        value: 2
      - action: set
        var: state.player.dry
        value: false
      - action: note
        message: "[SYSTEM LOG: The player swims across, cold and wet ({state.player.hp} HP). Describe it.]"
  fix_the_wheel:
    description: "The player repairs the mill wheel's lamps (a puzzle)."
    intents: ["fix the wheel", "repair the wheel"]
    steps:
      - action: set
        var: state._pending_interaction
        value:
          interaction_type: minigame
          minigame_id: lights_out
          resolver_event: wheel_fixed
          config:
            difficulty: { grid_size: {{GRID}}, max_moves: 20 }
      - action: note
        message: "[SYSTEM LOG: The player kneels at the wheel's lamp board. Describe the lamps.]"
  wheel_fixed:
    internal: true
    inputs:
      status: { type: string, enum: ["completed", "failed", "aborted"], default: "aborted" }
      metrics: { type: dict, default: {} }
      data: { type: dict, default: {} }
    steps:
      - action: note
        message: "[SYSTEM LOG: The wheel puzzle ended: {inputs.status}. Describe the wheel.]"
`;

export const BROKEN_YARE = YARE_TEMPLATE.replace('{{HP}}', 'hpp')
  .replace('{{OP}}', 'subtract')
  .replace('{{GRID}}', '9');
export const FIXED_YARE = YARE_TEMPLATE.replace('{{HP}}', 'hp')
  .replace('{{OP}}', 'sub')
  .replace('{{GRID}}', '5');

/** The first answer: all four files, yare.yaml with three errors, inside code fences as models write. */
export const FIRST_ANSWER = `Here is the cartridge.

=== file: yare.yaml ===
\`\`\`yaml
${BROKEN_YARE}\`\`\`
=== file: bot_lore.md ===
${LORE}
=== file: prompt_directives.yaml ===
director: "Use the events for swimming and the wheel."
narrator: "Short, cold, second person."
=== file: first-message.md ===
The wheel creaks over the cold pond.
`;

/** The repair: only yare.yaml again (the other files are kept). */
export const REPAIR_ANSWER = `=== file: yare.yaml ===
${FIXED_YARE}`;
