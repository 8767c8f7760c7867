// The story as the turn engine sees it, rebuilt from hydrated turns: each turn contributes the player's
// input (its text) and the narration. Turn 0 contributes only the first message.

import type { TurnMessage } from '../../adapters/store/index.ts';
import type { StoryMessage } from '../turn/index.ts';

/** The text of a stored input: `{kind, text}` as the turn record keeps it, or a bare string. */
export function inputText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (typeof input === 'object' && input !== null && 'text' in input) {
    const text = (input as { text: unknown }).text;
    if (typeof text === 'string') return text;
  }
  return undefined;
}

export function storyMessages(turns: readonly TurnMessage[]): StoryMessage[] {
  const out: StoryMessage[] = [];
  for (const turn of turns) {
    const text = inputText(turn.input);
    if (turn.parentId !== null && text !== undefined && text !== '')
      out.push({ role: 'user', content: text });
    if (turn.narration !== '') out.push({ role: 'assistant', content: turn.narration });
  }
  return out;
}
