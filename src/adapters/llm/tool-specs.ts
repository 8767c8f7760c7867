// Checks on the tools a request declares, shared by every provider path: a name the providers would
// refuse, or a tool declared twice, is a programming error caught before any request is sent.

import { ModelError } from './errors.ts';
import { TOOL_NAME_PATTERN } from './limits.ts';
import type { ToolSpec } from './types.ts';

export function checkToolSpecs(tools: readonly ToolSpec[]): void {
  const seen = new Set<string>();
  for (const spec of tools) {
    if (!TOOL_NAME_PATTERN.test(spec.name)) {
      throw new ModelError(
        'bad-request',
        `tool name ${JSON.stringify(spec.name)} is not 1-64 characters of A-Z a-z 0-9 _ -`,
      );
    }
    if (seen.has(spec.name)) throw new ModelError('bad-request', `tool ${spec.name} is declared twice`);
    seen.add(spec.name);
  }
}
