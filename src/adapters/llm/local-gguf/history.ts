// The engine's messages as node-llama-cpp chat history: the model's chat template (read from the GGUF by
// node-llama-cpp) renders them. Tool calls and results have no place in a plain template, so a call the
// model made is shown as the JSON it wrote and a result as an engine line in a user turn. The history ends
// with an empty model turn: the one to be written.

import type { ChatMessage } from '../types.ts';
import type { ChatHistoryItem } from './llama-api.ts';

export function chatHistory(system: string, messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  if (system !== '') items.push({ type: 'system', text: system });
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ type: 'user', text: message.content });
        break;
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) =>
          JSON.stringify({ name: call.name, arguments: call.args ?? call.rawArgs }),
        );
        const text = [message.content, ...calls].filter((part) => part !== '').join('\n');
        items.push({ type: 'model', response: [text] });
        break;
      }
      case 'tool':
        items.push({ type: 'user', text: `[engine] result of ${message.toolName}: ${message.content}` });
        break;
      default: {
        const unreachable: never = message;
        throw new Error(`unknown message ${JSON.stringify(unreachable)}`);
      }
    }
  }
  items.push({ type: 'model', response: [] });
  return items;
}
