// Converts the engine's provider-neutral request into AI SDK call settings. Tools are declared
// without `execute`, so the SDK never runs anything: the engine runs tools and replies with results.

import {
  jsonSchema,
  type ModelMessage,
  type UserModelMessage,
  type ToolChoice as SdkToolChoice,
  type ToolSet,
  tool,
} from 'ai';
import { ModelError } from './errors.ts';
import { checkToolSpecs } from './tool-specs.ts';
import { echoedInput } from './tool-args.ts';
import type { ChatMessage, ToolChoice, ToolSpec } from './types.ts';

/** Provider options as the AI SDK types them on a message. */
type MessageProviderOptions = NonNullable<UserModelMessage['providerOptions']>;

/**
 * The engine's messages as AI SDK messages. With `breakpoint`, a message flagged `cacheBreakpoint` carries
 * it as provider options (the provider that understands them caches the prompt up to there).
 */
export function toModelMessages(
  messages: readonly ChatMessage[],
  breakpoint?: MessageProviderOptions,
): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    const marked =
      breakpoint !== undefined && message.role !== 'tool' && message.cacheBreakpoint === true
        ? { providerOptions: breakpoint }
        : {};
    switch (message.role) {
      case 'user':
        return { role: 'user', content: message.content, ...marked };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: message.content, ...marked };
        return {
          role: 'assistant',
          content: [
            ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
            ...calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: echoedInput(call),
            })),
          ],
        };
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: { type: 'text', value: message.content },
            },
          ],
        };
      default: {
        const never: never = message;
        throw new ModelError('bad-request', `unknown chat message role in ${JSON.stringify(never)}`);
      }
    }
  });
}

export function toToolSet(tools: readonly ToolSpec[] | undefined): ToolSet | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  checkToolSpecs(tools);
  // Null prototype: the SDK looks tools up by the name the model sent, which may be `constructor`.
  const set: ToolSet = Object.create(null);
  for (const spec of tools) {
    set[spec.name] = tool({
      description: spec.description,
      // No `validate`: the SDK passes whatever JSON the model sent; the engine checks inputs itself.
      inputSchema: jsonSchema(spec.inputSchema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return set;
}

export function toToolChoice(choice: ToolChoice | undefined): SdkToolChoice<ToolSet> | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === 'object') return { type: 'tool', toolName: choice.tool };
  return choice;
}
