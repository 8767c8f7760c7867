// What the generator tells the model: the answer format, a compact guide to the four files (the full
// reference is docs/yare.md), a small valid example, and the mini-games with their settings (from the
// manifests, so the model is never told of a game or a setting that does not exist — the original told it
// to use a "minigame step", which is no YARE action).

import { MINIGAMES } from '../../../core/minigames/index.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { formatDiagnostic } from '../../../core/diagnostics.ts';
import { type DraftFiles, formatDraft } from './draft.ts';
import { MAX_ERRORS_SENT } from './limits.ts';

const EXAMPLE = `=== file: yare.yaml ===
version: "1.0"
bot_name: "Mill Pond"
state_schema:
  player:
    visibility: public
    hp: { type: int, default: 10, min: 0, max: 10 }
    coins: { type: int, default: 3, min: 0 }
    location: { type: string, default: "mill" }
macros:
  swim_roll: "@ roll(1d20) + 1"
events:
  swim_across:
    description: "The player tries to swim across the cold pond."
    intents: ["swim", "swim across", "cross the pond"]
    steps:
      - action: set
        var: temp.roll
        value: "@ macros.swim_roll"
      - action: branch
        if: "@ temp.roll >= 12"
        steps:
          - action: set
            var: state.player.location
            value: "far bank"
          - action: note
            message: "[SYSTEM LOG: The player rolled {temp.roll} and reaches the far bank. Describe the cold.]"
        else:
          - action: mutate
            var: state.player.hp
            op: sub
            value: 2
          - action: note
            message: "[SYSTEM LOG: The player rolled {temp.roll}, swallows water and loses 2 HP ({state.player.hp} left).]"
=== file: bot_lore.md ===
# Mill Pond

A mill beside a cold, deep pond. The miller is old and kind.
=== file: prompt_directives.yaml ===
director: "Use the events for anything with a roll; never invent numbers."
narrator: "Two or three sentences, second person, no numbers."
=== file: first-message.md ===
The mill wheel creaks. Across the pond, a light burns in a window.
`;

function minigameGuide(): string {
  return MINIGAMES.map((m) => {
    const settings = Object.entries(m.difficulty)
      .map(([name, f]) => {
        const range =
          f.kind === 'int' || f.kind === 'number'
            ? ` ${f.min}–${f.max}`
            : f.kind === 'text_list'
              ? ` (list of ${f.minItems}–${f.maxItems} texts)`
              : ' (text)';
        return `${name}${range}${f.required ? ', required' : ''}`;
      })
      .join('; ');
    return `- ${m.minigame_id}: ${m.description} config.difficulty: ${settings}. Hooks: ${Object.keys(m.hooks).join(', ')}. Metrics sent back: ${m.metrics.map((x) => x.name).join(', ')}.`;
  }).join('\n');
}

export function systemPrompt(): string {
  return [
    'You write cartridges for MnesOS, an engine for role-playing games whose rules are data. A cartridge is four files:',
    '- yare.yaml: the rules (state_schema, macros, events made of steps). The engine runs them; the model never does arithmetic.',
    '- bot_lore.md: the world, in Markdown sections (# and ## headings).',
    '- prompt_directives.yaml: short steering, keys director, narrator, npc (strings).',
    '- first-message.md: the opening message of a new game.',
    '',
    'Answer with the four files and nothing else. Start each file with a line "=== file: NAME ===" and put its full text after it.',
    '',
    'yare.yaml in brief:',
    '- state_schema: fields { type: int|float|bool|string|list|dict, default, min, max, visibility: public|private } grouped in mappings (player: { hp: {...} }).',
    '- Expressions are strings starting with "@": "@ roll(1d20) + state.player.level", "@ inputs.item in state.player.inventory". Python-like operators (and, or, not, in, ==, if/else).',
    '- Paths: state.<field path>, temp.<name> (scratch), inputs.<name> (declared inputs), macros.<name>.',
    '- An event: description, intents (player phrases), inputs ({ name: { type, enum, default, description } }), steps, optional internal: true.',
    '- Step actions and their fields: set (var, value); mutate (var, op: add|sub|mul|div, value); branch (conditions: [{ if, steps }, { else: true, steps }] or if/steps/else); table_roll (roll, var, table with keys like "1-5", "6+"); call (event, args); note (message, with {expression} pieces; at most 300 characters); list_push (var, item); list_remove (var, index or value); dict_set (var, key, value); dict_delete (var, key); foreach (array, item, steps).',
    '- Notes are stage directions for the narrator: "[SYSTEM LOG: what happened. Describe …]".',
    '- A mini-game starts with a set of state._pending_interaction to { interaction_type: minigame, minigame_id, resolver_event, config: { difficulty: {...}, narrative_hooks: {...} } }; declare _pending_interaction: { type: dict, default: {} } in state_schema, and a resolver event with internal: true and inputs status { type: string, enum: [completed, failed, aborted], default: aborted }, metrics { type: dict, default: {} }, data { type: dict, default: {} }.',
    'Mini-games:',
    minigameGuide(),
    '',
    'A small valid example:',
    EXAMPLE,
  ].join('\n');
}

export function draftRequest(requirements: string, existing: DraftFiles | undefined): string {
  if (existing === undefined) {
    return `Write a new cartridge from these requirements:\n\n${requirements}`;
  }
  return [
    'Change this cartridge as requested. Write every file again in full, changed or not.',
    '',
    `Change request:\n${requirements}`,
    '',
    'The cartridge now:',
    formatDraft(existing),
  ].join('\n');
}

export function repairRequest(errors: readonly Diagnostic[], formProblems: readonly string[]): string {
  const shown = errors.slice(0, MAX_ERRORS_SENT).map(formatDiagnostic);
  const more = errors.length > shown.length ? [`… and ${errors.length - shown.length} more.`] : [];
  return [
    'The checker refused the draft. Fix every problem below (each says file:line:col) and write the files you change again in full, in the same format. Files you do not write are kept as they are.',
    '',
    ...formProblems.map((p) => `answer: ${p}`),
    ...shown,
    ...more,
  ].join('\n');
}
