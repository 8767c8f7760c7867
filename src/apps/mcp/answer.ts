// A tool's answer: text for the agent to read, cut at MAX_TOOL_TEXT_CHARS with a line saying so, and the
// refusals (McpRefusal, the session layer's expected failures) as tool errors the agent can act on, never as
// protocol errors or crashes.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isSessionError } from '../../engine/session/index.ts';
import { McpRefusal } from './context.ts';
import { MAX_TOOL_TEXT_CHARS } from './limits.ts';

/** `text` whole, or its first MAX_TOOL_TEXT_CHARS characters and a line saying how much was left out. */
export function capText(text: string, max: number = MAX_TOOL_TEXT_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters left out: the answer is over ${max}, MAX_TOOL_TEXT_CHARS)`;
}

export function textAnswer(text: string): CallToolResult {
  return { content: [{ type: 'text', text: capText(text) }] };
}

export function errorAnswer(text: string): CallToolResult {
  return { content: [{ type: 'text', text: capText(text) }], isError: true };
}

/** Runs a tool's work; a refusal or an expected session failure becomes an error answer naming it. */
export async function answered(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpRefusal) return errorAnswer(error.message);
    if (isSessionError(error)) return errorAnswer(`${error.code}: ${error.message}`);
    throw error;
  }
}
