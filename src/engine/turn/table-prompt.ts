// What the Director and the Narrator are told at a shared table: who acts (one character, or a round's
// characters in the order their actions resolve), who else is present, and whether the action is a whisper.
// Names are players' text, neutralised like every other player text before a prompt.

import { sanitizeForPrompt } from '../../core/text-policy.ts';
import { block, type PromptSection } from './prompts.ts';
import type { TurnActor, TurnTable } from './types.ts';

function who(actor: TurnActor): string {
  return `${sanitizeForPrompt(actor.name)} (character \`${actor.character}\`)`;
}

function tableText(table: TurnTable, role: 'director' | 'narrator'): string {
  const acting = new Set(table.actors.map((a) => a.character));
  const others = table.present.filter((p) => !acting.has(p.character));
  const lines: string[] = [];
  if (table.actors.length === 1) {
    const actor = table.actors[0]!;
    lines.push(
      `Acting now: ${who(actor)}. The player's message is ${sanitizeForPrompt(actor.name)}'s action.`,
    );
  } else {
    lines.push(
      `This turn resolves one round: each player's action, in this order: ${table.actors.map(who).join('; ')}.`,
    );
    if (role === 'director')
      lines.push(
        'Resolve them in that order; give every event with an `actor` input the character whose action it is.',
      );
  }
  lines.push(
    others.length === 0
      ? 'No other player is at the table.'
      : `Also at the table: ${others.map(who).join('; ')}.`,
  );
  lines.push("Never decide what another player's character does, says or feels; only their own player does.");
  if (table.whisper === true)
    lines.push(
      role === 'narrator'
        ? 'This action is a whisper to the game master: only its player reads this turn. Tell it to them alone.'
        : 'This action is a whisper to the game master: keep it between you and its player.',
    );
  return lines.join('\n');
}

/** The table's section in the Director's and the Narrator's prompts; none without a table (one player). */
export function tableSection(table: TurnTable | undefined, role: 'director' | 'narrator'): PromptSection[] {
  if (table === undefined) return [];
  return [
    {
      id: 'table',
      kind: 'volatile',
      text: block('THE TABLE (several players share this game)', tableText(table, role)),
      required: true,
      maxTokens: 600,
      why: 'who acts at the shared table and who else is there',
    },
  ];
}
