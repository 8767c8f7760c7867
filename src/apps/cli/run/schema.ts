// The work of `mnesos schema <kind>` (see ../commands/schema.ts).

import { isSchemaKind, jsonSchemaOf, SCHEMA_KINDS } from '../../../tools/authoring/index.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';

export function runSchema(kind: string): void {
  if (!isSchemaKind(kind))
    throw new UserError(`Unknown schema kind '${kind}'. Kinds: ${SCHEMA_KINDS.join(', ')}.`, EXIT.usage);
  process.stdout.write(`${JSON.stringify(jsonSchemaOf(kind), null, 2)}\n`);
}
