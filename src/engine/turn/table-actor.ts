// The `actor` input at a shared table: an event that declares an input named `actor` is told which character
// acts. In free order there is one actor, and the Director is never asked for it (the input leaves the
// tool's schema and the engine fills it, whatever the model sends); in a round the Director resolves every
// member's action and names, for each event, whose action it is: one of the round's characters.

import { ACTOR_INPUT } from './party.ts';
import type { ActorRule } from './actor-rule.ts';
import type { DirectorTool, DirectorToolSet } from './tools.ts';
import type { TurnTable } from './types.ts';

type Schema = { properties?: Record<string, unknown>; required?: readonly string[] };

/** The tool set with each `actor` input filled in (free order) or held to the round's characters. */
export function withTableActor(set: DirectorToolSet, table: TurnTable | undefined): DirectorToolSet {
  if (table === undefined || table.actors.length === 0) return set;
  const characters = table.actors.map((a) => a.character);
  const rule: ActorRule = characters.length === 1 ? { fixed: characters[0]! } : { among: characters };
  let changed = false;
  const byName = new Map<string, DirectorTool>();
  for (const [name, tool] of set.byName) {
    if (tool.kind !== 'event' || !tool.event.inputs.has(ACTOR_INPUT)) {
      byName.set(name, tool);
      continue;
    }
    changed = true;
    const schema = tool.spec.inputSchema as Schema;
    const { [ACTOR_INPUT]: _given, ...others } = schema.properties ?? {};
    const required = (schema.required ?? []).filter((key) => key !== ACTOR_INPUT);
    const inputSchema =
      'fixed' in rule
        ? { ...tool.spec.inputSchema, properties: others, required }
        : {
            ...tool.spec.inputSchema,
            properties: {
              ...others,
              [ACTOR_INPUT]: {
                type: 'string',
                enum: characters,
                description: 'The character whose action this event resolves.',
              },
            },
            required: [...required, ACTOR_INPUT],
          };
    byName.set(name, { ...tool, spec: { ...tool.spec, inputSchema }, actor: rule });
  }
  return changed ? { ...set, byName, specs: [...byName.values()].map((t) => t.spec) } : set;
}
