// The story as the turn engine sees it, rebuilt from hydrated turns: each turn contributes the player's
// input (its text) and the narration. Turn 0 contributes only the first message.

import type { TurnMessage } from '../../adapters/store/index.ts';
import type { StoryMessage, TurnActor, TurnTable } from '../turn/index.ts';

/** The text of a stored input: `{kind, text}` as the turn record keeps it, or a bare string. */
export function inputText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (typeof input === 'object' && input !== null && 'text' in input) {
    const text = (input as { text: unknown }).text;
    if (typeof text === 'string') return text;
  }
  return undefined;
}

/** Who played a stored turn at a shared table, and whether it was a whisper (the input's `table`). */
export function tableOfInput(input: unknown): { actors: TurnActor[]; whisper: boolean } | undefined {
  if (typeof input !== 'object' || input === null || !('table' in input)) return undefined;
  const table = (input as { table: unknown }).table;
  if (typeof table !== 'object' || table === null) return undefined;
  const { actors, whisper } = table as { actors?: unknown; whisper?: unknown };
  if (!Array.isArray(actors)) return undefined;
  const named = actors.filter(
    (a): a is TurnActor =>
      typeof a === 'object' && a !== null && typeof a.character === 'string' && typeof a.name === 'string',
  );
  return { actors: named, whisper: whisper === true };
}

/**
 * The story for a prompt. At a shared table (`table`: the turn being played) each player line says whose
 * it is, and another character's whisper is not part of this turn's story at all (turn and narration).
 */
export function storyMessages(turns: readonly TurnMessage[], table?: TurnTable): StoryMessage[] {
  const acting = new Set(table?.actors.map((a) => a.character));
  const out: StoryMessage[] = [];
  for (const turn of turns) {
    const played = tableOfInput(turn.input);
    if (played?.whisper === true && !played.actors.some((a) => acting.has(a.character))) continue;
    const text = inputText(turn.input);
    if (turn.parentId !== null && text !== undefined && text !== '')
      out.push({
        role: 'user',
        content: played?.actors.length === 1 ? `${played.actors[0]!.name}: ${text}` : text,
      });
    if (turn.narration !== '') out.push({ role: 'assistant', content: turn.narration });
  }
  return out;
}
