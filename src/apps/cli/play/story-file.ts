// `turn --messages f.json`: the story so far, as a JSON array of `{role: "user"|"assistant", content}`
// oldest first — exactly the `messages` a previous `turn --json` printed, so turns chain.

import { readFileSync, statSync } from 'node:fs';
import type { StoryMessage } from '../../../engine/turn/index.ts';
import { UserError } from '../user-error.ts';
import { MAX_MESSAGES_FILE_BYTES, MAX_STORY_MESSAGES } from './limits.ts';

export function readMessagesFile(path: string): StoryMessage[] {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new UserError(`${path}: cannot read messages file (${(error as Error).message}).`);
  }
  if (size > MAX_MESSAGES_FILE_BYTES) {
    throw new UserError(
      `${path}: messages file is ${size} bytes, over the ${MAX_MESSAGES_FILE_BYTES}-byte limit (MAX_MESSAGES_FILE_BYTES).`,
    );
  }
  return parseMessages(readFileSync(path, 'utf8'), path);
}

export function parseMessages(text: string, source: string): StoryMessage[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${source}: not valid JSON (${(error as Error).message}).`);
  }
  if (!Array.isArray(data)) {
    throw new UserError(`${source}: expected a JSON array of {"role": "user"|"assistant", "content": "…"}.`);
  }
  if (data.length > MAX_STORY_MESSAGES) {
    throw new UserError(
      `${source}: ${data.length} messages, over the limit of ${MAX_STORY_MESSAGES} (MAX_STORY_MESSAGES).`,
    );
  }
  return data.map((item, index) => {
    const where = `${source}: [${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new UserError(`${where}: expected an object with role and content.`);
    }
    const { role, content } = item as { role?: unknown; content?: unknown };
    if (role !== 'user' && role !== 'assistant') {
      throw new UserError(`${where}.role: must be "user" or "assistant", got ${JSON.stringify(role)}.`);
    }
    if (typeof content !== 'string') throw new UserError(`${where}.content: must be a string.`);
    const extra = Object.keys(item).filter((k) => k !== 'role' && k !== 'content');
    if (extra.length > 0) throw new UserError(`${where}: unknown key '${extra[0]}' (known: role, content).`);
    return { role, content };
  });
}
