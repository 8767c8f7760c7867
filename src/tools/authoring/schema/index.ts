// The editor schemas by kind: `mnesos schema <kind>`, `GET /v1/schemas/:kind`, and the files `mnesos new`
// writes next to a cartridge so an editor completes keys out of the box.

import { DIRECTIVES_FILE } from './directives-shape.ts';
import { toJsonSchema } from './json-schema.ts';
import { SCENARIO_FILE } from './scenario-shape.ts';
import type { FileShape } from './shape.ts';
import { YARE_FILE } from './yare-shape.ts';

export const SCHEMA_KINDS = ['yare', 'directives', 'scenario'] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];

export const FILE_SHAPES: Readonly<Record<SchemaKind, FileShape>> = {
  yare: YARE_FILE,
  directives: DIRECTIVES_FILE,
  scenario: SCENARIO_FILE,
};

/** The file name `mnesos new` gives each schema, in the cartridge's `.schemas/` folder. */
export function schemaFileName(kind: SchemaKind): string {
  return `${kind}.schema.json`;
}

export function isSchemaKind(text: string): text is SchemaKind {
  return (SCHEMA_KINDS as readonly string[]).includes(text);
}

export function jsonSchemaOf(kind: SchemaKind): Record<string, unknown> {
  return toJsonSchema(FILE_SHAPES[kind], `mnesos:${kind}`);
}

export { checkShape } from './check.ts';
export type { FileShape, Shape } from './shape.ts';
