// A model's tool calls are echoed back to it in the next request of the same conversation (the Director's
// next round, a ledger repair). Their parsed arguments are hostile input: a call nested 30,000 deep or
// megabytes long would overflow the stack of whatever re-encodes it (the provider SDK, a deep copy) and
// waste the next prompt. Such arguments are echoed as `{}`; the tool result that follows says what was
// wrong with them.

import type { ToolCall } from '../../adapters/llm/index.ts';

/** Raw argument characters echoed back as sent; longer arguments are echoed as `{}`. */
export const MAX_ECHO_ARGS_CHARS = 64 * 1024;
/** Nesting depth of echoed arguments; deeper ones are echoed as `{}`. */
export const MAX_ECHO_ARGS_DEPTH = 16;
/** Values (objects, arrays, scalars) in echoed arguments; more are echoed as `{}`. */
export const MAX_ECHO_ARGS_NODES = 10_000;

/** Whether a parsed value is small and shallow enough to re-encode safely (checked without recursion). */
export function isEchoable(value: unknown): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: node, depth } = stack.pop()!;
    if (++nodes > MAX_ECHO_ARGS_NODES) return false;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_ECHO_ARGS_DEPTH) return false;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return true;
}

/** The calls as they may be sent back to the model. */
export function echoableCalls(calls: readonly ToolCall[]): ToolCall[] {
  return calls.map((call) =>
    call.rawArgs.length <= MAX_ECHO_ARGS_CHARS && isEchoable(call.args)
      ? call
      : { id: call.id, name: call.name, args: {}, rawArgs: '{}' },
  );
}
