// Tool-call arguments as every client reads and echoes them: shared by our OpenAI-compatible client, the
// scripted provider and the AI SDK adapter, and free of any SDK import.

import type { ToolCall } from './types.ts';

// Providers re-encode an assistant's tool-call input as JSON, and Anthropic requires an object; a call
// whose arguments were malformed is echoed as `{}` (the tool result that follows explains the error).
export function echoedInput(call: ToolCall): unknown {
  return call.args !== null && typeof call.args === 'object' ? call.args : {};
}

/** Parses tool arguments the way the SDK does (`""` means no arguments); `undefined` when malformed. */
export function parseToolArgs(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
